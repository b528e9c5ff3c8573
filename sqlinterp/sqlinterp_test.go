package sqlinterp

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/sqlbaseline"
)

type appendCase struct {
	name  string
	query string
	args  []driver.Value
	opts  Options
	want  string
}

// driverCases re-express what go-sql-driver/mysql v1.9.3 documents and tests
// for interpolateParams (connection_test.go, utils_test.go), against this
// API. Where this package deliberately differs, the comment says so.
var driverCases = []appendCase{
	{name: "int and string (TestInterpolateParams)", query: "SELECT ?+?",
		args: []driver.Value{int64(42), "gopher"}, want: "SELECT 42+'gopher'"},
	{name: "json.RawMessage is a string literal (TestInterpolateParamsJSONRawMessage)", query: "SELECT ?",
		args: []driver.Value{json.RawMessage(`{"value":42}`)}, want: `SELECT '{\"value\":42}'`},
	{name: "uint64 (TestInterpolateParamsUint64)", query: "SELECT ?",
		args: []driver.Value{uint64(42)}, want: "SELECT 42"},
	// The driver counts every ? and gives up (driver.ErrSkip) on this
	// query; its test says the result should be this once string literals
	// are understood, which they are here.
	{name: "placeholder in string literal (TestInterpolateParamsPlaceholderInString)", query: "SELECT 'abc?xyz',?",
		args: []driver.Value{int64(42)}, want: "SELECT 'abc?xyz',42"},
	{name: "max uint64", query: "SELECT ?", args: []driver.Value{^uint64(0)}, want: "SELECT 18446744073709551615"},
	{name: "nil is NULL", query: "SELECT ?", args: []driver.Value{nil}, want: "SELECT NULL"},
	{name: "nil []byte is NULL", query: "SELECT ?", args: []driver.Value{[]byte(nil)}, want: "SELECT NULL"},
	{name: "empty []byte", query: "SELECT ?", args: []driver.Value{[]byte{}}, want: "SELECT _binary''"},
	{name: "bools", query: "SELECT ?, ?", args: []driver.Value{true, false}, want: "SELECT 1, 0"},
	{name: "float shortest form", query: "SELECT ?, ?, ?, ?", args: []driver.Value{0.1, 1e21, -2.5e-8, float64(1 << 53)},
		want: "SELECT 0.1, 1e+21, -2.5e-08, 9.007199254740992e+15"},
	{name: "zero time", query: "SELECT ?", args: []driver.Value{time.Time{}}, want: "SELECT '0000-00-00'"},
	// The driver writes midnight as a date alone and up to nine fraction
	// digits; this package always writes the time of day and at most
	// microseconds, the precision of DATETIME(6), dropping the rest
	// (MariaDB drops extra digits, MySQL 8 rounds them).
	{name: "time at midnight", query: "SELECT ?", args: []driver.Value{time.Date(1234, 5, 6, 0, 0, 0, 0, time.UTC)},
		want: "SELECT '1234-05-06 00:00:00'"},
	{name: "time with milliseconds", query: "SELECT ?", args: []driver.Value{time.Date(2020, 5, 30, 22, 33, 44, 123000000, time.UTC)},
		want: "SELECT '2020-05-30 22:33:44.123000'"},
	{name: "time with nanoseconds", query: "SELECT ?", args: []driver.Value{time.Date(2020, 5, 30, 22, 33, 44, 123456789, time.UTC)},
		want: "SELECT '2020-05-30 22:33:44.123456'"},
	{name: "last time", query: "SELECT ?", args: []driver.Value{time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)},
		want: "SELECT '9999-12-31 23:59:59.999999'"},
	// The zero time.Time is 0001-01-01 00:00:00 UTC; it becomes the zero
	// date, as in the driver, and the next microsecond is a real time.
	{name: "first time", query: "SELECT ?", args: []driver.Value{time.Date(1, 1, 1, 0, 0, 0, 1000, time.UTC)},
		want: "SELECT '0001-01-01 00:00:00.000001'"},
	{name: "zero time in a zone", query: "SELECT ?", args: []driver.Value{time.Time{}.In(time.FixedZone("east", 3600))},
		want: "SELECT '0000-00-00'"},
	{name: "time in Location", query: "SELECT ?",
		args: []driver.Value{time.Date(2020, 1, 1, 0, 30, 0, 0, time.UTC)},
		opts: Options{Location: time.FixedZone("UTC-1", -3600)}, want: "SELECT '2019-12-31 23:30:00'"},
	{name: "nil Location is UTC", query: "SELECT ?",
		args: []driver.Value{time.Date(2020, 1, 1, 0, 30, 0, 0, time.FixedZone("UTC+9", 9*3600))},
		want: "SELECT '2019-12-31 15:30:00'"},
	// TestEscapeBackslash: the seven bytes mysql_real_escape_string escapes.
	{name: "backslash escapes", query: "SELECT ?",
		args: []driver.Value{"foo\x00bar foo\nbar foo\rbar foo\x1abar foo\"bar foo\\bar foo'bar"},
		want: `SELECT 'foo\0bar foo\nbar foo\rbar foo\Zbar foo\"bar foo\\bar foo\'bar'`},
	{name: "backslash escapes in bytes", query: "SELECT ?",
		args: []driver.Value{[]byte("foo\x00bar foo\nbar foo\rbar foo\x1abar foo\"bar foo\\bar foo'bar")},
		want: `SELECT _binary'foo\0bar foo\nbar foo\rbar foo\Zbar foo\"bar foo\\bar foo\'bar'`},
	// TestEscapeQuotes: with NO_BACKSLASH_ESCAPES only the quote changes.
	{name: "quote escapes", query: "SELECT ?", opts: Options{NoBackslashEscapes: true},
		args: []driver.Value{"foo\x00bar foo\nbar foo\rbar foo\x1abar foo\"bar foo\\bar foo'bar"},
		want: "SELECT 'foo\x00bar foo\nbar foo\rbar foo\x1abar foo\"bar foo\\bar foo''bar'"},
	{name: "quote escapes in bytes and JSON", query: "SELECT ?, ?", opts: Options{NoBackslashEscapes: true},
		args: []driver.Value{[]byte("a'b\\"), json.RawMessage(`"it's"`)},
		want: `SELECT _binary'a''b\', '"it''s"'`},
	{name: "nil json.RawMessage is NULL", query: "SELECT ?", args: []driver.Value{json.RawMessage(nil)}, want: "SELECT NULL"},
	{name: "the methane benchmark", query: sqlbaseline.InterpolateQuery, args: sqlbaseline.InterpolateArgs, want: sqlbaseline.InterpolateWant},
}

