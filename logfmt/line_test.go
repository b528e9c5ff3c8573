package logfmt

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
)

var refTime = time.Unix(1136214245, 0).UTC() // 2006-01-02T15:04:05Z

func TestLine(t *testing.T) {
	var buf bytes.Buffer
	var l Line
	l.Time("time", refTime)
	l.String("this_path", "/test?q=query&format=json&groupid=100001&area=200000001")
	if err := l.End(&buf); err != nil {
		t.Fatal(err)
	}
	// The zero value is usable again after End.
	l.TimeNano("t", refTime.Add(1500*time.Microsecond))
	l.TimeMillis("ms", refTime.Add(1500*time.Microsecond))
	l.Int("int", -42)
	l.Uint("uint", math.MaxUint64)
	l.Float("float", 0.1)
	l.Float("nan", math.NaN())
	l.Bool("ok", true)
	l.Duration("took", 1500*time.Millisecond)
	l.Err("err", errors.New(`open "x": no such file`))
	l.Err("nil", nil)
	l.String("", "empty key")
	if err := l.End(&buf); err != nil {
		t.Fatal(err)
	}
	want := `time=2006-01-02T15:04:05Z this_path="/test?q=query&format=json&groupid=100001&area=200000001"
t=2006-01-02T15:04:05.0015Z ms=2006-01-02T15:04:05.001Z int=-42 uint=18446744073709551615 float=0.1 nan=NaN ok=true took=1.5s err="open \"x\": no such file" nil=<nil> _="empty key"
`
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	recs := readBack(t, buf.Bytes())
	if len(recs) != 2 || recs[1][17] != `open "x": no such file` {
		t.Errorf("read back %q", recs)
	}
}

func TestLineEmpty(t *testing.T) {
	w := &countingWriter{}
	var l Line
	if err := l.End(w); err != nil || w.writes != 0 {
		t.Fatalf("End of an unused line: err %v, %d writes; want nil, 0", err, w.writes)
	}
	l.String("k", "v")
	l.Discard()
	if l.Len() != 0 {
		t.Fatalf("Len after Discard = %d", l.Len())
	}
	if err := l.End(w); err != nil || w.writes != 0 {
		t.Fatalf("End after Discard: err %v, %d writes; want nil, 0", err, w.writes)
	}
}

// countingWriter counts its Write calls and the bytes they carry.
type countingWriter struct {
	writes, n int
	last      []byte
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	w.n += len(p)
	w.last = append(w.last[:0], p...)
	return len(p), nil
}

func TestLineOneWrite(t *testing.T) {
	w := &countingWriter{}
	var l Line
	for i := range 100 {
		l.Int("i", int64(i))
	}
	if err := l.End(w); err != nil {
		t.Fatal(err)
	}
	if w.writes != 1 || w.last[len(w.last)-1] != '\n' {
		t.Fatalf("%d writes, last %q; want one write ending in a newline", w.writes, w.last)
	}
}

type errWriter struct{ err error }

func (w errWriter) Write(p []byte) (int, error) { return 0, w.err }

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

func TestLineWriteError(t *testing.T) {
	boom := errors.New("disk full")
	var l Line
	l.String("k", "v")
	if err := l.End(errWriter{boom}); err != boom {
		t.Fatalf("End = %v, want %v", err, boom)
	}
	l.String("k", "v")
	if err := l.End(shortWriter{}); err != io.ErrShortWrite {
		t.Fatalf("End on a short write = %v, want io.ErrShortWrite", err)
	}
}

func TestLineAllocs(t *testing.T) {
	err := errors.New("connection refused")
	tests := []struct {
		name string
		f    func(w io.Writer) error
	}{
		{"bench log line", func(w io.Writer) error { // the log line `poolkit bench` measures
			var l Line
			l.Time("time", time.Unix(1136214245, 0).UTC())
			l.String("this_path", "/test?q=query&format=json&groupid=100001&area=200000001")
			return l.End(w)
		}},
		{"string", func(w io.Writer) error {
			var l Line
			l.String("path", "/search?q=flowers")
			return l.End(w)
		}},
		{"quoted", func(w io.Writer) error {
			var l Line
			l.String("msg", "two words\nand \"quotes\"\xff")
			return l.End(w)
		}},
		{"int", func(w io.Writer) error {
			var l Line
			l.Int("n", -123456)
			return l.End(w)
		}},
		{"uint", func(w io.Writer) error {
			var l Line
			l.Uint("n", 123456)
			return l.End(w)
		}},
		{"float", func(w io.Writer) error {
			var l Line
			l.Float("f", 3.14159)
			return l.End(w)
		}},
		{"bool", func(w io.Writer) error {
			var l Line
			l.Bool("ok", true)
			return l.End(w)
		}},
		{"duration", func(w io.Writer) error {
			var l Line
			l.Duration("took", 1234567*time.Microsecond)
			return l.End(w)
		}},
		{"time", func(w io.Writer) error {
			var l Line
			l.Time("time", time.Now())
			return l.End(w)
		}},
		{"timeMillis", func(w io.Writer) error {
			var l Line
			l.TimeMillis("time", time.Now())
			return l.End(w)
		}},
		{"timeNano", func(w io.Writer) error {
			var l Line
			l.TimeNano("time", time.Now())
			return l.End(w)
		}},
		{"error", func(w io.Writer) error {
			var l Line
			l.Err("err", err)
			return l.End(w)
		}},
		{"all", func(w io.Writer) error {
			var l Line

			l.Time("time", time.Now())
			l.String("path", "/search")
			l.Int("status", 200)
			l.Float("ratio", 0.5)
			l.Bool("cached", false)
			l.Duration("took", time.Millisecond)
			l.Err("err", err)
			return l.End(w)
		}},
	}
	w := &countingWriter{last: make([]byte, 0, 1024)}
	for _, tt := range tests {
		wantNoSteadyAllocs(t, tt.name, func() {
			if err := tt.f(w); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// wantNoSteadyAllocs asserts that f allocates nothing in steady state
// (pooltest.WantAllocs, which also turns the garbage collector off: a
// collection empties every sync.Pool, and the next Get then allocates a
// buffer, at a rate that depends on what else the test binary did, not on
// f). name labels the case in a failure.
//
// It warms f up first for long enough that the runtime has cached the type
// switches and assertions f makes: since Go 1.22 each call site has a cache
// that the runtime replaces with a larger copy, an allocation, on about one
// miss in 1024 (runtime/iface.go), so the first few thousand calls of any
// code with interface type switches, slog's included, allocate now and then.
func wantNoSteadyAllocs(t *testing.T, name string, f func()) {
	t.Helper()
	if !pooltest.WantSteadyAllocs(t, 0, 20000, f) {
		t.Logf("case %s", name)
	}
}

// A line longer than the pool keeps is written whole, and its buffer is
// dropped rather than pooled.
func TestLineHuge(t *testing.T) {
	w := &countingWriter{}
	big := strings.Repeat("x", 2*maxBufferCap)
	var l Line
	l.String("big", big)
	if err := l.End(w); err != nil {
		t.Fatal(err)
	}
	if want := "big=" + big + "\n"; string(w.last) != want {
		t.Fatalf("huge line written as %d bytes, want %d", len(w.last), len(want))
	}
	huge := &bytebuf.Buffer{B: make([]byte, 0, 2*maxBufferCap)}
	putBuffer(huge)
	for range 10 {
		if b := getBuffer(); cap(b.B) > maxBufferCap || len(b.B) != 0 {
			t.Fatalf("pool handed out a buffer of len %d, cap %d (max kept %d)", len(b.B), cap(b.B), maxBufferCap)
		}
	}
}
