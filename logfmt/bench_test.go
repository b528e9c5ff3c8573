package logfmt_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/cputime"
	"github.com/poolkit/poolkit/logfmt"
)

// The seed's log case: the sync.Pool documentation's example, measured in
// shared/seeds/000 and 003 (411 ns and 3 allocs without a pool, 307 ns and
// 1 alloc with one).

// timeNow is the example's fixed clock, 2006-01-02T15:04:05Z, moved on by
// tick seconds: BenchmarkLogNewSecond ticks it on every line, so that no
// line shares its second with the line before.
func timeNow() time.Time { return time.Unix(1136214245+tick.Load(), 0) }

var tick atomic.Int64

const (
	seedKey = "this_path"
	seedVal = "/test?q=query&format=json&groupid=100001&area=200000001"
)

// naiveLog is the article's LogWithoutPool, writing the same line as
// poolkitLog: the article's line is not logfmt, as its value holds '=' and
// is written bare, and it has no time key and no newline. The quoting uses
// the buffer's free space, so it adds no allocation to the article's.
func naiveLog(w io.Writer, key, val string) error {
	b := &bytes.Buffer{}
	b.WriteString("time=")
	b.WriteString(timeNow().UTC().Format(time.RFC3339))
	b.WriteByte(' ')
	b.WriteString(key)
	b.WriteByte('=')
	b.Write(strconv.AppendQuote(b.AvailableBuffer(), val))
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

var seedPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// seedLog is the article's pooled Log, writing the same line as poolkitLog.
func seedLog(w io.Writer, key, val string) error {
	b := seedPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("time=")
	b.WriteString(timeNow().UTC().Format(time.RFC3339))
	b.WriteByte(' ')
	b.WriteString(key)
	b.WriteByte('=')
	b.Write(strconv.AppendQuote(b.AvailableBuffer(), val))
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	//poolvet:ignore retention the article's pattern, benchmarked as published: no size check before Put
	seedPool.Put(b)
	return err
}

// articleLog is the article's pooled Log exactly as published, for
// reference: it does less than the others (no key for the time, no quotes,
// no newline), and its line does not parse as logfmt.
func articleLog(w io.Writer, key, val string) error {
	b := seedPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(timeNow().UTC().Format(time.RFC3339))
	b.WriteByte(' ')
	b.WriteString(key)
	b.WriteByte('=')
	b.WriteString(val)
	_, err := w.Write(b.Bytes())
	//poolvet:ignore retention the article's pattern, benchmarked as published: no size check before Put
	seedPool.Put(b)
	return err
}

// poolkitLog is the same log line written with logfmt.Line.
func poolkitLog(w io.Writer, key, val string) error {
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

var logVariants = []struct {
	name string
	log  func(io.Writer, string, string) error
}{
	{"naive", naiveLog},
	{"seed", seedLog},
	{"article", articleLog},
	{"poolkit", poolkitLog},
}

func TestLogVariantsSameLine(t *testing.T) {
	want := `time=2006-01-02T15:04:05Z this_path="/test?q=query&format=json&groupid=100001&area=200000001"` + "\n"
	for _, v := range logVariants {
		var buf bytes.Buffer
		if err := v.log(&buf, seedKey, seedVal); err != nil {
			t.Fatal(err)
		}
		if v.name == "article" {
			want := "2006-01-02T15:04:05Z " + seedKey + "=" + seedVal
			if buf.String() != want {
				t.Errorf("article: %q, want %q", buf.String(), want)
			}
			continue
		}
		if buf.String() != want {
			t.Errorf("%s: %q, want %q", v.name, buf.String(), want)
		}
	}
}

func BenchmarkLog(b *testing.B) {
	for _, v := range logVariants {
		b.Run("impl="+v.name, func(b *testing.B) {
			var w sink
			b.ReportAllocs()
			cpu := cputime.Start()
			for b.Loop() {
				if err := v.log(&w, seedKey, seedVal); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b)
			b.SetBytes(w.n.Load() / int64(b.N))
		})
	}
}

// BenchmarkLogNewSecond is BenchmarkLog with a clock that moves on a second
// for every line, the worst case for logfmt's cache of the last second's
// text: every line formats its time digit by digit.
func BenchmarkLogNewSecond(b *testing.B) {
	defer tick.Store(0)
	for _, v := range logVariants {
		b.Run("impl="+v.name, func(b *testing.B) {
			var w sink
			b.ReportAllocs()
			cpu := cputime.Start()
			for b.Loop() {
				tick.Add(1)
				if err := v.log(&w, seedKey, seedVal); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Report(b)
			b.SetBytes(w.n.Load() / int64(b.N))
		})
	}
}

func BenchmarkLogParallel(b *testing.B) {
	for _, v := range logVariants {
		b.Run("impl="+v.name, func(b *testing.B) {
			var w sink
			b.ReportAllocs()
			cpu := cputime.Start()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := v.log(&w, seedKey, seedVal); err != nil {
						b.Error(err)
						return
					}
				}
			})
			cpu.Report(b)
		})
	}
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
