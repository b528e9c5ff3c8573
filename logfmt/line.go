package logfmt

import (
	"io"
	"strconv"
	"time"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/rfc3339"
	"github.com/poolkit/poolkit/pool"
)

// Buffers for Lines and for the handler's records come from buffers, through
// getBuffer and putBuffer.
//
// The pool is a pool.Pool with a fixed cap, not a calibrating bytebuf.Pool:
// log lines vary in length, and a calibrated pool drops every buffer longer
// than twice the size most lines need, so a service whose lines are mostly
// short would allocate on each of its few long lines, and on every line
// for the thousands of lines after the mix of lengths changes, until the
// pool calibrates again. A fixed cap keeps every line up to it free of
// allocations.
var buffers = pool.New(func() *bytebuf.Buffer {
	return &bytebuf.Buffer{B: make([]byte, 0, newBufferCap)}
})

const (
	// newBufferCap is the capacity of a new buffer: enough for most log
	// lines, so that a new buffer seldom grows.
	newBufferCap = 256
	// maxBufferCap is the largest buffer capacity kept: a buffer that grew
	// beyond it, for a line holding some huge value, is dropped rather
	// than pinned in the pool, as slog's own buffers are
	// (log/slog/internal/buffer, also 16 KiB).
	maxBufferCap = 16 << 10
)

// getBuffer returns an empty buffer, owned by the caller until putBuffer.
func getBuffer() *bytebuf.Buffer { return buffers.Get() }

// putBuffer empties b and gives it back to the pool, unless it is too large
// to keep. The caller must not use b, nor any slice of its bytes, after.
func putBuffer(b *bytebuf.Buffer) {
	if cap(b.B) > maxBufferCap {
		return
	}
	b.B = b.B[:0]
	buffers.Put(b)
}

// Line builds one logfmt record in a pooled buffer and writes it with a
// single Write call. The zero value is an empty line, ready to use:
//
//	var l logfmt.Line
//	l.Time("time", time.Now())
//	l.String("path", r.URL.Path)
//	l.Int("status", 200)
//	err := l.End(w) // writes "time=... path=/search status=200\n"
//
// A Line takes a buffer from a pool on its first append and gives it back
// in End or Discard, after which the Line is empty and may be used again. A
// Line must not be copied: a copy would share the buffer and could use it
// after End has handed it to another goroutine. A Line is not safe for
// concurrent use.
type Line struct {
	noCopy noCopy
	buf    *bytebuf.Buffer
}

// begin returns the line's buffer with a separator appended when the line
// already holds a pair.
func (l *Line) begin() *bytebuf.Buffer {
	if l.buf == nil {
		l.buf = getBuffer()
	} else if len(l.buf.B) > 0 {
		l.buf.B = append(l.buf.B, ' ')
	}
	return l.buf
}

// key starts a pair: separator, key and '='.
func (l *Line) key(key string) *bytebuf.Buffer {
	b := l.begin()
	b.B = AppendKey(b.B, key)
	b.B = append(b.B, '=')
	return b
}

// String appends key=val, quoting val if it needs quotes.
func (l *Line) String(key, val string) {
	b := l.key(key)
	b.B = appendValue(b.B, val)
}

// Int appends key=v in decimal.
func (l *Line) Int(key string, v int64) {
	b := l.key(key)
	b.B = strconv.AppendInt(b.B, v, 10)
}

// Uint appends key=v in decimal.
func (l *Line) Uint(key string, v uint64) {
	b := l.key(key)
	b.B = strconv.AppendUint(b.B, v, 10)
}

// Float appends key=v in the shortest form that reads back as the same
// float64, as strconv.FormatFloat(v, 'g', -1, 64) writes it.
func (l *Line) Float(key string, v float64) {
	b := l.key(key)
	b.B = strconv.AppendFloat(b.B, v, 'g', -1, 64)
}

// Bool appends key=true or key=false.
func (l *Line) Bool(key string, v bool) {
	b := l.key(key)
	b.B = strconv.AppendBool(b.B, v)
}

// Duration appends key=d as d.String() writes it, such as "1.5s".
func (l *Line) Duration(key string, d time.Duration) {
	b := l.key(key)
	b.B = appendDuration(b.B, d)
}

// Time appends key=t in RFC 3339 form with whole seconds, exactly as
// t.Format(time.RFC3339) writes it.
func (l *Line) Time(key string, t time.Time) {
	b := l.key(key)
	b.B, _ = appendSeconds(b.B, t)
}

// TimeMillis appends key=t in RFC 3339 form with milliseconds, as
// t.Format("2006-01-02T15:04:05.000Z07:00") and slog.TextHandler write it.
func (l *Line) TimeMillis(key string, t time.Time) {
	b := l.key(key)
	b.B = appendTimeMillis(b.B, t)
}

// TimeNano appends key=t in RFC 3339 form with the fraction of a second
// that is not zero, exactly as t.Format(time.RFC3339Nano) writes it.
func (l *Line) TimeNano(key string, t time.Time) {
	b := l.key(key)
	b.B = rfc3339.Append(b.B, t, true)
}

// Err appends key=err.Error(), quoted if it needs quotes, or key=<nil> for
// a nil error.
func (l *Line) Err(key string, err error) {
	b := l.key(key)
	if err == nil {
		b.B = append(b.B, "<nil>"...)
		return
	}
	b.B = appendValue(b.B, err.Error())
}

// Len returns the number of bytes the line holds, without the newline End
// adds.
func (l *Line) Len() int {
	if l.buf == nil {
		return 0
	}
	return len(l.buf.B)
}

// End writes the line and a newline to w with one Write call, gives the
// buffer back to the pool and leaves l empty. It returns w's error, or
// io.ErrShortWrite if w wrote less than the whole line without saying why.
// An empty line writes nothing.
//
// After End, nothing that w kept from the slice it was given may be used:
// the buffer belongs to the pool again. Writers that keep what they are
// given, rather than copy it, must not be passed to End.
func (l *Line) End(w io.Writer) error {
	b := l.buf
	if b == nil {
		return nil
	}
	l.buf = nil
	if len(b.B) == 0 {
		putBuffer(b)
		return nil
	}
	b.B = append(b.B, '\n')
	n, err := w.Write(b.B)
	if err == nil && n < len(b.B) {
		err = io.ErrShortWrite
	}
	putBuffer(b)
	return err
}

// Discard gives the line's buffer back to the pool without writing it and
// leaves l empty.
func (l *Line) Discard() {
	if l.buf != nil {
		putBuffer(l.buf)
		l.buf = nil
	}
}

// noCopy makes go vet's copylocks check report copies of a Line.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
