// Package bytebuf provides Buffer, a byte buffer with strconv-style
// appenders, and Pool, a pool of Buffers that calibrates its sizes.
//
// Pool learns the sizes it serves, so new buffers start at a useful
// capacity and rare huge buffers are dropped instead of retained.
//
// Get a buffer from a Pool (or the package's default pool with Get), append
// to it, copy or write out what it holds, and Put it back. The bytes returned
// by Bytes alias the buffer and so must not be used after Put.
//
// # Overlap
//
// Every method that appends an input (Write, WriteString, AppendQuote,
// ReadFrom's reader) gives the right result when the input aliases the
// buffer's content, b.Bytes() or a string sharing its memory: it appends
// after Len and reads only what came before. An input that aliases the
// spare capacity beyond Len is overwritten as it is read; do not pass one.
// AppendRFC3339 and the number, bool and time appenders take no bytes, so
// nothing can overlap.
//
// # Checked mode
//
// Built with -tags poolkitcheck, a Buffer from a Pool keeps its bytes in
// their own page-aligned mappings (syscall.Mmap), which Put makes
// inaccessible (mprotect PROT_NONE) until a Get hands the buffer out
// again, so reading or writing the bytes after Put, through Bytes or B,
// faults at that instruction; a Pool holds the last 128 buffers Put back
// from reuse. Every method of a Buffer that was Put panics, naming the
// Put, and a second Put panics naming the first. The methods grow the
// buffer into new checked pages; the pages it outgrew stay readable (a
// Bytes slice taken before the growth still works) until Put seals them
// too. An append to B directly that outgrows its capacity moves the
// content to the Go heap, where page protection cannot reach: the next
// method call or Put moves it back, and Put checksums the heap array so a
// write to it after Put is still reported when the buffer is reused.
// Other systems than Linux poison the bytes with 0xDB at Put and check
// the poison at reuse instead. A buffer that is never Put keeps its
// mapping (nothing can tell whether its bytes are still in use); past
// 16,384 mappings checked buffers fall back to poisoned heap memory.
//
// # Stats
//
// Pool.Stats returns a pool.Stats, the counts every poolkit pool shares,
// so that poolstats and poolprom can publish the pool, and
// Pool.Calibration the sizes it has learnt. Before poolkit 1.0 Stats
// returned a bytebuf.Stats holding both: read Gets, Puts, News, Drops and
// Counting from p.Stats() as before, and DefaultSize, MaxSize and
// Calibrations from p.Calibration().
package bytebuf

import (
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/poolkit/poolkit/internal/check"
)

// Buffer is a growable byte buffer. The zero value is an empty buffer ready
// to use.
//
// B is the buffer's content, exported so that code can append to it
// directly with the strconv and time Append functions:
//
//	buf.B = strconv.AppendQuote(buf.B, s)
//
// (In checked mode such an append may move B to the Go heap; see the
// package doc.)
type Buffer struct {
	chk bufCheck // empty unless built with -tags poolkitcheck; first, so it adds no padding

	B []byte

	// puts counts the times the buffer was Put into a Pool, which uses it
	// to sample about one Put in 32 for calibration without shared state.
	puts uint32

	// counted is the pool with stats on that this buffer was last Put
	// into, so that a Get from that pool can count a hit; nil otherwise.
	counted *Pool
}

// Len returns the number of bytes in the buffer.
func (b *Buffer) Len() int {
	if check.Enabled {
		b.checkUse("Len")
	}
	return len(b.B)
}

// Cap returns the capacity of the buffer's storage.
func (b *Buffer) Cap() int {
	if check.Enabled {
		b.checkUse("Cap")
	}
	return cap(b.B)
}

// Reset empties the buffer, keeping its storage for reuse.
func (b *Buffer) Reset() {
	if check.Enabled {
		b.checkUse("Reset")
	}
	b.B = b.B[:0]
}

// Bytes returns the buffer's content. The slice aliases the buffer's
// storage: it is valid only until the next change to the buffer and must
// not be used after the buffer is Put back into a pool. Use String, or
// append it to a slice of your own, to keep a copy.
func (b *Buffer) Bytes() []byte {
	if check.Enabled {
		b.checkUse("Bytes")
	}
	return b.B
}

// String returns a copy of the buffer's content as a string.
func (b *Buffer) String() string {
	if check.Enabled {
		b.checkUse("String")
	}
	return string(b.B)
}

// Write appends p to the buffer. It always returns len(p), nil. p may be
// the buffer's own content, b.Bytes(), which then appears twice.
func (b *Buffer) Write(p []byte) (int, error) {
	if check.Enabled {
		b.checkUse("Write")
	}
	b.B = append(b.B, p...)
	if check.Enabled {
		b.checkGrown()
	}
	return len(p), nil
}

