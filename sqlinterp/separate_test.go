package sqlinterp

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/sqlbaseline"
)

// separateCases are placeholders touching a quote, a word, a dot or
// another placeholder, each with the text the server must get: a space
// where the literal would otherwise fuse with its neighbour, none where it
// would not.
var separateCases = []struct {
	query string
	args  []driver.Value
	want  string
}{
	// A quote next to a quote is an escaped quote: 'v''x' is v'x.
	{"SELECT ??", []driver.Value{"v", "x"}, "SELECT 'v' 'x'"},
	{"SELECT ?'x'", []driver.Value{"v"}, "SELECT 'v' 'x'"},
	{"SELECT 'x'?", []driver.Value{"v"}, "SELECT 'x' 'v'"},
	{"SELECT 'x'??'y'", []driver.Value{"v", "w"}, "SELECT 'x' 'v' 'w' 'y'"},
	{"SELECT _binary'x'?", []driver.Value{[]byte("v")}, "SELECT _binary'x' _binary'v'"},
	{"SELECT ???", []driver.Value{[]byte("v"), "x", time.Date(2024, 2, 29, 1, 2, 3, 0, time.UTC)},
		"SELECT _binary'v' 'x' '2024-02-29 01:02:03'"},
	// A word before a literal makes a prefix of it, or a longer word.
	{"SELECT x?", []driver.Value{"41"}, "SELECT x '41'"},
	{"SELECT N?, b?, _latin1?", []driver.Value{"a", "01", "é"}, "SELECT N 'a', b '01', _latin1 'é'"},
	{"SELECT a?", []driver.Value{[]byte("x")}, "SELECT a _binary'x'"},
	{"SELECT 1?, 0x?, $?, é?", []driver.Value{int64(5), int64(5), int64(5), true}, "SELECT 1 5, 0x 5, $ 5, é 1"},
	{"SELECT 1e?", []driver.Value{int64(-5)}, "SELECT 1e -5"},
	{"SELECT n?", []driver.Value{nil}, "SELECT n NULL"},
	// A sign after an exponent's e makes the literal its digits: the
	// column 1e minus 5 would be the float 1e-5, and 1e-1.5 the float
	// 1e-1 followed by .5.
	{"SELECT 1e-?, 1E+?, 1.5e-?, .5E+?", []driver.Value{int64(5), 1.5, uint64(7), int64(-2)}, "SELECT 1e- 5, 1E+ 1.5, 1.5e- 7, .5E+ -2"},
	{"SELECT a-?, a+?, 1--?, e--?", []driver.Value{int64(5), int64(5), int64(5), int64(5)}, "SELECT a-5, a+5, 1--5, e--5"},
	// A word or a dot after a number or NULL makes a longer one.
	{"SELECT ?e1, ?x, ?$, ?_", []driver.Value{int64(5), 1.5, uint64(7), nil}, "SELECT 5 e1, 1.5 x, 7 $, NULL _"},
	{"SELECT ?.5, 1.?, t.?", []driver.Value{int64(5), int64(5), int64(5)}, "SELECT 5 .5, 1. 5, t. 5"},
	{"SELECT ??", []driver.Value{int64(1), int64(-2)}, "SELECT 1 -2"},
	{"SELECT ??", []driver.Value{nil, 1e21}, "SELECT NULL 1e+21"},
	{"SELECT ?é", []driver.Value{"v"}, "SELECT 'v' é"},
	// Nothing that does not fuse gets a space.
	{"SELECT (?,?)", []driver.Value{int64(1), "x"}, "SELECT (1,'x')"},
	{"SELECT ?+?*?/?", []driver.Value{int64(1), int64(-2), 0.5, int64(4)}, "SELECT 1+-2*0.5/4"},
	{"SELECT 1-?, 2--?", []driver.Value{int64(-1), int64(1)}, "SELECT 1--1, 2--1"},
	{"SELECT ?\"x\", `a`?", []driver.Value{"v", int64(1)}, "SELECT 'v'\"x\", `a`1"},
	{"SELECT /*+ a */?/**/", []driver.Value{int64(1)}, "SELECT /*+ a */1/**/"},
	{"?", []driver.Value{int64(1)}, "1"},
	{"??", []driver.Value{int64(1), int64(2)}, "1 2"},
	{"?x", []driver.Value{int64(1)}, "1 x"},
	{"x?", []driver.Value{int64(1)}, "x 1"},
}

