package logfmt_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/cputime"
	"github.com/poolkit/poolkit/logfmt"
)

// The log line of the sync.Pool documentation's example, Log(w, key, val):
// an RFC 3339 time and key=val. `poolkit bench -run 'log line'` compares
// logfmt with that example as written, with and without a pool; these
// benchmarks measure logfmt alone, on a clock that stays in one second
// (BenchmarkLog) and on one that moves on a second for every line
// (BenchmarkLogNewSecond).

// timeNow is the example's fixed clock, 2006-01-02T15:04:05Z, moved on by
// tick seconds: BenchmarkLogNewSecond ticks it on every line, so that no
// line shares its second with the line before.
func timeNow() time.Time { return time.Unix(1136214245+tick.Load(), 0) }

var tick atomic.Int64

const (
	benchKey = "this_path"
	benchVal = "/test?q=query&format=json&groupid=100001&area=200000001"
)

// logLine writes the example's line with logfmt.Line.
func logLine(w io.Writer, key, val string) error {
	var l logfmt.Line
	l.Time("time", timeNow().UTC())
	l.String(key, val)
	return l.End(w)
}

// sink counts what is written to it, so that no variant's output can be
// optimised away, and keeps nothing, so that no variant pays for a growing
// buffer.
type sink struct {
	n    atomic.Int64
	last atomic.Uint32
}

func (s *sink) Write(p []byte) (int, error) {
	s.n.Add(int64(len(p)))
	if len(p) > 0 {
		s.last.Store(uint32(p[len(p)-1]))
	}
	return len(p), nil
}

func TestLogLine(t *testing.T) {
	want := `time=2006-01-02T15:04:05Z this_path="/test?q=query&format=json&groupid=100001&area=200000001"` + "\n"
	var buf bytes.Buffer
	if err := logLine(&buf, benchKey, benchVal); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want {
		t.Errorf("%q, want %q", buf.String(), want)
	}
}

func BenchmarkLog(b *testing.B) {
	var w sink
	b.ReportAllocs()
	cpu := cputime.Start()
	for b.Loop() {
		if err := logLine(&w, benchKey, benchVal); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b)
	b.SetBytes(w.n.Load() / int64(b.N))
}

// BenchmarkLogNewSecond is BenchmarkLog with a clock that moves on a second
// for every line, the worst case for logfmt's cache of the last second's
// text: every line formats its time digit by digit.
func BenchmarkLogNewSecond(b *testing.B) {
	defer tick.Store(0)
	var w sink
	b.ReportAllocs()
	cpu := cputime.Start()
	for b.Loop() {
		tick.Add(1)
		if err := logLine(&w, benchKey, benchVal); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b)
	b.SetBytes(w.n.Load() / int64(b.N))
}

func BenchmarkLogParallel(b *testing.B) {
	var w sink
	b.ReportAllocs()
	cpu := cputime.Start()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := logLine(&w, benchKey, benchVal); err != nil {
				b.Error(err)
				return
			}
		}
	})
	cpu.Report(b)
}

// The handler comparison: the same records through slog.TextHandler,
// slog.JSONHandler and logfmt's handler, via slog.Logger.LogAttrs.

var handlers = []struct {
	name string
	new  func(io.Writer) slog.Handler
}{
	{"text", func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) }},
	{"json", func(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) }},
	{"logfmt", func(w io.Writer) slog.Handler { return logfmt.NewHandler(w, nil) }},
}

var errBench = errors.New("connection refused")

// benchAttrs are five attributes of the kinds the package promises to
// write without allocating.
var benchAttrs = []slog.Attr{
	slog.String("path", "/api/v1/users"),
	slog.Int("status", 200),
	slog.Float64("ratio", 0.25),
	slog.Duration("took", 1234*time.Microsecond),
	slog.Any("err", errBench),
}

func BenchmarkHandler(b *testing.B) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		logger func(*slog.Logger) *slog.Logger
		attrs  []slog.Attr
	}{
		{"5attrs", func(l *slog.Logger) *slog.Logger { return l }, benchAttrs},
		{"With+5attrs", func(l *slog.Logger) *slog.Logger {
			return l.With("service", "api", "pid", 1234).WithGroup("req")
		}, benchAttrs},
		{"quoted", func(l *slog.Logger) *slog.Logger { return l }, []slog.Attr{
			slog.String("query", `name = "a b"`), slog.String("agent", "Mozilla/5.0 (X11; Linux x86_64)"),
			slog.Time("at", timeNow()), slog.Bool("cached", false), slog.Uint64("bytes", 123456),
		}},
	} {
		for _, h := range handlers {
			b.Run(tc.name+"/impl="+h.name, func(b *testing.B) {
				var w sink
				l := tc.logger(slog.New(h.new(&w)))
				b.ReportAllocs()
				cpu := cputime.Start()
				for b.Loop() {
					l.LogAttrs(ctx, slog.LevelInfo, "request done", tc.attrs...)
				}
				cpu.Report(b)
				b.SetBytes(w.n.Load() / int64(b.N))
			})
		}
	}
}

func BenchmarkHandlerParallel(b *testing.B) {
	ctx := context.Background()
	for _, h := range handlers {
		b.Run("5attrs/impl="+h.name, func(b *testing.B) {
			var w sink
			l := slog.New(h.new(&w))
			b.ReportAllocs()
			cpu := cputime.Start()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					l.LogAttrs(ctx, slog.LevelInfo, "request done", benchAttrs...)
				}
			})
			cpu.Report(b)
		})
	}
}

// BenchmarkHandle calls each handler's Handle directly on one record, to
// show the handlers' own cost without slog.Logger's (runtime.Callers,
// time.Now and building the Record), which is the same for all of them.
func BenchmarkHandle(b *testing.B) {
	ctx := context.Background()
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "request done", 0)
	r.AddAttrs(benchAttrs...)
	for _, h := range handlers {
		b.Run("5attrs/impl="+h.name, func(b *testing.B) {
			var w sink
			hd := h.new(&w)
			b.ReportAllocs()
			cpu := cputime.Start()
			for b.Loop() {
				if err := hd.Handle(ctx, r); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b)
			b.SetBytes(w.n.Load() / int64(b.N))
		})
	}
}