// dialectCases pin where a ? is a placeholder.
var dialectCases = []appendCase{
	{name: "no placeholders", query: "SELECT 1", want: "SELECT 1"},
	{name: "empty query", query: "", want: ""},
	{name: "double-quoted string", query: `SELECT "a?b", ?`, args: []driver.Value{int64(1)}, want: `SELECT "a?b", 1`},
	{name: "backquoted identifier", query: "SELECT ? AS `a?b`", args: []driver.Value{int64(1)}, want: "SELECT 1 AS `a?b`"},
	{name: "doubled backquote", query: "SELECT ? AS `a``?`", args: []driver.Value{int64(1)}, want: "SELECT 1 AS `a``?`"},
	{name: "backslash is literal in backquotes", query: "SELECT `a\\`, ?", args: []driver.Value{int64(1)}, want: "SELECT `a\\`, 1"},
	{name: "doubled quote", query: "SELECT 'it''s?', ?", args: []driver.Value{int64(1)}, want: "SELECT 'it''s?', 1"},
	{name: "escaped quote", query: `SELECT 'it\'s?', ?`, args: []driver.Value{int64(1)}, want: `SELECT 'it\'s?', 1`},
	{name: "escaped backslash ends string", query: `SELECT 'a\\', ?`, args: []driver.Value{int64(1)}, want: `SELECT 'a\\', 1`},
	// With NO_BACKSLASH_ESCAPES, 'a\' is a whole string, so the ? after it
	// is a placeholder.
	{name: "backslash literal without escapes", query: `SELECT 'a\', ?`, opts: Options{NoBackslashEscapes: true},
		args: []driver.Value{int64(1)}, want: `SELECT 'a\', 1`},
	{name: "dash-dash-space comment", query: "SELECT ? -- ?\n, ?", args: []driver.Value{int64(1), int64(2)}, want: "SELECT 1 -- ?\n, 2"},
	{name: "dash-dash-tab comment", query: "SELECT ? --\t?\n, ?", args: []driver.Value{int64(1), int64(2)}, want: "SELECT 1 --\t?\n, 2"},
	// -- before DEL or a byte from 0x80 up is a comment in some character
	// sets (latin1 counts 0xA0 as a space) and not in others: no ? may
	// follow, and what precedes is replaced.
	{name: "dash-dash-DEL", query: "SELECT ? --\x7f\n, 2", args: []driver.Value{int64(1)}, want: "SELECT 1 --\x7f\n, 2"},
	{name: "dash-dash-NBSP", query: "SELECT ? --\xa0\n, 2", args: []driver.Value{int64(1)}, want: "SELECT 1 --\xa0\n, 2"},
	{name: "dash-dash at end", query: "SELECT ? --", args: []driver.Value{int64(1)}, want: "SELECT 1 --"},
	{name: "dash-dash without space is two minuses", query: "SELECT 1--?", args: []driver.Value{int64(-1)}, want: "SELECT 1---1"},
	{name: "hash comment", query: "SELECT ? # ?\n, ?", args: []driver.Value{int64(1), int64(2)}, want: "SELECT 1 # ?\n, 2"},
	{name: "block comment", query: "SELECT ? /* ? ' */, ?", args: []driver.Value{int64(1), int64(2)}, want: "SELECT 1 /* ? ' */, 2"},
	{name: "unclosed block comment", query: "SELECT ? /* ?", args: []driver.Value{int64(1)}, want: "SELECT 1 /* ?"},
	{name: "slash is division", query: "SELECT ?/?", args: []driver.Value{int64(1), int64(2)}, want: "SELECT 1/2"},
	// Executable comments: what follows them is copied unchanged, and may
	// hold no ? (TestRefusedAfterExecutableComment).
	{name: "executable comment after the placeholders", query: "SELECT ? /*! , '*/' */", args: []driver.Value{int64(2)}, want: "SELECT 2 /*! , '*/' */"},
	{name: "versioned comment", query: "SELECT ? /*!40001 , 3 */", args: []driver.Value{int64(2)}, want: "SELECT 2 /*!40001 , 3 */"},
	{name: "MariaDB comment", query: "SELECT ? /*M!100100 , 3 */", args: []driver.Value{int64(2)}, want: "SELECT 2 /*M!100100 , 3 */"},
	{name: "optimizer hint", query: "SELECT ?, /*+ BKA(t) */ 1", args: []driver.Value{int64(2)}, want: "SELECT 2, /*+ BKA(t) */ 1"},
	{name: "executable comment openers in a comment", query: "SELECT ? /* /*! /*M! /*+ */, ?", args: []driver.Value{int64(1), int64(2)}, want: "SELECT 1 /* /*! /*M! /*+ */, 2"},
	{name: "comments do not nest", query: "SELECT ? /* /* */, ?", args: []driver.Value{int64(1), int64(2)}, want: "SELECT 1 /* /* */, 2"},
	{name: "@ and a space", query: "SET @x = ?, @ ?", args: []driver.Value{int64(1), int64(2)}, want: "SET @x = 1, @ 2"},
	{name: "ANSI_QUOTES identifier keeps backslash", query: `SELECT ? AS "a\", ?`, opts: Options{ANSIQuotes: true},
		args: []driver.Value{int64(1), int64(2)}, want: `SELECT 1 AS "a\", 2`},
	{name: "unclosed string", query: "SELECT ?, 'abc?", args: []driver.Value{int64(1)}, want: "SELECT 1, 'abc?"},
	{name: "appends to dst", query: "?", args: []driver.Value{"x"}, want: "'x'"},
}

