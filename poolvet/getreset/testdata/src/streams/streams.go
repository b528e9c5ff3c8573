// Package streams holds pooled compressors used before Reset points them
// at this caller's stream.
package streams

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"io"
	"sync"
)

var gzPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

var zPool = sync.Pool{New: func() any { return zlib.NewWriter(nil) }}

var okPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

var rPool sync.Pool

// ---- flagged ----

// The writer still points at the previous user's destination.
func noReset(w io.Writer, data []byte) error {
	zw := gzPool.Get().(*gzip.Writer)
	_, err := zw.Write(data) // want `zw from gzPool \(Get on line 25\) is written before it is reset`
	zw.Close()
	gzPool.Put(zw)
	return err
}

// Closing first flushes into the previous user's destination.
func closeFirst(w io.Writer) {
	zw := zPool.Get().(*zlib.Writer)
	zw.Close() // want `zw from zPool \(Get on line 34\) is written before it is reset`
	zPool.Put(zw)
}

// ---- quiet ----

// Reset(w) right after Get.
func reset(w io.Writer, data []byte) error {
	zw := okPool.Get().(*gzip.Writer)
	zw.Reset(w)
	_, err := zw.Write(data)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	okPool.Put(zw)
	return err
}

// A reader reset to this caller's source.
func read(r io.Reader) ([]byte, error) {
	zr, ok := rPool.Get().(*gzip.Reader)
	if !ok {
		var err error
		if zr, err = gzip.NewReader(r); err != nil {
			return nil, err
		}
	} else if err := zr.Reset(r); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	_, err := b.ReadFrom(zr)
	rPool.Put(zr)
	return b.Bytes(), err
}

type reader struct {
	r   *gzip.Reader
	buf *bytes.Buffer
}

var readers = sync.Pool{New: func() any { return &reader{buf: new(bytes.Buffer)} }}

// A deferred Close runs at return, after the Reset.
func deferredClose(data io.Reader) ([]byte, error) {
	gr := readers.Get().(*reader)
	defer readers.Put(gr)
	defer gr.r.Close()
	gr.buf.Reset()
	if err := gr.r.Reset(data); err != nil {
		return nil, err
	}
	if _, err := io.Copy(gr.buf, gr.r); err != nil {
		return nil, err
	}
	return bytes.Clone(gr.buf.Bytes()), nil
}