// WriteString appends s to the buffer. It always returns len(s), nil. s
// may share memory with the buffer's content.
func (b *Buffer) WriteString(s string) (int, error) {
	if check.Enabled {
		b.checkUse("WriteString")
	}
	b.B = append(b.B, s...)
	if check.Enabled {
		b.checkGrown()
	}
	return len(s), nil
}

// WriteByte appends c to the buffer. It always returns nil.
func (b *Buffer) WriteByte(c byte) error {
	if check.Enabled {
		b.checkUse("WriteByte")
	}
	b.B = append(b.B, c)
	if check.Enabled {
		b.checkGrown()
	}
	return nil
}

// WriteRune appends the UTF-8 encoding of r to the buffer. It always returns
// the encoded length and nil.
func (b *Buffer) WriteRune(r rune) (int, error) {
	if check.Enabled {
		b.checkUse("WriteRune")
	}
	n := len(b.B)
	b.B = utf8.AppendRune(b.B, r)
	if check.Enabled {
		b.checkGrown()
	}
	return len(b.B) - n, nil
}

// WriteTo writes the buffer's content to w. It implements io.WriterTo and,
// unlike bytes.Buffer, leaves the content in place: call Reset to empty the
// buffer.
func (b *Buffer) WriteTo(w io.Writer) (int64, error) {
	if check.Enabled {
		b.checkUse("WriteTo")
	}
	n, err := w.Write(b.B)
	return int64(n), err
}

// minRead is the space ReadFrom makes sure is free before each Read.
const minRead = 512

// ReadFrom appends everything r yields until io.EOF to the buffer and
// returns the number of bytes read. It implements io.ReaderFrom. r may
// read from the buffer's content (bytes.NewReader(b.Bytes())): the bytes
// it returns are appended after them. The error
// is nil at io.EOF and r's error otherwise; the bytes read before an error
// stay in the buffer.
func (b *Buffer) ReadFrom(r io.Reader) (int64, error) {
	if check.Enabled {
		b.checkUse("ReadFrom")
	}
	start := len(b.B)
	for {
		if cap(b.B)-len(b.B) < minRead {
			b.B = append(b.B, make([]byte, minRead)...)[:len(b.B)]
			if check.Enabled {
				b.checkGrown()
			}
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
func (b *Buffer) AppendInt(i int64) {
	if check.Enabled {
		b.checkUse("AppendInt")
	}
	b.B = strconv.AppendInt(b.B, i, 10)
	if check.Enabled {
		b.checkGrown()
	}
}

// AppendUint appends the decimal form of u.
func (b *Buffer) AppendUint(u uint64) {
	if check.Enabled {
		b.checkUse("AppendUint")
	}
	b.B = strconv.AppendUint(b.B, u, 10)
	if check.Enabled {
		b.checkGrown()
	}
}

// AppendFloat appends f formatted as strconv.FormatFloat(f, fmt, prec,
// bitSize) would format it.
func (b *Buffer) AppendFloat(f float64, fmt byte, prec, bitSize int) {
	if check.Enabled {
		b.checkUse("AppendFloat")
	}
	b.B = strconv.AppendFloat(b.B, f, fmt, prec, bitSize)
	if check.Enabled {
		b.checkGrown()
	}
}

// AppendBool appends "true" or "false".
func (b *Buffer) AppendBool(v bool) {
	if check.Enabled {
		b.checkUse("AppendBool")
	}
	b.B = strconv.AppendBool(b.B, v)
	if check.Enabled {
		b.checkGrown()
	}
}

// AppendQuote appends s as a double-quoted Go string literal, as
// strconv.Quote would write it. s may share memory with the buffer's
// content, but not with its spare capacity beyond Len.
func (b *Buffer) AppendQuote(s string) {
	if check.Enabled {
		b.checkUse("AppendQuote")
	}
	b.B = strconv.AppendQuote(b.B, s)
	if check.Enabled {
		b.checkGrown()
	}
}

// AppendTime appends t in RFC 3339 form with whole seconds
// ("2006-01-02T15:04:05Z07:00"), exactly as t.Format(time.RFC3339) would,
// without allocating.
func (b *Buffer) AppendTime(t time.Time) {
	if check.Enabled {
		b.checkUse("AppendTime")
	}
	b.B = AppendRFC3339(b.B, t, false)
	if check.Enabled {
		b.checkGrown()
	}
}

// AppendTimeNano appends t in RFC 3339 form with the fractional seconds
// that are not zero ("2006-01-02T15:04:05.999999999Z07:00"), exactly as
// t.Format(time.RFC3339Nano) would, without allocating.
func (b *Buffer) AppendTimeNano(t time.Time) {
	if check.Enabled {
		b.checkUse("AppendTimeNano")
	}
	b.B = AppendRFC3339(b.B, t, true)
	if check.Enabled {
		b.checkGrown()
	}
}
