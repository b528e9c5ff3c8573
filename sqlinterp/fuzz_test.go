package sqlinterp

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// readLiteral reads one MySQL string literal, optionally with the _binary
// introducer, from the start of b, as the server's lexer does, and returns
// its value and the bytes after its closing quote. It is written from the
// MySQL manual's table of escape sequences ("String Literals"), not from this
// package's code: with backslash escapes, \0 \' \" \b \n \r \t \Z \\ stand
// for one byte each, \% and \_ keep their backslash, and a backslash before
// any other byte stands for that byte; in both modes a doubled quote
// stands for one quote.
func readLiteral(b []byte, noBackslash bool) (val, rest []byte, binary bool, err error) {
	if bytes.HasPrefix(b, []byte("_binary'")) {
		binary = true
		b = b[len("_binary"):]
	}
	if len(b) == 0 || b[0] != '\'' {
		return nil, nil, false, fmt.Errorf("no literal at %q", b)
	}
	val = []byte{}
	for i := 1; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\'':
			if i+1 < len(b) && b[i+1] == '\'' {
				val = append(val, '\'')
				i++
				continue
			}
			return val, b[i+1:], binary, nil
		case c == '\\' && !noBackslash:
			if i+1 == len(b) {
				return nil, nil, false, errors.New("backslash at end of input")
			}
			i++
			switch e := b[i]; e {
			case '0':
				val = append(val, 0)
			case 'b':
				val = append(val, '\b')
			case 'n':
				val = append(val, '\n')
			case 'r':
				val = append(val, '\r')
			case 't':
				val = append(val, '\t')
			case 'Z':
				val = append(val, '\x1a')
			case '%', '_':
				val = append(val, '\\', e)
			default:
				val = append(val, e)
			}
		default:
			val = append(val, c)
		}
	}
	return nil, nil, false, errors.New("literal not closed")
}

func TestReadLiteral(t *testing.T) {
	// The lexer itself must be right for the fuzz property to mean
	// anything; these are the manual's examples.
	tests := []struct {
		in, want    string
		noBackslash bool
	}{
		{in: `'hello'`, want: "hello"},
		{in: `'hel''lo'`, want: "hel'lo"},
		{in: `'\'hello'`, want: "'hello"},
		{in: `'This\nIs\nFour\nLines'`, want: "This\nIs\nFour\nLines"},
		{in: `'disappearing\ backslash'`, want: "disappearing backslash"},
		{in: `'\%\_'`, want: `\%\_`},
		{in: `'\0\Z\t\b\"'`, want: "\x00\x1a\t\b\""},
		{in: `'a\b'`, want: `a\b`, noBackslash: true},
		{in: `'it''s'`, want: "it's", noBackslash: true},
	}
	for _, tc := range tests {
		got, rest, _, err := readLiteral([]byte(tc.in), tc.noBackslash)
		if err != nil || string(got) != tc.want || len(rest) != 0 {
			t.Errorf("readLiteral(%s) = %q, rest %q, %v; want %q", tc.in, got, rest, err, tc.want)
		}
	}
	if _, _, _, err := readLiteral([]byte(`'abc\'`), false); err == nil {
		t.Error(`readLiteral('abc\') did not fail`)
	}
}

// checkRoundTrip interpolates v twice into "SELECT ?, ?" and reads the
// output back: the literals must yield exactly v, each must end at its own
// closing quote, and nothing but the query text may surround them.
func checkRoundTrip(t *testing.T, v []byte) {
	t.Helper()
	for _, noBS := range []bool{false, true} {
		opts := Options{NoBackslashEscapes: noBS}
		for _, arg := range []driver.Value{string(v), v, json.RawMessage(v)} {
			if v == nil {
				continue // nil []byte and RawMessage are NULL; tested elsewhere
			}
			out, err := Append(nil, "SELECT ?, ?", []driver.Value{arg, arg}, opts)
			if err != nil {
				t.Fatalf("Append(%T %q) error: %v", arg, v, err)
			}
			// The typed and parsed paths must write the same bytes.
			if typed, ok := typedArgs([]driver.Value{arg, arg}); ok {
				tq, err := AppendArgs(nil, "SELECT ?, ?", typed, opts)
				pq, perr := selectTwo.AppendArgs(nil, typed, opts)
				if err != nil || perr != nil || !bytes.Equal(tq, out) || !bytes.Equal(pq, out) {
					t.Fatalf("%T %q: Append = %q; AppendArgs = %q, %v; Query.AppendArgs = %q, %v", arg, v, out, tq, err, pq, perr)
				}
			}
			rest, ok := bytes.CutPrefix(out, []byte("SELECT "))
			if !ok {
				t.Fatalf("output %q lost its prefix", out)
			}
			for k := 0; k < 2; k++ {
				val, after, binary, err := readLiteral(rest, noBS)
				if err != nil {
					t.Fatalf("NoBackslashEscapes=%v %T %q: output %q: %v", noBS, arg, v, out, err)
				}
				if !bytes.Equal(val, v) {
					t.Fatalf("NoBackslashEscapes=%v %T %q: output %q reads back as %q", noBS, arg, v, out, val)
				}
				if _, isBytes := arg.([]byte); binary != isBytes {
					t.Fatalf("%T written with _binary=%v: %q", arg, binary, out)
				}
				rest = after
				if k == 0 {
					if rest, ok = bytes.CutPrefix(rest, []byte(", ")); !ok {
						t.Fatalf("NoBackslashEscapes=%v %q: first literal ended early: %q", noBS, v, out)
					}
				}
			}
			if len(rest) != 0 {
				t.Fatalf("NoBackslashEscapes=%v %q: text after the last literal: %q", noBS, v, rest)
			}
		}
	}
}