// TestSeparate checks every writer (Append, AppendArgs, Query.AppendArgs)
// against separateCases in every mode, and that MaxSize counts the spaces:
// the output fits a limit of its own length and not one byte less.
func TestSeparate(t *testing.T) {
	for _, tc := range separateCases {
		q, err := Parse(tc.query)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.query, err)
		}
		typed, _ := typedArgs(tc.args)
		for m := range 4 {
			opts := Options{NoBackslashEscapes: m&1 != 0, ANSIQuotes: m&2 != 0}
			limits := []int{0, len(tc.want)} // 0 is none
			if len(tc.want) > 1 {
				limits = append(limits, len(tc.want)-1)
			}
			for _, max := range limits {
				opts.MaxSize = max
				outs := map[string]func() ([]byte, error){
					"Append":           func() ([]byte, error) { return Append(nil, tc.query, tc.args, opts) },
					"AppendArgs":       func() ([]byte, error) { return AppendArgs(nil, tc.query, typed, opts) },
					"Query.AppendArgs": func() ([]byte, error) { return q.AppendArgs(nil, typed, opts) },
				}
				for name, f := range outs {
					got, err := f()
					if max != 0 && max == len(tc.want)-1 {
						var se *SizeError
						if !errors.As(err, &se) {
							t.Errorf("%s(%q, %+v) = %q, %v; want a *SizeError", name, tc.query, opts, got, err)
						}
						continue
					}
					if err != nil || string(got) != tc.want {
						t.Errorf("%s(%q, %+v) = %q, %v; want %q", name, tc.query, opts, got, err, tc.want)
					}
				}
			}
		}
	}
}

// canary fills the spare capacity of buffers handed to a writer, to find
// bytes written past the length it returns.
const canary = 0xA5

