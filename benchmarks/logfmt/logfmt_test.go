// Package logfmt_test compares poolkit's logfmt, as a log/slog handler and
// through its Line writer, with go.uber.org/zap's JSON encoder and
// github.com/rs/zerolog on the same record: a message, the time, the level
// and five fields (string, int, float, duration, error).
//
// Each logger writes to the same counting sink and serialises its writes
// with a mutex, as logfmt's handler does: zap through zapcore.Lock,
// zerolog through zerolog.SyncWriter. The times are written to the
// millisecond in RFC 3339 form by all of them (zap's ISO8601TimeEncoder,
// zerolog's TimeFieldFormat), as slog writes them.
package logfmt_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/cputime"
	"github.com/poolkit/poolkit/logfmt"
	"github.com/rs/zerolog"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// sink counts the bytes written to it and keeps none.
type sink struct{ n atomic.Int64 }

func (s *sink) Write(p []byte) (int, error) {
	s.n.Add(int64(len(p)))
	return len(p), nil
}

const (
	msg    = "request done"
	path   = "/api/v1/users"
	status = 200
	ratio  = 0.25
	took   = 1234 * time.Microsecond
)

var errConn = errors.New("connection refused")

func init() {
	zerolog.TimeFieldFormat = "2006-01-02T15:04:05.000Z07:00"
}

// loggers returns one function per logger that logs the record once.
func loggers(w io.Writer) []struct {
	name string
	log  func()
} {
	ctx := context.Background()
	sl := slog.New(logfmt.NewHandler(w, nil))
	st := slog.New(slog.NewTextHandler(w, nil))

	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.ISO8601TimeEncoder
	enc.EncodeDuration = zapcore.StringDurationEncoder
	zl := zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.Lock(zapcore.AddSync(w)), zapcore.InfoLevel))

	rl := zerolog.New(zerolog.SyncWriter(w)).With().Timestamp().Logger()

	return []struct {
		name string
		log  func()
	}{
		{"poolkit-slog", func() {
			sl.LogAttrs(ctx, slog.LevelInfo, msg,
				slog.String("path", path), slog.Int("status", status), slog.Float64("ratio", ratio),
				slog.Duration("took", took), slog.Any("err", errConn))
		}},
		{"poolkit-line", func() {
			var l logfmt.Line
			l.TimeMillis("time", time.Now())
			l.String("level", "INFO")
			l.String("msg", msg)
			l.String("path", path)
			l.Int("status", status)
			l.Float("ratio", ratio)
			l.Duration("took", took)
			l.Err("err", errConn)
			if err := l.End(w); err != nil {
				panic(err)
			}
		}},
		{"slog-text", func() {
			st.LogAttrs(ctx, slog.LevelInfo, msg,
				slog.String("path", path), slog.Int("status", status), slog.Float64("ratio", ratio),
				slog.Duration("took", took), slog.Any("err", errConn))
		}},
		{"zap-json", func() {
			zl.Info(msg, zap.String("path", path), zap.Int("status", status), zap.Float64("ratio", ratio),
				zap.Duration("took", took), zap.Error(errConn))
		}},
		{"zerolog", func() {
			rl.Info().Str("path", path).Int("status", status).Float64("ratio", ratio).
				Dur("took", took).Err(errConn).Msg(msg)
		}},
	}
}

func BenchmarkLogger(b *testing.B) {
	var w sink
	for _, l := range loggers(&w) {
		b.Run("impl="+l.name, func(b *testing.B) {
			w.n.Store(0)
			b.ReportAllocs()
			cpu := cputime.Start()
			for b.Loop() {
				l.log()
			}
			cpu.Report(b)
			b.SetBytes(w.n.Load() / int64(b.N))
		})
	}
}

func BenchmarkLoggerParallel(b *testing.B) {
	var w sink
	for _, l := range loggers(&w) {
		b.Run("impl="+l.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cputime.Start()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					l.log()
				}
			})
			cpu.Report(b)
		})
	}
}

// TestLoggersWrite checks that every logger writes one line holding the
// record's values, so that none of them does less work than the others.
func TestLoggersWrite(t *testing.T) {
	var w lineRecorder
	for _, l := range loggers(&w) {
		w.lines = nil
		l.log()
		if len(w.lines) != 1 {
			t.Fatalf("%s: %d writes, want 1", l.name, len(w.lines))
		}
		line := w.lines[0]
		for _, want := range []string{msg, path, "200", "0.25", "connection refused", "INFO"} {
			if !containsFold(line, want) {
				t.Errorf("%s: line %q lacks %q", l.name, line, want)
			}
		}
		t.Logf("%-13s %s", l.name, line)
	}
}

type lineRecorder struct{ lines []string }

func (r *lineRecorder) Write(p []byte) (int, error) {
	r.lines = append(r.lines, string(p))
	return len(p), nil
}

func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if equalFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func equalFold(a, b string) bool {
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
