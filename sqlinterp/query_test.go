package sqlinterp

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/sqlbaseline"
)

// allModes are the four readings of a query, with a Location and a limit
// that must not change them.
var allModes = []Options{{}, {NoBackslashEscapes: true}, {ANSIQuotes: true}, {NoBackslashEscapes: true, ANSIQuotes: true, MaxSize: 1 << 16}}

// TestParse checks Parse on queries that read differently by mode, with
// too few and too many arguments, against AppendArgs (checkParsed), and
// pins the placeholder counts from the dialect's rules.
func TestParse(t *testing.T) {
	tests := []struct {
		query string
		n     [4]int // placeholders by lexMode
	}{
		{"", [4]int{}},
		{"SELECT 1", [4]int{}},
		{"?", [4]int{1, 1, 1, 1}},
		{"SELECT ?, '?', \"?\", `?`, ? -- ?\n, ? # ?\n, /* ? */ ?", [4]int{4, 4, 4, 4}},
		// A backslash escapes the quote unless NoBackslashEscapes: the ?
		// is inside the string in one mode, in code in the other.
		{`SELECT 'a\', ?, 'b'`, [4]int{0, 1, 0, 1}},
		// In "…", unless ANSIQuotes makes it an identifier.
		{`SELECT "a\", ?, "b"`, [4]int{0, 1, 1, 1}},
		{"SELECT `a\\`, ?", [4]int{1, 1, 1, 1}},
		{"SELECT 'unterminated ?", [4]int{}},
		{"SELECT ? 'unterminated \\' ?", [4]int{1, 2, 1, 2}},
		{"SELECT ?''?''?", [4]int{3, 3, 3, 3}},
		{"SELECT ? /*!40001 SQL_NO_CACHE */", [4]int{1, 1, 1, 1}},
	}
	for _, tc := range tests {
		q, err := Parse(tc.query)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.query, err)
		}
		for m, opts := range allModes {
			if got := q.NumPlaceholders(opts); got != tc.n[m] {
				t.Errorf("Parse(%q).NumPlaceholders(%+v) = %d, want %d", tc.query, opts, got, tc.n[m])
			}
			for _, nargs := range []int{0, tc.n[m] - 1, tc.n[m], tc.n[m] + 1} {
				var args Args
				for i := range max(nargs, 0) {
					args.AddString(fmt.Sprintf(`v%d'\?`, i))
				}
				checkParsed(t, tc.query, &args, opts)
			}
		}
	}
	// The zero Query is the empty query.
	var zero Query
	if got, err := zero.AppendArgs([]byte("x"), nil, Options{}); err != nil || string(got) != "x" {
		t.Errorf("zero Query: %q, %v", got, err)
	}
	var ce *CountError
	var one Args
	one.AddInt(1)
	if _, err := zero.AppendArgs(nil, &one, Options{}); !errors.As(err, &ce) || ce.Placeholders != 0 || ce.Args != 1 {
		t.Errorf("zero Query with one argument: %v, want a *CountError", err)
	}
}

// TestParseRefused checks that Parse refuses a query that any mode refuses,
// naming the mode, and that MustParse panics with the error.
func TestParseRefused(t *testing.T) {
	tests := []struct{ query, reason string }{
		{"SELECT /*! ? */", "executable comment"},
		{"SELECT \x00 ?", "NUL"},
		{"SELECT @?", "placeholder right after '@'"},
		// Only with NoBackslashEscapes is the comment in code.
		{`SELECT '\' /*!50700 # */ ?'`, "an executable comment (/*!, /*M! or /*+), after which no ? may appear (there is one at byte 25); put placeholders before it or use a server-side prepared statement (with Options.NoBackslashEscapes)"},
		// Only with NoBackslashEscapes or ANSIQuotes is the \ before ? in
		// code.
		{`SELECT "\" \?"`, "right after '\\\\'" + `: @'…' is a variable name, in which a backslash escapes nothing, and \ swallows the quote after it; put a space between them (with Options.NoBackslashEscapes)`},
	}
	for _, tc := range tests {
		q, err := Parse(tc.query)
		var qe *QueryError
		if q != nil || !errors.As(err, &qe) || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("Parse(%q) = %v, %v; want a *QueryError about %q", tc.query, q, err, tc.reason)
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), err.Error()) {
					t.Errorf("MustParse(%q) panicked with %v", tc.query, r)
				}
			}()
			MustParse(tc.query)
		}()
	}
	for _, query := range []string{`SELECT '\' /*!50700 # */ ?'`, `SELECT "\" \?"`} {
		if _, err := CountPlaceholders(query, Options{}); err != nil {
			t.Errorf("%s is refused in the default mode too: %v", query, err)
		}
	}
}

// TestParseOwnsText checks that a Query keeps its own copy of the text: a
// query string made from a buffer with unsafe, which the caller then
// changes, or which is dst's spare capacity (AppendArgs refuses that),
// does not change what the Query writes.
func TestParseOwnsText(t *testing.T) {
	buf := []byte("SELECT ?, ?")
	q := MustParse(unsafe.String(&buf[0], len(buf)))
	copy(buf, "DELETE ?, ?")
	var args Args
	args.AddInt(1)
	args.AddString("x")
	got, err := q.AppendArgs(buf[:0], &args, Options{})
	if err != nil || string(got) != "SELECT 1, 'x'" || q.String() != "SELECT ?, ?" {
		t.Errorf("AppendArgs into the buffer the query was parsed from: %q, %v; String %q", got, err, q.String())
	}
}