var selectTwo = MustParse("SELECT ?, ?")

func TestRoundTripEveryByte(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
		checkRoundTrip(t, []byte{byte(i)})
		checkRoundTrip(t, []byte{'\\', byte(i), '\''})
	}
	checkRoundTrip(t, all)
	checkRoundTrip(t, []byte{})
}

// checkParsed checks the parsed path against AppendArgs, its oracle here
// (itself checked against Append and the server): Parse must refuse
// exactly the queries that CountPlaceholders refuses in some mode, with the
// first such mode's error, and the Query it returns must give, for args
// and opts, AppendArgs' bytes, error and capacity (so MaxSize bounds its
// memory alike), from a dst holding "pre".
func checkParsed(t testing.TB, query string, args *Args, opts Options) {
	t.Helper()
	q, err := Parse(query)
	refusal := error(nil) // the first mode's refusal
	for m := range 4 {
		_, cerr := CountPlaceholders(query, Options{NoBackslashEscapes: m&1 != 0, ANSIQuotes: m&2 != 0})
		if cerr != nil {
			refusal = cerr
			break
		}
	}
	if err != nil {
		var qe *QueryError
		if refusal == nil || !errors.As(err, &qe) || !strings.HasPrefix(err.Error(), refusal.Error()) {
			t.Fatalf("Parse(%q) = %v; CountPlaceholders' first refusal: %v", query, err, refusal)
		}
		return
	}
	if refusal != nil {
		t.Fatalf("Parse(%q) accepts a query CountPlaceholders refuses: %v", query, refusal)
	}
	if n, _ := CountPlaceholders(query, opts); q.NumPlaceholders(opts) != n || q.String() != query {
		t.Fatalf("Parse(%q): NumPlaceholders = %d, String = %q; want %d", query, q.NumPlaceholders(opts), q.String(), n)
	}
	// A dst that must grow, and a reused one with room to spare, where
	// the size limit is checked as the output is written, not up front.
	for _, spare := range []int{0, 4096} {
		want, wantErr := AppendArgs(append(make([]byte, 0, 3+spare), "pre"...), query, args, opts)
		got, gotErr := q.AppendArgs(append(make([]byte, 0, 3+spare), "pre"...), args, opts)
		if !bytes.Equal(got, want) || cap(got) != cap(want) || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("query %q, opts %+v, %d args, dst with %d spare bytes:\nAppendArgs       = %q (cap %d), %v\nQuery.AppendArgs = %q (cap %d), %v",
				query, opts, args.Len(), spare, want, cap(want), wantErr, got, cap(got), gotErr)
		}
	}
}

// FuzzEscape checks the escaping property: any string or byte value,
// interpolated and read back by readLiteral, yields exactly the original
// bytes in both escape modes, and no value can end its literal early.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "'", `\`, `\'`, "''", `"`, "\x00\x1a\r\n", "\xff\xfe", "?", "é\\'", "_binary'"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		checkRoundTrip(t, v)
	})
}

