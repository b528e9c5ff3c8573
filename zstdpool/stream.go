package zstdpool

import (
	"errors"
	"io"

	"github.com/poolkit/poolkit/internal/encpool"
)

// Writer is a streaming zstd compressor backed by a pooled encoder. Make
// one with NewWriter or NewWriterLevel; the zero Writer is closed and its
// methods return ErrClosed.
//
// A Writer buffers up to one block (128 KiB) of input before it compresses
// and writes it, so nothing reaches the underlying writer before that,
// Flush or Close. It writes one frame with a window of Window and a
// content checksum. A Writer is a small handle: Close returns the pooled
// state it points to and forgets it, so a Writer used after Close reports
// ErrClosed instead of touching state another goroutine now owns. A Writer
// is not safe for concurrent use.
type Writer struct {
	st   *encpool.Zstd
	pool *encpool.ZstdPool
}

// NewWriter returns a Writer that compresses what is written to it at
// DefaultCompression and writes the zstd stream to w. The caller must
// Close it to finish the stream and return its state to the pool.
func NewWriter(w io.Writer) *Writer {
	z, _ := NewWriterLevel(w, DefaultCompression) // the level is valid
	return z
}

// NewWriterLevel is NewWriter at the given level, SpeedFastest to
// SpeedBestCompression.
func NewWriterLevel(w io.Writer, level int) (*Writer, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	if w == nil {
		w = encpool.NilWriter{Pkg: "zstdpool"}
	}
	pl := encoders[level]
	st := pl.Get()
	st.Sink.W = w
	return &Writer{st: st, pool: pl}, nil
}

// Write compresses p. Input is buffered until a block is full, so the
// underlying writer's errors may show only on a later call.
func (z *Writer) Write(p []byte) (int, error) {
	if z.st == nil {
		return 0, ErrClosed
	}
	return z.st.E.Write(p)
}

// Flush compresses what is buffered as a block and writes it to the
// underlying writer, so that a reader can decode everything written so
// far. Each Flush ends a block, which costs a few bytes and some ratio, so
// call it only when a reader is waiting, as an HTTP stream does.
func (z *Writer) Flush() error {
	if z.st == nil {
		return ErrClosed
	}
	return z.st.E.Flush()
}

// Close finishes the frame, writing the last block and the checksum to the
// underlying writer, which it does not close. It then returns the Writer's
// state to the pool and drops the reference to the underlying writer; the
// state is returned even when the final write fails. Close returns the
// error of that final write; a second Close does nothing and returns nil.
func (z *Writer) Close() error {
	st := z.st
	if st == nil {
		return nil
	}
	z.st = nil
	err := st.E.Close()
	z.pool.Put(st)
	return err
}

// Reader is a streaming zstd decompressor backed by a pooled decoder. Make
// one with NewReader; the zero Reader is closed and its methods return
// ErrClosed. Like the zstd command, a Reader reads every concatenated
// frame of its input and skips skippable frames. A Reader is not safe for
// concurrent use.
type Reader struct {
	st *decoderState
}

// NewReader returns a Reader that decompresses the zstd stream read from
// r. It reads the first frame header before returning, and reports
// ErrEmpty when r holds no data at all, ErrWindow when that frame declares
// a window above MaxWindow, an error wrapping ErrCorrupt or ErrTruncated,
// or the error r returned.
//
// The Reader reads r through a pooled bufio.Reader, so it may read ahead
// of the zstd data; as it reads every concatenated frame, it reads r to
// its end anyway. What it holds is bounded by MaxWindow whatever r
// declares: a later frame with a larger window fails with ErrWindow.
//
// The caller must Close the Reader to return its state to the pool.
func NewReader(r io.Reader) (*Reader, error) {
	if r == nil {
		return nil, errors.New("zstdpool: NewReader of a nil io.Reader")
	}
	st := getStreamDecoder()
	st.trap.r = r
	st.br.Reset(&st.trap) // reuses the pooled bufio.Reader's buffer
	err := st.firstHeader()
	if err == nil {
		if err = st.dec.Reset(&st.br); err != nil {
			err = classify(err, &st.trap)
		}
	}
	if err != nil {
		st.release()
		return nil, err
	}
	return &Reader{st: st}, nil
}

// firstHeader peeks at the first frame header of st.br and checks it: the
// data is zstd, and its window is within MaxWindow. It peeks no further
// than the header, as the frame header descriptor gives its length, so a
// stream whose first flush is shorter than the longest header does not
// block here.
func (st *decoderState) firstHeader() error {
	for n := 4; ; {
		head, err := st.br.Peek(n)
		if len(head) == 0 {
			if err == io.EOF {
				return ErrEmpty
			}
			return err
		}
		f, perr := parseFrameHeader(head)
		if perr == errShort && len(head) == n {
			n = headerLen(head)
			continue
		}
		switch {
		case perr == errShort && err != nil && err != io.EOF:
			return err // the caller's reader failed inside the header
		case perr != nil:
			return perr
		case !f.skippable && f.contentSize == fcsUnknown && f.window > MaxWindow:
			return ErrWindow
		}
		return nil
	}
}

// Read reads decompressed data into p. It returns io.EOF at the end of the
// last frame, once its checksum, if it has one, has been verified; any
// other error is ErrWindow, wraps ErrCorrupt or ErrTruncated, or is the
// error of the underlying reader.
func (z *Reader) Read(p []byte) (int, error) {
	st := z.st
	if st == nil {
		return 0, ErrClosed
	}
	if st.err != nil {
		return 0, st.err
	}
	n, err := st.dec.Read(p)
	if err != nil && err != io.EOF {
		err = classify(err, &st.trap)
	}
	st.err = err
	return n, err
}

// Close returns the Reader's state to the pool and drops its reference to
// the underlying reader, which it does not close. A second Close does
// nothing. Close always returns nil; a corrupt stream is reported by Read.
func (z *Reader) Close() error {
	if st := z.st; st != nil {
		z.st = nil
		st.release()
	}
	return nil
}