func TestAppend(t *testing.T) {
	for _, group := range [][]appendCase{driverCases, dialectCases} {
		for _, tc := range group {
			t.Run(tc.name, func(t *testing.T) {
				got, err := Append(nil, tc.query, tc.args, tc.opts)
				if err != nil {
					t.Fatalf("Append(%q) error: %v", tc.query, err)
				}
				if string(got) != tc.want {
					t.Errorf("Append(%q)\n got %q\nwant %q", tc.query, got, tc.want)
				}
				if n, err := CountPlaceholders(tc.query, tc.opts); err != nil || n != len(tc.args) {
					t.Errorf("CountPlaceholders(%q) = %d, %v; want %d", tc.query, n, err, len(tc.args))
				}
				// AppendArgs writes the same bytes.
				if args, ok := typedArgs(tc.args); ok {
					typed, err := AppendArgs(nil, tc.query, args, tc.opts)
					if err != nil || string(typed) != tc.want {
						t.Errorf("AppendArgs(%q) = %q, %v; want %q", tc.query, typed, err, tc.want)
					}
				}
				// Appending after existing bytes keeps them.
				prefix := []byte("prefix:")
				got, err = Append(prefix, tc.query, tc.args, tc.opts)
				if err != nil || string(got) != "prefix:"+tc.want {
					t.Errorf("Append(prefix, %q) = %q, %v; want %q", tc.query, got, err, "prefix:"+tc.want)
				}
			})
		}
	}
}

