// Package bytebuf provides Buffer, an append-friendly byte buffer with
// strconv-style appenders, and Pool, a pool of Buffers that learns the sizes
// it serves so new buffers start at a useful capacity and rare huge buffers
// are dropped instead of retained.
//
// Get a buffer from a Pool (or the package's default pool with Get), append
// to it, copy or write out what it holds, and Put it back. The bytes returned
// by Bytes alias the buffer and so must not be used after Put.
package bytebuf

import (
	"io"
	"strconv"
	"time"
	"unicode/utf8"
)

// Buffer is a growable byte buffer. The zero value is an empty buffer ready
// to use.
//
// B is the buffer's content, exported so that code can append to it
// directly with the strconv and time Append functions:
//
//	buf.B = strconv.AppendQuote(buf.B, s)
type Buffer struct {
	B []byte

	// puts counts the times the buffer was Put into a Pool, which uses it
	// to sample about one Put in 32 for calibration without shared state.
	puts uint32

	// counted is the pool with stats on that this buffer was last Put
	// into, so that a Get from that pool can count a hit; nil otherwise.
	counted *Pool
}

// Len returns the number of bytes in the buffer.
func (b *Buffer) Len() int { return len(b.B) }

// Cap returns the capacity of the buffer's storage.
func (b *Buffer) Cap() int { return cap(b.B) }

// Reset empties the buffer, keeping its storage for reuse.
func (b *Buffer) Reset() { b.B = b.B[:0] }

// Bytes returns the buffer's content. The slice aliases the buffer's
// storage: it is valid only until the next change to the buffer and must
// not be used after the buffer is Put back into a pool. Use String, or
// append it to a slice of your own, to keep a copy.
func (b *Buffer) Bytes() []byte { return b.B }

// String returns a copy of the buffer's content as a string.
func (b *Buffer) String() string { return string(b.B) }

// Write appends p to the buffer. It always returns len(p), nil.
func (b *Buffer) Write(p []byte) (int, error) {
	b.B = append(b.B, p...)
	return len(p), nil
}

// WriteString appends s to the buffer. It always returns len(s), nil.
func (b *Buffer) WriteString(s string) (int, error) {
	b.B = append(b.B, s...)
	return len(s), nil
}

// WriteByte appends c to the buffer. It always returns nil.
func (b *Buffer) WriteByte(c byte) error {
	b.B = append(b.B, c)
	return nil
}

// WriteRune appends the UTF-8 encoding of r to the buffer. It always returns
// the encoded length and nil.
func (b *Buffer) WriteRune(r rune) (int, error) {
	n := len(b.B)
	b.B = utf8.AppendRune(b.B, r)
	return len(b.B) - n, nil
}

// WriteTo writes the buffer's content to w. It implements io.WriterTo and,
// unlike bytes.Buffer, leaves the content in place: call Reset to empty the
// buffer.
func (b *Buffer) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(b.B)
	return int64(n), err
}

// minRead is the space ReadFrom makes sure is free before each Read.
const minRead = 512

// ReadFrom appends everything r yields until io.EOF to the buffer and
// returns the number of bytes read. It implements io.ReaderFrom. The error
// is nil at io.EOF and r's error otherwise; the bytes read before an error
// stay in the buffer.
func (b *Buffer) ReadFrom(r io.Reader) (int64, error) {
	start := len(b.B)
	for {
		if cap(b.B)-len(b.B) < minRead {
			b.B = append(b.B, make([]byte, minRead)...)[:len(b.B)]
		}
		n, err := r.Read(b.B[len(b.B):cap(b.B)])
		if n < 0 {
			return int64(len(b.B) - start), errNegativeRead
		}
		b.B = b.B[:len(b.B)+n]
		if err == io.EOF {
			return int64(len(b.B) - start), nil
		}
		if err != nil {
			return int64(len(b.B) - start), err
		}
	}
}

type readError string

func (e readError) Error() string { return string(e) }

const errNegativeRead = readError("bytebuf: reader returned a negative count from Read")

// AppendInt appends the decimal form of i.
func (b *Buffer) AppendInt(i int64) { b.B = strconv.AppendInt(b.B, i, 10) }

// AppendUint appends the decimal form of u.
func (b *Buffer) AppendUint(u uint64) { b.B = strconv.AppendUint(b.B, u, 10) }

// AppendFloat appends f formatted as strconv.FormatFloat(f, fmt, prec,
// bitSize) would format it.
func (b *Buffer) AppendFloat(f float64, fmt byte, prec, bitSize int) {
	b.B = strconv.AppendFloat(b.B, f, fmt, prec, bitSize)
}

// AppendBool appends "true" or "false".
func (b *Buffer) AppendBool(v bool) { b.B = strconv.AppendBool(b.B, v) }

// AppendQuote appends s as a double-quoted Go string literal, as
// strconv.Quote would write it.
func (b *Buffer) AppendQuote(s string) { b.B = strconv.AppendQuote(b.B, s) }

// AppendTime appends t in RFC 3339 form with whole seconds
// ("2006-01-02T15:04:05Z07:00"), exactly as t.Format(time.RFC3339) would,
// without allocating.
func (b *Buffer) AppendTime(t time.Time) { b.B = AppendRFC3339(b.B, t, false) }

// AppendTimeNano appends t in RFC 3339 form with the fractional seconds
// that are not zero ("2006-01-02T15:04:05.999999999Z07:00"), exactly as
// t.Format(time.RFC3339Nano) would, without allocating.
func (b *Buffer) AppendTimeNano(t time.Time) { b.B = AppendRFC3339(b.B, t, true) }
