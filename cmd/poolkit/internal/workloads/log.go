package workloads

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/poolkit/poolkit/logfmt"
)

// The log-line workload: the sync.Pool documentation's example, Log(w,
// key, val), which writes an RFC 3339 time and key=val through a pooled
// bytes.Buffer, as measured in ludwig125's sync.Pool article. Every variant
// writes the same line to logSink, which checks it.

const srcLog = "ludwig125, golangのsync.Poolで速度改善したい, " +
	"sync.Pool doc example, go test -bench, 8 threads, linux/amd64"

const (
	logKey = "this_path"
	logVal = "/test?q=query&format=json&groupid=100001&area=200000001"
)

// logLine is the line every variant must write.
var logLine = []byte(`time=2006-01-02T15:04:05Z this_path="/test?q=query&format=json&groupid=100001&area=200000001"` + "\n")

// logTimeNow is the example's fixed clock, 2006-01-02T15:04:05Z.
func logTimeNow() time.Time { return time.Unix(1136214245, 0) }

// logSink is the writer of every variant. It checks each line and keeps
// nothing, so that no variant pays for a growing buffer (the article wrote
// to one bytes.Buffer for the whole benchmark). It is safe for concurrent
// use, as it only reads its argument.
type logSink struct{}

func (logSink) Write(p []byte) (int, error) {
	if !bytes.Equal(p, logLine) {
		return 0, fmt.Errorf("log line: got %q, want %q", p, logLine)
	}
	return len(p), nil
}

var logW io.Writer = logSink{}

const logSeedNote = "The article's line is not logfmt: its value holds '=' and is written " +
	"bare, so logfmt parsers reject it, and it has no key for the time and no newline. " +
	"Here naive and seed write the same line as poolkit, time=... this_path=\"...\"\\n, " +
	"quoting with strconv.AppendQuote into the buffer's free space (the same bytes as " +
	"logfmt's escaping for this value, and no extra allocation); they keep the article's " +
	"buffers and time.Format."

// writeLogLine writes the line of logNaive and logSeed into b as the
// article's functions do, with time.Format, but quoting the value.
func writeLogLine(b *bytes.Buffer, key, val string) {
	b.WriteString("time=")
	b.WriteString(logTimeNow().UTC().Format(time.RFC3339))
	b.WriteByte(' ')
	b.WriteString(key)
	b.WriteByte('=')
	b.Write(strconv.AppendQuote(b.AvailableBuffer(), val))
	b.WriteByte('\n')
}

// logNaive is the article's LogWithoutPool, fixed to write a logfmt line.
func logNaive(w io.Writer, key, val string) error {
	b := &bytes.Buffer{}
	writeLogLine(b, key, val)
	_, err := w.Write(b.Bytes())
	return err
}

var logSeedPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// logSeed is the article's pooled Log, fixed to write a logfmt line.
func logSeed(w io.Writer, key, val string) error {
	b := logSeedPool.Get().(*bytes.Buffer)
	b.Reset()
	writeLogLine(b, key, val)
	_, err := w.Write(b.Bytes())
	//poolvet:ignore retention the article's pattern, measured as published: it puts the buffer back with no size check
	logSeedPool.Put(b)
	return err
}

// logKit writes the line with logfmt.Line: a pooled bytebuf.Buffer, the
// time appended digit by digit, the value quoted because it holds '=', and
// one Write.
func logKit(w io.Writer, key, val string) error {
	var l logfmt.Line
	l.Time("time", logTimeNow().UTC())
	l.String(key, val)
	return l.End(w)
}

func registerLog() {
	for _, par := range []bool{false, true} {
		w := "log line"
		if par {
			w += " (parallel)"
		}
		var naivePub, seedPub *Figure
		if !par {
			naivePub = &Figure{NsPerOp: 411, AllocsPerOp: 3, Source: srcLog + "; BenchmarkLogWithoutPool-8"}
			seedPub = &Figure{NsPerOp: 307, AllocsPerOp: 1, Source: srcLog + "; BenchmarkLog-8"}
		}
		Register(
			Case{Workload: w, Variant: Naive, Parallel: par, WantAllocs: -1, Published: naivePub, Footnote: logSeedNote,
				Op: func() error { return logNaive(logW, logKey, logVal) }},
			Case{Workload: w, Variant: Seed, Parallel: par, WantAllocs: -1, Published: seedPub, Footnote: logSeedNote,
				Op: func() error { return logSeed(logW, logKey, logVal) }},
			// logfmt's TestLineAllocs asserts 0 allocs for this line.
			Case{Workload: w, Variant: Poolkit, Name: "logfmt", Parallel: par, WantAllocs: 0,
				Op: func() error { return logKit(logW, logKey, logVal) }},
		)
	}
}