func TestAppendErrors(t *testing.T) {
	type myInt int
	tests := []struct {
		name   string
		query  string
		args   []driver.Value
		opts   Options
		target any // pointer to the error type wanted
		is     error
		msg    string
	}{
		{name: "too few args (TestInterpolateParamsTooManyPlaceholders)", query: "SELECT ?+?", args: []driver.Value{int64(42)},
			target: new(*CountError), msg: "sqlinterp: query has 2 placeholders but 1 arguments were given"},
		{name: "too few args counts the rest", query: "SELECT ?, ?, '?', ?", args: []driver.Value{int64(1)},
			target: new(*CountError), msg: "sqlinterp: query has 3 placeholders but 1 arguments were given"},
		{name: "too many args", query: "SELECT ?, '?'", args: []driver.Value{int64(1), int64(2)},
			target: new(*CountError), msg: "sqlinterp: query has 1 placeholders but 2 arguments were given"},
		{name: "int is not a driver.Value", query: "SELECT ?", args: []driver.Value{42},
			target: new(*ArgError), is: ErrArgType, msg: "sqlinterp: argument 0 (int): unsupported type; want nil, int64, uint64, float64, bool, time.Time, []byte, string or json.RawMessage (Interpolate also converts other ints, floats and driver.Valuer)"},
		{name: "named type", query: "SELECT ?, ?", args: []driver.Value{nil, myInt(1)},
			target: new(*ArgError), is: ErrArgType, msg: "sqlinterp: argument 1 (sqlinterp.myInt): unsupported type; want nil, int64, uint64, float64, bool, time.Time, []byte, string or json.RawMessage (Interpolate also converts other ints, floats and driver.Valuer)"},
		{name: "NaN", query: "SELECT ?", args: []driver.Value{math.NaN()},
			target: new(*ArgError), is: ErrArgValue, msg: "sqlinterp: argument 0 (float64): NaN has no SQL literal"},
		{name: "-Inf", query: "SELECT ?", args: []driver.Value{math.Inf(-1)},
			target: new(*ArgError), is: ErrArgValue, msg: "sqlinterp: argument 0 (float64): -Inf has no SQL literal"},
		{name: "year 10000", query: "SELECT ?", args: []driver.Value{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
			target: new(*ArgError), is: ErrArgValue, msg: "sqlinterp: argument 0 (time.Time): year 10000 is outside the DATETIME range 1 to 9999"},
		{name: "year 0 after Location", query: "SELECT ?", args: []driver.Value{time.Date(1, 1, 1, 0, 30, 0, 0, time.UTC)},
			opts:   Options{Location: time.FixedZone("west", -3600)},
			target: new(*ArgError), is: ErrArgValue, msg: "sqlinterp: argument 0 (time.Time): year 0 is outside the DATETIME range 1 to 9999"},
		{name: "placeholder in versioned comment", query: "SELECT 1 /*!50700 , ? */", args: []driver.Value{int64(1)},
			target: new(*QueryError), msg: "sqlinterp: query byte 9: an executable comment (/*!, /*M! or /*+), after which no ? may appear (there is one at byte 20); put placeholders before it or use a server-side prepared statement"},
		{name: "placeholder in MariaDB comment", query: "SELECT 1 /*M! , ? */", args: []driver.Value{int64(1)},
			target: new(*QueryError), msg: "sqlinterp: query byte 9: an executable comment (/*!, /*M! or /*+), after which no ? may appear (there is one at byte 16); put placeholders before it or use a server-side prepared statement"},
		{name: "placeholder after -- and a non-ASCII byte", query: "SELECT --\xa0\n?", args: []driver.Value{int64(1)},
			target: new(*QueryError), msg: "sqlinterp: query byte 7: \"--\" followed by a byte from 0x7F up, a comment in some character sets and not in others, after which no ? may appear (there is one at byte 11); put placeholders before it or use a server-side prepared statement"},
		{name: "placeholder after a NUL byte", query: "SELECT 1 # \x00\n?", args: []driver.Value{int64(1)},
			target: new(*QueryError), msg: "sqlinterp: query byte 11: a NUL byte, which ends a -- or # comment on MariaDB, after which no ? may appear (there is one at byte 13); put placeholders before it or use a server-side prepared statement"},
		{name: "placeholder after @", query: "SELECT @?", args: []driver.Value{int64(1)},
			target: new(*QueryError), msg: "sqlinterp: query byte 8: placeholder right after '@': @'…' is a variable name, in which a backslash escapes nothing, and \\ swallows the quote after it; put a space between them"},
		{name: "string past MaxSize", query: "SELECT ?", args: []driver.Value{strings.Repeat("x", 100)}, opts: Options{MaxSize: 100},
			target: new(*SizeError), msg: "sqlinterp: interpolated query exceeds the maximum size of 100 bytes (Options.MaxSize)"},
		{name: "escapes past MaxSize", query: "?", args: []driver.Value{strings.Repeat("'", 60)}, opts: Options{MaxSize: 100},
			target: new(*SizeError), msg: "sqlinterp: interpolated query exceeds the maximum size of 100 bytes (Options.MaxSize)"},
		{name: "query text past MaxSize", query: "SELECT ?" + strings.Repeat(" ", 100), args: []driver.Value{int64(1)}, opts: Options{MaxSize: 100},
			target: new(*SizeError), msg: "sqlinterp: interpolated query exceeds the maximum size of 100 bytes (Options.MaxSize)"},
		// Faults found after a first literal could have been written.
		{name: "too many args, late", query: "SELECT ?, ?", args: []driver.Value{int64(1), "x", nil},
			target: new(*CountError), msg: "sqlinterp: query has 2 placeholders but 3 arguments were given"},
		{name: "NaN, late", query: "SELECT ?, ?", args: []driver.Value{"x", math.NaN()},
			target: new(*ArgError), is: ErrArgValue, msg: "sqlinterp: argument 1 (float64): NaN has no SQL literal"},
		{name: "year 10000, late", query: "SELECT ?, ?", args: []driver.Value{"x", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
			target: new(*ArgError), is: ErrArgValue, msg: "sqlinterp: argument 1 (time.Time): year 10000 is outside the DATETIME range 1 to 9999"},
		{name: "unsupported type, late", query: "SELECT ?, ?", args: []driver.Value{"x", int32(1)},
			target: new(*ArgError), is: ErrArgType, msg: "sqlinterp: argument 1 (int32): unsupported type; want nil, int64, uint64, float64, bool, time.Time, []byte, string or json.RawMessage (Interpolate also converts other ints, floats and driver.Valuer)"},
		{name: "refused after a placeholder", query: "SELECT ?, /*+ QB_NAME('q') */ ?", args: []driver.Value{"x", "y"},
			target: new(*QueryError), msg: "sqlinterp: query byte 10: an executable comment (/*!, /*M! or /*+), after which no ? may appear (there is one at byte 30); put placeholders before it or use a server-side prepared statement"},
		{name: "escapes past MaxSize, late", query: "SELECT ?, ?", args: []driver.Value{"x", strings.Repeat("'", 40)}, opts: Options{MaxSize: 70},
			target: new(*SizeError), msg: "sqlinterp: interpolated query exceeds the maximum size of 70 bytes (Options.MaxSize)"},
		{name: "spaces past MaxSize", query: "SELECT ??", args: []driver.Value{"x", "y"}, opts: Options{MaxSize: 13},
			target: new(*SizeError), msg: "sqlinterp: interpolated query exceeds the maximum size of 13 bytes (Options.MaxSize)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := []byte("keep")
			got, err := Append(dst, tc.query, tc.args, tc.opts)
			if err == nil {
				t.Fatalf("Append(%q) = %q, want an error", tc.query, got)
			}
			if string(got) != "keep" {
				t.Errorf("on error Append returned %q, want dst cut back to %q", got, "keep")
			}
			// An error writes nothing, not even in dst's spare capacity.
			canaried := bytes.Repeat([]byte{canary}, 4+256)
			copy(canaried, "keep")
			if _, err := Append(canaried[:4], tc.query, tc.args, tc.opts); err == nil || !bytes.Equal(canaried[4:], bytes.Repeat([]byte{canary}, 256)) {
				t.Errorf("Append(%q) into spare capacity: %v, and wrote %q", tc.query, err, canaried[4:])
			}
			if args, ok := typedArgs(tc.args); ok {
				if _, err := AppendArgs(canaried[:4], tc.query, args, tc.opts); err == nil || !bytes.Equal(canaried[4:], bytes.Repeat([]byte{canary}, 256)) {
					t.Errorf("AppendArgs(%q) into spare capacity: %v, and wrote %q", tc.query, err, canaried[4:])
				}
				if q, perr := Parse(tc.query); perr == nil {
					if _, err := q.AppendArgs(canaried[:4], args, tc.opts); err == nil || !bytes.Equal(canaried[4:], bytes.Repeat([]byte{canary}, 256)) {
						t.Errorf("Query.AppendArgs(%q) into spare capacity: %v, and wrote %q", tc.query, err, canaried[4:])
					}
				}
			}
			if !errors.As(err, tc.target) {
				t.Errorf("error %v (%T) is not a %T", err, err, tc.target)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
			if err.Error() != tc.msg {
				t.Errorf("message\n got %q\nwant %q", err.Error(), tc.msg)
			}
			// AppendArgs fails alike, for the types it has.
			if args, ok := typedArgs(tc.args); ok {
				got, err := AppendArgs([]byte("keep"), tc.query, args, tc.opts)
				if err == nil || err.Error() != tc.msg || string(got) != "keep" {
					t.Errorf("AppendArgs(%q) = %q, %v; want %q", tc.query, got, err, tc.msg)
				}
			}
		})
	}
}

func TestMaxSizeExact(t *testing.T) {
	// "SELECT 'xx'" is 11 bytes: a limit of 11 passes, 10 fails.
	if got, err := Append(nil, "SELECT ?", []driver.Value{"xx"}, Options{MaxSize: 11}); err != nil || string(got) != "SELECT 'xx'" {
		t.Errorf("MaxSize 11: %q, %v", got, err)
	}
	if _, err := Append(nil, "SELECT ?", []driver.Value{"xx"}, Options{MaxSize: 10}); err == nil {
		t.Error("MaxSize 10: no error")
	}
	// The limit counts this call's output, not what dst held before.
	if _, err := Append(make([]byte, 50), "SELECT ?", []driver.Value{"xx"}, Options{MaxSize: 11}); err != nil {
		t.Errorf("MaxSize 11 after 50 bytes: %v", err)
	}
}

// jsonDoc is a driver.Valuer with a value receiver.
type jsonDoc struct{ s string }

func (d jsonDoc) Value() (driver.Value, error) { return json.RawMessage(d.s), nil }

func TestInterpolate(t *testing.T) {
	type name string
	ts := time.Date(2024, 2, 29, 12, 0, 0, 5000, time.UTC)
	got, err := Interpolate("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		1, int8(-2), uint32(3), uint(4), float32(0.5), name("it's"), ts, []byte(nil), &ts)
	if err != nil {
		t.Fatal(err)
	}
	want := `INSERT INTO t VALUES (1, -2, 3, 4, 0.5, 'it\'s', '2024-02-29 12:00:00.000005', NULL, '2024-02-29 12:00:00.000005')`
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// driver.Valuer, including one returning a json.RawMessage, which
	// database/sql's default converter would refuse, and a nil pointer.
	var nilDoc *jsonDoc
	got, err = Interpolate("SELECT ?, ?", jsonDoc{`{"a":"it's"}`}, nilDoc)
	if want := `SELECT '{\"a\":\"it\'s\"}', NULL`; err != nil || got != want {
		t.Errorf("Valuer: got %q, %v; want %q", got, err, want)
	}
	_, err = Interpolate("SELECT ?", struct{}{})
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Type != "struct {}" || !errors.Is(err, ErrArgType) ||
		err.Error() != "sqlinterp: argument 0 (struct {}): unsupported type struct {}, a struct" {
		t.Errorf("struct argument: got %v", err)
	}
	if _, err := Interpolate("SELECT ?"); err == nil {
		t.Error("missing argument: no error")
	}
}

func TestAllocs(t *testing.T) {
	dst := make([]byte, 0, 256)
	var err error
	pooltest.WantAllocs(t, 0, func() { // a reused dst
		dst, err = Append(dst[:0], sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, Options{})
	})
	if err != nil || string(dst) != sqlbaseline.InterpolateWant {
		t.Fatalf("Append = %q, %v", dst, err)
	}
	// With nil dst, the estimate sizes the one allocation.
	pooltest.WantAllocs(t, 1, func() {
		dst, err = Append(nil, sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, Options{})
	})
	noBS := Options{NoBackslashEscapes: true, Location: time.UTC}
	pooltest.WantAllocs(t, 0, func() { // NoBackslashEscapes and a reused dst
		dst, err = Append(dst[:0], sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, noBS)
	})
}

// TestConcurrent runs Append from several goroutines on shared arguments,
// each with its own buffer, as connections of one driver would: Append
// keeps no state, which -race checks.
func TestConcurrent(t *testing.T) {
	pooltest.RunConcurrently(t, 4, func(g int) error {
		var dst []byte
		for i := 0; i < 500; i++ {
			var err error
			dst, err = Append(dst[:0], sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, Options{})
			if err != nil || string(dst) != sqlbaseline.InterpolateWant {
				return fmt.Errorf("goroutine %d, call %d: %q, %v", g, i, dst, err)
			}
		}
		return nil
	})
}

// TestRefusedAfterExecutableComment checks that a ? anywhere after an
// executable comment that is not plain (see plainExecutable), or after
// another construct whose reading depends on the server, is refused,
// whatever lies between.
func TestRefusedAfterExecutableComment(t *testing.T) {
	for _, q := range []string{
		// A # or -- comment ending at a newline just after the first */:
		// a server that runs the comment reads on from the newline, one
		// that skips it from the */.
		"SELECT 2 /*!40000 # */\n */* ' */ , ? AS v -- '\n",
		"SELECT 2 /*!40000 -- */\n */* ' */ , ? AS v -- '\n",
		"SELECT 2 /*M!100000 # */\n */* ' */ , ? AS v -- '\n",
		"SELECT 2 /*M!100000 -- */\n */* ' */ , ? AS v -- '\n",
		"/*!50700 # */\n */ ?",
		"SELECT 2 /*+ a --\n */, ?",
		// Every byte a plain comment may not hold, the ? in code, quotes or
		// comments after it.
		"SELECT 1 /*! , ? */",
		"SELECT 1 /*!, '*/' */, ?",
		"SELECT 1 /*!, \"*/\" */, ?",
		"SELECT 1 /*!, `*/` */, ?",
		"SELECT 1 /*!, 'x' */, ?",
		"SELECT 1 /*M!100100 , \"x\" */, '?'",
		"SELECT 1 /*!50000 , `x` */, ?",
		"SELECT 1 /*!50000 , 2 # */, ?",
		"SELECT 1 /*+ a /* b */, ?",
		"SELECT 1 /*+ a \\ b */, ?",
		"SELECT 1 /*+ a @b */, ?",
		"SELECT 1 /*+ a ; b */, ?",
		"SELECT 1 /*! , 2 \xa0*/, ?",
		"SELECT 1 /*! , 'é' */, ?",
		"SELECT 1 /*! , 2 /*/, ?",
		"SELECT /*+ BKA(t) ?",
		"SELECT /*! 1 , ?",
		// -- before a byte that is a space in one character set and not in
		// another, and a NUL byte, which ends a line comment on MariaDB.
		"SELECT 5 --\xa0'\n, ?",
		"SELECT 5 --\x7f\n, ?",
		"SELECT 5 # \x00 '\n, ?",
		"SELECT '\x00', ?",
		// A ? right after @ would be a user variable's quoted name, in
		// which a backslash escapes nothing; after \ it would lose its quote.
		"SELECT @?",
		"SELECT @@?",
		`SELECT \?`,
	} {
		for _, opts := range []Options{{}, {NoBackslashEscapes: true}, {ANSIQuotes: true}} {
			got, err := Append([]byte("keep"), q, []driver.Value{"+ (SELECT 42) +"}, opts)
			var qe *QueryError
			if !errors.As(err, &qe) {
				t.Errorf("Append(%q, %+v) = %q, %v; want a *QueryError", q, opts, got, err)
				continue
			}
			if string(got) != "keep" {
				t.Errorf("Append(%q) on error returned %q, want dst cut back", q, got)
			}
			if n, err := CountPlaceholders(q, opts); !errors.As(err, &qe) {
				t.Errorf("CountPlaceholders(%q) = %d, %v; want a *QueryError", q, n, err)
			}
		}
	}
}

// TestAcceptedBeforeExecutableComment checks the other side of the rule:
// placeholders before the first executable comment are replaced, and the
// comment and what follows it are copied unchanged when they hold no ?.
func TestAcceptedBeforeExecutableComment(t *testing.T) {
	tests := []struct{ query, want string }{
		{"SELECT ? /*!40001 SQL_NO_CACHE */", "SELECT 1 /*!40001 SQL_NO_CACHE */"},
		{"SELECT ?, '/*!' /*M!100000 , 'x' */", "SELECT 1, '/*!' /*M!100000 , 'x' */"},
		{"SELECT ? -- /*! ?\n/*+ x */ 1", "SELECT 1 -- /*! ?\n/*+ x */ 1"},
		{"SELECT ? /* /*! ? */ # /*!\n", "SELECT 1 /* /*! ? */ # /*!\n"},
		{"SELECT ? /*!*/ \x00", "SELECT 1 /*!*/ \x00"},
		{"SELECT ?, @ ?", "SELECT 1, @ 1"},
		// A plain executable comment reads the same run or skipped: a ?
		// after it is a placeholder as any other.
		{"SELECT /*!40001 SQL_NO_CACHE */ ?", "SELECT /*!40001 SQL_NO_CACHE */ 1"},
		{"SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t WHERE id = ?", "SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t WHERE id = 1"},
		{"SELECT /*+ BKA(t1) NO_BKA(t2) */ * FROM t1, t2 WHERE t1.a = ?", "SELECT /*+ BKA(t1) NO_BKA(t2) */ * FROM t1, t2 WHERE t1.a = 1"},
		{"INSERT /*+ SET_VAR(foreign_key_checks=OFF) */ INTO t VALUES (?)", "INSERT /*+ SET_VAR(foreign_key_checks=OFF) */ INTO t VALUES (1)"},
		{"SELECT /*!40001 SQL_NO_CACHE */ * FROM t WHERE a = ?", "SELECT /*!40001 SQL_NO_CACHE */ * FROM t WHERE a = 1"},
		{"SELECT 1 /*M!100100 , 3 */, ?", "SELECT 1 /*M!100100 , 3 */, 1"},
		{"SELECT 1 /*!50000 , 2 */, ?", "SELECT 1 /*!50000 , 2 */, 1"},
		{"SELECT 1 /*!999999 , 3 */, '?'", "SELECT 1 /*!999999 , 3 */, '?'"},
		{"SELECT /*!*/ 1 -- ?", "SELECT /*!*/ 1 -- ?"},
		{"SELECT /*+ a-b*c **/ ?", "SELECT /*+ a-b*c **/ 1"},
		{"SELECT /*!\t$a.b,c=(d)+e-f*g\r\n\v\f*/?", "SELECT /*!\t$a.b,c=(d)+e-f*g\r\n\v\f*/1"},
		// The server runs "+ 1" and reads "*/*" as the comment's end then
		// a "*": the quote after it opens a string that holds the ?, which
		// is no placeholder then (a reading that once ran a value as SQL).
		{"SELECT 2 /*! + 1 */* ' */ , ? AS v -- '\n", "SELECT 2 /*! + 1 */* ' */ , ? AS v -- '\n"},
	}
	for _, tc := range tests {
		n, err := CountPlaceholders(tc.query, Options{})
		if err != nil {
			t.Errorf("CountPlaceholders(%q): %v", tc.query, err)
			continue
		}
		args := make([]driver.Value, n)
		for i := range args {
			args[i] = int64(1)
		}
		got, err := Append(nil, tc.query, args, Options{})
		if err != nil || string(got) != tc.want {
			t.Errorf("Append(%q) = %q, %v; want %q", tc.query, got, err, tc.want)
		}
	}
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// wantBounded calls appendTo on a new dst of 0 and of 100 bytes, and
// checks that it fails with a *SizeError having allocated no more than
// twice limit, and returns dst as it was, its capacity grown by at most
// limit.
func wantBounded(t *testing.T, name string, limit int, appendTo func(dst []byte) ([]byte, error)) {
	t.Helper()
	for _, prefix := range []int{0, 100} {
		var got []byte
		var err error
		n := allocated(func() { got, err = appendTo(make([]byte, prefix)) })
		var se *SizeError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want a *SizeError", name, err)
		}
		if n > 2*uint64(limit) {
			t.Errorf("%s (dst of %d bytes): allocated %d bytes for a limit of %d", name, prefix, n, limit)
		}
		if len(got) != prefix || cap(got) > prefix+limit {
			t.Errorf("%s (dst of %d bytes): returned len %d cap %d, want len %d, cap at most %d", name, prefix, len(got), cap(got), prefix, prefix+limit)
		}
	}
}

// TestMaxSizeBoundsMemory checks that the limit is checked before
// dst grows, and dst never grows past MaxSize, so hostile argument sizes
// cannot make Append allocate (or a driver's per-connection buffer keep)
// more than the limit.
func TestMaxSizeBoundsMemory(t *testing.T) {
	const limit = 1 << 20
	opts := Options{MaxSize: limit}
	huge := strings.Repeat("x", 256<<20)
	eight := strings.Repeat("y", 8<<20)
	many := make([]driver.Value, 64)
	placeholders := strings.Repeat("?,", 63) + "?"
	for i := range many {
		many[i] = eight
	}
	quotes := strings.Repeat("'", 600<<10) // 600 KiB, 1.2 MiB escaped
	tests := []struct {
		name  string
		query string
		args  []driver.Value
		opts  Options
	}{
		{"256 MiB string", "INSERT INTO t VALUES (?)", []driver.Value{huge}, opts},
		{"256 MiB []byte", "INSERT INTO t VALUES (?)", []driver.Value{[]byte(huge[:len(huge)/2])}, opts},
		{"64 strings of 8 MiB", "INSERT INTO t VALUES (" + placeholders + ")", many, opts},
		{"escapes past the limit", "INSERT INTO t VALUES (?)", []driver.Value{quotes}, opts},
		{"escapes past the limit, no backslashes", "INSERT INTO t VALUES (?)", []driver.Value{quotes}, Options{MaxSize: limit, NoBackslashEscapes: true}},
		{"huge query text", "SELECT ?" + huge, []driver.Value{int64(1)}, opts},
	}
	for _, tc := range tests {
		wantBounded(t, tc.name, limit, func(dst []byte) ([]byte, error) {
			return Append(dst, tc.query, tc.args, tc.opts)
		})
	}
	// A result that fits: dst grows to no more than the limit, however the
	// estimate or escapes would have grown it.
	for _, v := range []driver.Value{strings.Repeat("z", limit-100), strings.Repeat("'", limit/2-100), []byte(strings.Repeat("\n", limit/2-100))} {
		got, err := Append(nil, "SELECT ?", []driver.Value{v}, opts)
		if err != nil || len(got) > limit || cap(got) > limit {
			t.Errorf("%T of %d bytes: len %d, cap %d, %v; want a result within %d bytes", v, len(argText(v)), len(got), cap(got), err, limit)
		}
		// Appending to a buffer that must grow as it goes.
		got, err = Append(make([]byte, 10, 20), "SELECT ?", []driver.Value{v}, opts)
		if err != nil || cap(got) > 10+limit {
			t.Errorf("%T of %d bytes after 10: cap %d, %v; want at most %d", v, len(argText(v)), cap(got), err, 10+limit)
		}
	}
}

func argText(v driver.Value) []byte {
	switch v := v.(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	}
	return nil
}

// TestOverlap checks that an argument or query in dst's spare
// capacity would be overwritten before it is read (Append(buf[:0],
// "SELECT ?", buf[:11]) gave "SELECT _binary'SELECT _bin'"): it is an
// error, and nothing is written; memory before len(dst) may be read.
func TestOverlap(t *testing.T) {
	fresh := func() []byte {
		buf := make([]byte, 64)
		copy(buf, "SELECT 1234")
		return buf
	}
	tests := []struct {
		name string
		call func(buf []byte) ([]byte, error)
	}{
		{"[]byte in dst's capacity", func(buf []byte) ([]byte, error) {
			return Append(buf[:0], "SELECT ?", []driver.Value{buf[:11]}, Options{})
		}},
		{"json.RawMessage at the end of dst's capacity", func(buf []byte) ([]byte, error) {
			return Append(buf[:0], "SELECT ?, ?", []driver.Value{int64(1), json.RawMessage(buf[60:64])}, Options{})
		}},
		{"[]byte just past dst's length", func(buf []byte) ([]byte, error) {
			return Append(buf[:11], "SELECT ?", []driver.Value{buf[11:12]}, Options{})
		}},
		{"string made from dst with unsafe", func(buf []byte) ([]byte, error) {
			return Append(buf[:0], "SELECT ?", []driver.Value{unsafe.String(&buf[0], 11)}, Options{})
		}},
	}
	for _, tc := range tests {
		buf := fresh()
		got, err := tc.call(buf)
		var ae *ArgError
		if !errors.As(err, &ae) || !errors.Is(err, ErrOverlap) {
			t.Errorf("%s: got %q, %v; want an *ArgError with ErrOverlap", tc.name, got, err)
		}
		if !bytes.Equal(buf, fresh()) {
			t.Errorf("%s: dst was written: %q", tc.name, buf)
		}
	}
	// The query itself, made from dst with unsafe.
	buf := fresh()
	var qe *QueryError
	if got, err := Append(buf[:0], unsafe.String(&buf[0], 8), nil, Options{}); !errors.As(err, &qe) {
		t.Errorf("query in dst's capacity: got %q, %v; want a *QueryError", got, err)
	}
	// Reading dst's contents is fine, and so is memory past its capacity.
	buf = fresh()
	got, err := Append(buf[:11], ", ?, ?", []driver.Value{buf[7:11], buf[:6:6]}, Options{})
	if want := "SELECT 1234, _binary'1234', _binary'SELECT'"; err != nil || string(got) != want {
		t.Errorf("arguments in dst's contents: %q, %v; want %q", got, err, want)
	}
	full := fresh()
	got, err = Append(full[:8:8], "?", []driver.Value{full[8:11]}, Options{})
	if want := "SELECT 1_binary'234'"; err != nil || string(got) != want {
		t.Errorf("argument past dst's capacity: %q, %v; want %q", got, err, want)
	}
}

// methaneArgsTyped fills args with the values of
// sqlbaseline.InterpolateArgs, typed, as a handler would from a struct's
// fields.
func methaneArgsTyped(args *Args, id int64, pi float64, t time.Time, b []byte, s string) {
	args.Reset()
	args.AddInt64(id)
	args.AddFloat64(pi)
	args.AddBool(false)
	args.AddTime(t)
	args.AddBytes(b)
	args.AddString(s)
}

// TestAppendArgsAllocs checks that typed arguments, strings,
// floats and large ints included, cost 0 allocations per query once the
// Args and dst have grown, where boxing them into a []driver.Value costs
// one each.
func TestAppendArgsAllocs(t *testing.T) {
	// Package variables (bench_test.go), so that boxing is not folded away.
	id, pi, ts, b, s := benchID, benchPi, benchTime, benchBytes, benchStr
	var args Args
	var dst []byte
	var err error
	run := func() {
		methaneArgsTyped(&args, id, pi, ts, b, s)
		dst, err = AppendArgs(dst[:0], sqlbaseline.InterpolateQuery, &args, Options{})
	}
	run()
	pooltest.WantAllocs(t, 0, run) // Reset, six Adds and AppendArgs
	if err != nil || string(dst) != sqlbaseline.InterpolateWant {
		t.Fatalf("AppendArgs = %q, %v", dst, err)
	}
	// The same values boxed per call: the cost AppendArgs avoids, one
	// allocation each for the int64 above 255, the float64, the time, the
	// []byte and the string.
	vals := make([]driver.Value, 6)
	pooltest.WantAllocs(t, 5, func() {
		vals[0], vals[1], vals[2], vals[3], vals[4], vals[5] = id, pi, false, ts, b, s
		dst, err = Append(dst[:0], sqlbaseline.InterpolateQuery, vals, Options{})
	})
	// Many arguments: the Args grows once, then never.
	many := "SELECT " + strings.Repeat("?, ", 199) + "?"
	pooltest.WantAllocs(t, 0, func() { // 200 arguments
		args.Reset()
		for i := range 100 {
			args.AddInt64(id << (i % 20))
			args.AddString(s[:i%len(s)])
		}
		dst, err = AppendArgs(dst[:0], many, &args, Options{NoBackslashEscapes: true})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestArgsReset checks that Reset drops what the list held, so that an
// Args kept in a pool pins no caller's memory, and that it can be reused.
func TestArgsReset(t *testing.T) {
	var args Args
	args.AddString("secret")
	args.AddBytes([]byte("secret"))
	args.AddTime(time.Now())
	full := args.list[:cap(args.list)]
	args.Reset()
	if args.Len() != 0 {
		t.Fatalf("Len after Reset = %d", args.Len())
	}
	for i, a := range full {
		if a.s != "" || a.b != nil || a.t != (time.Time{}) {
			t.Errorf("entry %d still holds %+v after Reset", i, a)
		}
	}
	args.AddInt(7)
	args.AddBytes(nil)
	args.AddUint64(1 << 63)
	args.AddBool(true)
	if got, err := AppendArgs(nil, "SELECT ?, ?, ?, ?", &args, Options{}); err != nil || string(got) != "SELECT 7, NULL, 9223372036854775808, 1" {
		t.Errorf("after Reset: %q, %v", got, err)
	}
	if got, err := AppendArgs(nil, "SELECT 1", nil, Options{}); err != nil || string(got) != "SELECT 1" {
		t.Errorf("nil Args: %q, %v", got, err)
	}
	var ce *CountError
	if _, err := AppendArgs(nil, "SELECT ?", nil, Options{}); !errors.As(err, &ce) {
		t.Errorf("nil Args for one placeholder: %v, want a *CountError", err)
	}
	// Overlap is checked for typed arguments too.
	buf := make([]byte, 0, 32)
	buf = append(buf, "abc"...)
	args.Reset()
	args.AddBytes(buf[:3])
	if _, err := AppendArgs(buf[:0], "SELECT ?", &args, Options{}); !errors.Is(err, ErrOverlap) {
		t.Errorf("overlapping typed []byte: %v, want ErrOverlap", err)
	}
	args.Reset()
	args.AddString(unsafe.String(&buf[0], 3))
	if _, err := AppendArgs(buf[:0], "SELECT ?", &args, Options{}); !errors.Is(err, ErrOverlap) {
		t.Errorf("overlapping typed string: %v, want ErrOverlap", err)
	}
}

// TestArgsSpareZero checks what Args.add relies on: the slots past the
// list's length are zero, through growth and Reset, so that an argument
// added in a slot that held another kind carries nothing of it (a stale
// []byte would be written or checked for overlap, a stale string pinned).
func TestArgsSpareZero(t *testing.T) {
	var args Args
	check := func(when string) {
		t.Helper()
		for i, a := range args.list[len(args.list):cap(args.list)] {
			if a.kind != 0 || a.n != 0 || a.s != "" || a.b != nil || a.t != (time.Time{}) {
				t.Fatalf("%s: spare slot %d holds %+v", when, len(args.list)+i, a)
			}
		}
	}
	check("zero value")
	for round := range 5 {
		// Each round puts every kind in slots that held other kinds.
		for j := range 3 + 7*round {
			switch (j + round) % 7 {
			case 0:
				args.AddString("secret")
			case 1:
				args.AddBytes([]byte("secret"))
			case 2:
				args.AddTime(time.Now())
			case 3:
				args.AddInt(j)
			case 4:
				args.AddFloat64(1.5)
			case 5:
				args.AddNull()
			default:
				args.AddBool(true)
			}
			check("after an Add")
			a := args.list[len(args.list)-1]
			if (a.kind != kindString) != (a.s == "") || (a.kind != kindBytes) != (a.b == nil) || (a.kind != kindTime) != a.t.IsZero() {
				t.Fatalf("round %d: argument %d is %+v", round, j, a)
			}
		}
		args.Reset()
		check("after Reset")
	}
}

// TestUTCDate checks the date and time of day written for UTC against
// time.Time's own, for the ends of the DATETIME range, the days around
// leap days and century years, and random instants of years 1 to 9999
// and beyond (which Append refuses), from any location.
func TestUTCDate(t *testing.T) {
	times := []time.Time{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(0, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Unix(0, 0), time.Unix(-1, 0)}
	for _, y := range []int{1, 4, 100, 400, 1600, 1900, 1969, 1970, 2000, 2024, 2100, 9996} {
		for _, md := range [][2]int{{2, 28}, {2, 29}, {3, 1}, {12, 31}, {1, 1}} {
			times = append(times, time.Date(y, time.Month(md[0]), md[1], 23, 59, 59, 0, time.UTC))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	zone := time.FixedZone("west", -7*3600)
	for range 100000 {
		sec := r.Int64N(time.Date(10001, 1, 1, 0, 0, 0, 0, time.UTC).Unix()-time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()) +
			time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		times = append(times, time.Unix(sec, 0).In(zone))
	}
	for _, tm := range times {
		y, mo, d, h, mi, s := utcDate(tm.Unix())
		u := tm.UTC()
		if y != u.Year() || mo != int(u.Month()) || d != u.Day() || h != u.Hour() || mi != u.Minute() || s != u.Second() {
			t.Fatalf("utcDate(%d) = %d-%d-%d %d:%d:%d; time says %s", tm.Unix(), y, mo, d, h, mi, s, u)
		}
	}
}
