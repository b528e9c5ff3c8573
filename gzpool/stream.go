package gzpool

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/poolkit/poolkit/internal/encpool"
	"github.com/poolkit/poolkit/pool"
)

// Writer is a streaming gzip compressor backed by a pooled gzip writer. Make
// one with NewWriter or NewWriterLevel; the zero Writer is closed and its
// methods return ErrClosed.
//
// A Writer is a small handle: Close returns the pooled state it points to
// and forgets it, so a Writer used after Close reports ErrClosed instead of
// touching state another goroutine now owns. A Writer is not safe for
// concurrent use.
type Writer struct {
	st *encpool.Gzip
}

// NewWriter returns a Writer that compresses what is written to it at
// DefaultCompression and writes the gzip stream to w. The caller must
// Close it to finish the stream and return its state to the pool.
func NewWriter(w io.Writer) *Writer {
	z, _ := NewWriterLevel(w, DefaultCompression) // the level is valid
	return z
}

// NewWriterLevel is NewWriter at the given level, one of HuffmanOnly,
// DefaultCompression or 0 to 9.
func NewWriterLevel(w io.Writer, level int) (*Writer, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	if w == nil {
		w = encpool.NilWriter{Pkg: "gzpool"}
	}
	st := encpool.GetGzip(level)
	st.Sink.W = w
	return &Writer{st: st}, nil
}

// Write compresses p and writes it to the underlying writer, in whole or in
// part: the compressor buffers its output.
func (z *Writer) Write(p []byte) (int, error) {
	if z.st == nil {
		return 0, ErrClosed
	}
	return z.st.W.Write(p)
}

// Flush writes all pending compressed data to the underlying writer, so
// that a reader can decode everything written so far. It costs a few bytes
// of output and some compression ratio, so call it only when a reader is
// waiting, as an HTTP stream does.
func (z *Writer) Flush() error {
	if z.st == nil {
		return ErrClosed
	}
	return z.st.W.Flush()
}

// Close finishes the gzip stream, writing the trailer to the underlying
// writer, which it does not close. It then returns the Writer's state to
// the pool and drops the reference to the underlying writer; the state is
// returned even when writing the trailer fails. Close returns the error of
// that final write; a second Close does nothing and returns nil.
func (z *Writer) Close() error {
	st := z.st
	if st == nil {
		return nil
	}
	z.st = nil
	err := st.W.Close()
	encpool.PutGzip(st)
	return err
}

// Reader is a streaming gzip decompressor backed by a pooled gzip reader.
// Make one with NewReader; the zero Reader is closed and its methods
// return ErrClosed. Like gunzip, a Reader reads every concatenated gzip
// member of its input. A Reader is not safe for concurrent use.
type Reader struct {
	st *readerState
}

// NewReader returns a Reader that decompresses the gzip stream read from r.
// It reads the first gzip header before returning, and reports ErrEmpty
// when r holds no data at all, an error wrapping ErrCorrupt or
// ErrTruncated, or the error r returned.
//
// The Reader reads r through a pooled bufio.Reader, reset onto r rather
// than allocated anew, so it may read ahead of the gzip data; as it reads
// every concatenated member, it reads r to its end anyway.
//
// The caller must Close the Reader to return its state to the pool.
func NewReader(r io.Reader) (*Reader, error) {
	if r == nil {
		return nil, errors.New("gzpool: NewReader of a nil io.Reader")
	}
	st := getReader()
	st.br.Reset(r) // reuses the pooled bufio.Reader's buffer
	var err error
	if _, err = st.br.Peek(1); err == nil {
		err = st.nextMember(&st.br)
		if err != nil {
			err = classify(err, false, false)
		}
	} else if err == io.EOF {
		err = ErrEmpty
	}
	if err != nil {
		st.release()
		return nil, err
	}
	return &Reader{st: st}, nil
}

// Read reads decompressed data into p. It returns io.EOF at the end of the
// last gzip member, once the member's checksum and length have been
// verified; any other error wraps ErrCorrupt or ErrTruncated, or is the
// error of the underlying reader.
func (z *Reader) Read(p []byte) (int, error) {
	st := z.st
	if st == nil {
		return 0, ErrClosed
	}
	if st.err != nil {
		return 0, st.err
	}
	for {
		n, err := st.zr.Read(p)
		if err == io.EOF {
			// The end of a member: is another one next?
			if _, err = st.br.Peek(1); err == nil {
				err = st.nextMember(&st.br)
				if err == nil && n == 0 && len(p) > 0 {
					continue
				}
			}
		}
		if err != nil && err != io.EOF {
			err = classify(err, false, false)
		}
		st.err = err
		return n, err
	}
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

// readerState is a pooled gzip reader with the buffers it reads through.
// zr, br and src are values inside the state, so the state is one
// allocation, made once, and resetting them allocates nothing.
type readerState struct {
	zr    gzReader
	br    bufio.Reader // for NewReader's source
	src   bytes.Reader // for AppendDecompress's source
	probe [1]byte      // AppendDecompress reads here when dst is full
	err   error        // a Reader's sticky error, io.EOF at the end
}

// readerPool holds pointers, so Get and Put allocate nothing.
var readerPool pool.Pool[*readerState]

// getReader returns a reader state. It belongs to the caller until
// release or putReader.
func getReader() *readerState {
	if st := readerPool.Get(); st != nil {
		return st
	}
	return new(readerState)
}

// putReader returns st to the pool. The caller must already have cleared
// every reference st holds to its data (st.src.Reset(nil)) and must not use
// st again.
func putReader(st *readerState) { readerPool.Put(st) }

// release drops st's references to the caller's reader and returns st to
// the pool. zr reads only st.br, which is pointed at nothing.
func (st *readerState) release() {
	st.br.Reset(nil)
	st.err = nil
	putReader(st)
}