// TestCanary checks that Append, AppendArgs and Query.AppendArgs write
// only within the length they return: dst's spare capacity past the
// result is left as it was, whether dst had room to spare or had to grow
// (the estimate made up front, or escapes beyond it), with and without
// MaxSize, after a prefix or none.
func TestCanary(t *testing.T) {
	type call struct {
		query string
		args  []driver.Value
	}
	calls := []call{{sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs}}
	for _, tc := range separateCases {
		calls = append(calls, call{tc.query, tc.args})
	}
	calls = append(calls,
		call{"SELECT ?, ?", []driver.Value{string(bytes.Repeat([]byte(`'\`), 300)), []byte("\x00\n\r\x1a")}},
		call{"INSERT INTO t VALUES (?, ?, ?, ?) -- ?\n", []driver.Value{int64(math.MinInt64), uint64(math.MaxUint64), math.SmallestNonzeroFloat64, false}},
		call{"SELECT /*+ MAX_EXECUTION_TIME(1000) */ ?/*!40001 SQL_NO_CACHE */", []driver.Value{time.Unix(1423411542, 807015000)}},
	)
	for _, c := range calls {
		q, err := Parse(c.query)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.query, err)
		}
		typed, ok := typedArgs(c.args)
		if !ok {
			t.Fatalf("no Args for %v", c.args)
		}
		want, err := Append(nil, c.query, c.args, Options{})
		if err != nil {
			t.Fatalf("Append(%q): %v", c.query, err)
		}
		writers := map[string]func(dst []byte, opts Options) ([]byte, error){
			"Append":           func(dst []byte, opts Options) ([]byte, error) { return Append(dst, c.query, c.args, opts) },
			"AppendArgs":       func(dst []byte, opts Options) ([]byte, error) { return AppendArgs(dst, c.query, typed, opts) },
			"Query.AppendArgs": func(dst []byte, opts Options) ([]byte, error) { return q.AppendArgs(dst, typed, opts) },
		}
		for name, write := range writers {
			for _, prefix := range []int{0, 5} {
				// From no room at all, through too little for the
				// estimate or for the escapes, to ample room.
				for _, room := range []int{0, 1, len(want) / 2, len(want) - 1, len(want), len(want) + 1, 2*len(want) + 64} {
					for _, max := range []int{0, len(want), 1 << 20} {
						buf := make([]byte, prefix+room+16)
						for i := range buf {
							buf[i] = canary
						}
						copy(buf, "hello"[:prefix])
						dst := buf[: prefix : prefix+room]
						got, err := write(dst, Options{MaxSize: max})
						if err != nil || !bytes.Equal(got[prefix:], want) || string(got[:prefix]) != "hello"[:prefix] {
							t.Fatalf("%s(%q) into len %d cap %d, MaxSize %d = %q, %v; want %q", name, c.query, prefix, prefix+room, max, got, err, want)
						}
						// Past the result, when it is in buf. When dst had
						// to grow, the result is elsewhere, and buf may
						// hold a part of it written before: only the
						// result's own bytes, never past dst's capacity.
						inBuf := &got[:cap(got)][0] == &buf[0]
						for i := prefix; i < len(buf); i++ {
							if buf[i] == canary || !inBuf && i < prefix+room && i-prefix < len(want) && buf[i] == want[i-prefix] {
								continue
							}
							if !inBuf || i >= len(got) {
								t.Fatalf("%s(%q) into len %d cap %d, MaxSize %d: byte %d was written past the result (%d bytes, in dst: %v): %q",
									name, c.query, prefix, prefix+room, max, i, len(got), inBuf, buf[prefix:])
							}
						}
					}
				}
			}
		}
	}
}

// TestManyPlaceholders checks queries with more placeholders than
// appendQuery keeps the offsets of (it reads on past them): touching
// literals, the exact size under MaxSize, a count error and a refusal
// after the last kept, none of which may write to dst's spare capacity.
func TestManyPlaceholders(t *testing.T) {
	const n = 150
	query := strings.Repeat("??", n/2)
	args := make([]driver.Value, n)
	words := make([]string, n)
	for i := range args {
		args[i] = int64(i)
		words[i] = strconv.Itoa(i)
	}
	want := strings.Join(words, " ") // every pair touches
	q, err := Parse(query)
	if err != nil {
		t.Fatal(err)
	}
	typed, _ := typedArgs(args)
	for _, max := range []int{0, len(want), len(want) - 1} {
		opts := Options{MaxSize: max}
		for name, write := range map[string]func(dst []byte) ([]byte, error){
			"Append":           func(dst []byte) ([]byte, error) { return Append(dst, query, args, opts) },
			"AppendArgs":       func(dst []byte) ([]byte, error) { return AppendArgs(dst, query, typed, opts) },
			"Query.AppendArgs": func(dst []byte) ([]byte, error) { return q.AppendArgs(dst, typed, opts) },
		} {
			buf := bytes.Repeat([]byte{canary}, 2*len(want))
			got, err := write(buf[:0])
			if max == len(want)-1 {
				var se *SizeError
				if !errors.As(err, &se) || len(got) != 0 || !bytes.Equal(buf, bytes.Repeat([]byte{canary}, len(buf))) {
					t.Errorf("%s, MaxSize %d: %q, %v, and wrote %q; want a *SizeError and nothing written", name, max, got, err, buf)
				}
				continue
			}
			if err != nil || string(got) != want {
				t.Errorf("%s, MaxSize %d = %q, %v; want %q", name, max, got, err, want)
			}
		}
	}
	for _, tc := range []struct {
		query string
		args  []driver.Value
	}{
		{query + "?", args}, // one placeholder too many
		{query + " /*+ QB_NAME('q') */ ?", append(args, nil)}, // refused after the last kept
		{strings.Repeat("?,", 70) + "/*!'*/ ?", make([]driver.Value, 71)},
	} {
		buf := bytes.Repeat([]byte{canary}, 4*len(want))
		got, err := Append(buf[:0], tc.query, tc.args, Options{})
		if err == nil || len(got) != 0 || !bytes.Equal(buf, bytes.Repeat([]byte{canary}, len(buf))) {
			t.Errorf("Append(%.40q…) = %.40q, %v; want an error and nothing written", tc.query, got, err)
		}
	}
}