// TestQueryOverlap checks that the parsed path refuses arguments in dst's
// spare capacity as AppendArgs does, writing nothing, and reads those in
// dst's contents.
func TestQueryOverlap(t *testing.T) {
	q := MustParse("SELECT ?, ?")
	fresh := func() []byte {
		buf := make([]byte, 64)
		copy(buf, "SELECT 1234")
		return buf
	}
	for i, fill := range []func(args *Args, buf []byte){
		func(args *Args, buf []byte) { args.AddBytes(buf[:11]); args.AddInt(1) },
		func(args *Args, buf []byte) { args.AddInt(1); args.AddString(unsafe.String(&buf[60], 4)) },
	} {
		buf := fresh()
		var args Args
		fill(&args, buf)
		want, wantErr := AppendArgs(buf[:0], q.String(), &args, Options{})
		got, err := q.AppendArgs(buf[:0], &args, Options{})
		if !errors.Is(err, ErrOverlap) || err.Error() != wantErr.Error() || len(got) != 0 || len(want) != 0 {
			t.Errorf("case %d: %q, %v; AppendArgs gave %v", i, got, err, wantErr)
		}
		if !bytes.Equal(buf, fresh()) {
			t.Errorf("case %d: dst was written: %q", i, buf)
		}
	}
	buf := fresh()
	var args Args
	args.AddBytes(buf[7:11])
	args.AddString(unsafe.String(&buf[0], 6))
	got, err := q.AppendArgs(buf[:11], &args, Options{})
	if want := "SELECT 1234SELECT _binary'1234', 'SELECT'"; err != nil || string(got) != want {
		t.Errorf("arguments in dst's contents: %q, %v; want %q", got, err, want)
	}
}

// TestQueryMaxSizeBoundsMemory is TestMaxSizeBoundsMemory for the parsed
// path: hostile sizes are a *SizeError before dst grows past the limit.
func TestQueryMaxSizeBoundsMemory(t *testing.T) {
	const limit = 1 << 20
	huge := strings.Repeat("x", 256<<20)
	quotes := strings.Repeat("'", 600<<10)
	tests := []struct {
		name  string
		query string
		arg   string
		opts  Options
	}{
		{"256 MiB string", "INSERT INTO t VALUES (?)", huge, Options{MaxSize: limit}},
		{"escapes past the limit", "INSERT INTO t VALUES (?)", quotes, Options{MaxSize: limit}},
		{"escapes past the limit, no backslashes", "INSERT INTO t VALUES (?)", quotes, Options{MaxSize: limit, NoBackslashEscapes: true}},
		{"huge query text", "SELECT ?" + huge[:64<<20], "x", Options{MaxSize: limit}},
	}
	for _, tc := range tests {
		q := MustParse(tc.query)
		var args Args
		args.AddString(tc.arg)
		// A reused buffer with room for twice the limit, and so for one
		// escape per byte: escapes are not counted before they are
		// written, and the result is checked after.
		reused := make([]byte, 0, 2*limit)
		if got, err := q.AppendArgs(reused, &args, tc.opts); !errors.As(err, new(*SizeError)) || cap(got) != 2*limit {
			t.Errorf("%s, reused dst: len %d, cap %d, %v; want a *SizeError", tc.name, len(got), cap(got), err)
		}
		wantBounded(t, tc.name, limit, func(dst []byte) ([]byte, error) {
			return q.AppendArgs(dst, &args, tc.opts)
		})
	}
}

// TestQueryAllocs checks that the parsed path, like AppendArgs, allocates
// nothing once the Args and dst have grown, on the service's two INSERTs
// and on the methane query.
func TestQueryAllocs(t *testing.T) {
	var args Args
	var dst []byte
	var err error
	dst, err = serviceInserts(dst, &args, true)
	if err != nil {
		t.Fatal(err)
	}
	pooltest.WantAllocs(t, 0, func() { dst, err = serviceInserts(dst, &args, true) })
	want, _ := serviceInserts(nil, &args, false)
	if err != nil || !bytes.Equal(dst, want) {
		t.Fatalf("parsed = %q, %v; AppendArgs gave %q", dst, err, want)
	}
	methane := MustParse(sqlbaseline.InterpolateQuery)
	id, pi, ts, b, s := benchID, benchPi, benchTime, benchBytes, benchStr
	run := func() {
		methaneArgsTyped(&args, id, pi, ts, b, s)
		dst, err = methane.AppendArgs(dst[:0], &args, Options{NoBackslashEscapes: true})
	}
	run()
	pooltest.WantAllocs(t, 0, run)
	if err != nil {
		t.Fatal(err)
	}
}

// TestQueryConcurrent runs one Query from several goroutines, each with
// its own Args and buffer, as a service's handlers would share a
// package-level Query: it is read only, which -race checks.
func TestQueryConcurrent(t *testing.T) {
	want, err := serviceInserts(nil, new(Args), false)
	if err != nil {
		t.Fatal(err)
	}
	pooltest.RunConcurrently(t, 4, func(g int) error {
		var args Args
		var dst []byte
		for i := range 300 {
			var err error
			if dst, err = serviceInserts(dst, &args, true); err != nil || !bytes.Equal(dst, want) {
				return fmt.Errorf("goroutine %d, call %d: %q, %v", g, i, dst, err)
			}
		}
		return nil
	})
}