// FuzzArgs is the differential of the two ways to pass arguments: for any
// query and values of every type, AppendArgs with an Args filled by the Add
// methods must give the same bytes, or the same error, as Append with the
// same values as a []driver.Value, in every mode and under a size limit.
func FuzzArgs(f *testing.F) {
	f.Add("SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?", "it's", []byte("\x00'\\"), int64(-42), uint64(1<<63), 3.25, true, int64(1423411542807015000), uint8(0), uint16(0))
	f.Add("INSERT INTO t VALUES (?, '?', ?) -- ?\n", "", []byte(nil), int64(1<<62), uint64(0), math.Inf(1), false, int64(-1<<62), uint8(3), uint16(40))
	f.Add("SELECT ? /*! ? */", "x", []byte{}, int64(0), uint64(7), math.NaN(), false, int64(0), uint8(1), uint16(7))
	f.Fuzz(func(t *testing.T, query, s string, b []byte, i int64, u uint64, fl float64, bo bool, ns int64, mode uint8, maxSize uint16) {
		opts := Options{NoBackslashEscapes: mode&1 != 0, ANSIQuotes: mode&2 != 0, MaxSize: int(maxSize)}
		if mode&4 != 0 {
			opts.Location = time.FixedZone("east", 5*3600+1800)
		}
		// Placeholder j gets a value of kind (j + mode) % 9: NULL, the
		// ints, the float (NaN and infinities included), the bool, the
		// string, the bytes (nil is NULL), the time (zero when ns is 0,
		// out of range for large ones) and a boxed-only-by-Append int.
		tm := time.Time{}
		if ns != 0 {
			tm = time.Unix(ns/1e9, ns%1e9).AddDate(int(ns%20000), 0, 0)
		}
		kinds := [...]driver.Value{nil, i, u, fl, bo, s, b, tm}
		n := strings.Count(query, "?") // at least the placeholders
		vals := make([]driver.Value, n)
		var args Args
		for j := range n {
			k := (j + int(mode>>3)) % (len(kinds) + 1)
			if k == len(kinds) {
				vals[j] = int64(j) << 40
				args.AddInt64(int64(j) << 40)
				continue
			}
			vals[j] = kinds[k]
			if !addTyped(&args, vals[j]) {
				t.Fatalf("no Add method for %T", vals[j])
			}
		}
		// The query's count of placeholders may be less than n: both must
		// then report the same *CountError.
		want, wantErr := Append([]byte("pre"), query, vals, opts)
		got, gotErr := AppendArgs([]byte("pre"), query, &args, opts)
		if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("query %q, opts %+v:\nAppend     = %q, %v\nAppendArgs = %q, %v", query, opts, want, wantErr, got, gotErr)
		}
		checkParsed(t, query, &args, opts)
		// Into dst with room to spare: nothing past the result is
		// written, and nothing at all on error.
		for _, write := range []func(dst []byte) ([]byte, error){
			func(dst []byte) ([]byte, error) { return Append(dst, query, vals, opts) },
			func(dst []byte) ([]byte, error) { return AppendArgs(dst, query, &args, opts) },
		} {
			buf := bytes.Repeat([]byte{canary}, 3+len(want)+64)
			copy(buf, "pre")
			out, err := write(buf[:3])
			end := 3
			if err == nil && &out[0] == &buf[0] {
				end = len(out)
			}
			if bytes.Count(buf[end:], []byte{canary}) != len(buf)-end {
				t.Fatalf("query %q, opts %+v: %q, %v; wrote past the result: %q", query, opts, out, err, buf[end:])
			}
		}
		// With one argument too few, none, and one too many as well.
		if n > 0 {
			fewer := Args{list: args.list[:n-1]}
			checkParsed(t, query, &fewer, opts)
			checkParsed(t, query, nil, opts)
		}
		more := Args{list: append(args.list[:n:n], arg{kind: kindInt, n: 7})}
		checkParsed(t, query, &more, opts)
		// MaxSize changes nothing but the outcome past it: the result is
		// the unlimited one when that fits, else a *SizeError, and dst's
		// capacity stays within the limit.
		if opts.MaxSize > 0 {
			unlimited := opts
			unlimited.MaxSize = 0
			full, fullErr := Append([]byte("pre"), query, vals, unlimited)
			var se *SizeError
			switch {
			case fullErr != nil:
				if wantErr == nil {
					t.Fatalf("query %q: %v without a limit, none with MaxSize %d", query, fullErr, opts.MaxSize)
				}
			case len(full)-3 <= opts.MaxSize:
				if wantErr != nil || !bytes.Equal(want, full) {
					t.Fatalf("query %q: MaxSize %d: %q, %v; without a limit %q", query, opts.MaxSize, want, wantErr, full)
				}
			case !errors.As(wantErr, &se):
				t.Fatalf("query %q: %d bytes, MaxSize %d: error %v, want a *SizeError", query, len(full)-3, opts.MaxSize, wantErr)
			}
			if cap(want) > 3+opts.MaxSize && cap(want) > 8 {
				t.Fatalf("query %q: MaxSize %d: cap(dst) grew to %d", query, opts.MaxSize, cap(want))
			}
		}
	})
}
