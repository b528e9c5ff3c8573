package sqlinterp

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
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
			if n, err := CountPlaceholders(string(out), opts); err != nil || n != 0 {
				t.Fatalf("output %q has %d placeholders in code (%v)", out, n, err)
			}
		}
	}
}

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

// FuzzQuery checks the query reader: for any query, Append fills exactly
// CountPlaceholders(query) arguments, and the inserted literals, whose
// values are full of quotes, backslashes and question marks, leave no ? in
// code, so no value text escaped its literal.
func FuzzQuery(f *testing.F) {
	for _, q := range []string{
		"SELECT ?", "SELECT '?', ?", `SELECT "a\"?", ?`, "SELECT ? -- ?\n?", "SELECT ?#?\n?",
		"SELECT /* ? */ ?", "SELECT /*! ? */", "SELECT /*!50000 '*/' */ ?", "SELECT /*M! ? */", "SELECT `?`, ?", "SELECT ?'?'", "--?", "/*", "'\\",
	} {
		f.Add(q, `'?\"`+"`", uint8(0))
	}
	f.Fuzz(func(t *testing.T, query, val string, mode uint8) {
		opts := Options{NoBackslashEscapes: mode&1 != 0, ANSIQuotes: mode&2 != 0}
		val += "?'\\\"`" // every value holds the characters that end quoted parts
		n, err := CountPlaceholders(query, opts)
		if err != nil {
			// A query that cannot be read reliably is refused by Append
			// too, with the same error.
			_, err2 := Append(nil, query, nil, opts)
			var qe *QueryError
			if !errors.As(err, &qe) || err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("CountPlaceholders(%q): %v; Append: %v", query, err, err2)
			}
			return
		}
		args := make([]driver.Value, n)
		for i := range args {
			if i%2 == 0 {
				args[i] = val
			} else {
				args[i] = []byte(val)
			}
		}
		out, err := Append(nil, query, args, opts)
		if err != nil {
			t.Fatalf("Append(%q) with %d args: %v", query, n, err)
		}
		if m, err := CountPlaceholders(string(out), opts); err != nil || m != 0 {
			t.Fatalf("Append(%q) = %q: %d placeholders in code (%v), want 0", query, out, m, err)
		}
		_, err = Append(nil, query, append(args, nil), opts)
		var ce *CountError
		if !errors.As(err, &ce) || ce.Placeholders != n || ce.Args != n+1 {
			t.Fatalf("Append(%q) with %d args: error %v, want a CountError{%d, %d}", query, n+1, err, n, n+1)
		}
	})
}
