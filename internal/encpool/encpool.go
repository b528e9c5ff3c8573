// Package encpool holds the pooled gzip and zstd compressors that gzpool,
// zstdpool and httpcompress share.
//
// Each kind of compressor has one pool and one reset discipline, here.
//
// A compressor writes to its Sink, a field of the pooled state, never to
// the caller's io.Writer directly: Put clears the sink before the state
// goes back, so the pool pins nothing the caller owns.
package encpool

import (
	"errors"
	"io"

	"github.com/poolkit/poolkit/bytebuf"
)

// Sink is what a pooled compressor writes to: exactly one of W (stream to
// the caller's writer), Buf (a pooled scratch buffer) or, when both are
// nil, B (append to a slice, the caller's dst).
type Sink struct {
	W   io.Writer
	Buf *bytebuf.Buffer
	B   []byte
	// chunk carries WriteString's text to a W that has no WriteString
	// of its own: it is part of the pooled state, so passing it to W
	// allocates nothing, where converting the string would.
	chunk [128]byte
}

// Write forwards p to the sink's destination.
func (s *Sink) Write(p []byte) (int, error) {
	switch {
	case s.W != nil:
		return s.W.Write(p)
	case s.Buf != nil:
		return s.Buf.Write(p)
	}
	s.B = append(s.B, p...)
	return len(p), nil
}

// WriteString forwards str to the sink's destination without converting
// it to a new []byte: compressors write header strings (a gzip comment)
// through io.WriteString.
func (s *Sink) WriteString(str string) (int, error) {
	switch {
	case s.W != nil:
		if sw, ok := s.W.(io.StringWriter); ok {
			return sw.WriteString(str)
		}
		n := 0
		for n < len(str) {
			c := copy(s.chunk[:], str[n:])
			m, err := s.W.Write(s.chunk[:c])
			n += m
			if err != nil {
				return n, err
			}
			if m < c {
				return n, io.ErrShortWrite
			}
		}
		return n, nil
	case s.Buf != nil:
		return s.Buf.WriteString(str)
	}
	s.B = append(s.B, str...)
	return len(str), nil
}

// NilWriter stands for a nil io.Writer given to a streaming Writer's
// constructor, so that writes fail, naming the package, rather than
// vanish or panic.
type NilWriter struct{ Pkg string }

func (n NilWriter) Write([]byte) (int, error) {
	return 0, errors.New(n.Pkg + ": Writer was made with a nil io.Writer")
}
