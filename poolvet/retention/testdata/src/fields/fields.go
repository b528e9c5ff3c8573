// Package fields holds pooled values whose buffer fields grow in one
// function while the Put is in another.
package fields

import (
	"bytes"
	"io"
	"sync"
)

// ---- a method grows a field of the pooled value ----

// Decoder keeps the bytes of the last string it read in buf.
type Decoder struct {
	r   io.Reader
	buf []byte
}

func (d *Decoder) readN(n int) ([]byte, error) {
	var err error
	d.buf, err = readN(d.r, d.buf, n)
	return d.buf, err
}

func readN(r io.Reader, b []byte, n int) ([]byte, error) {
	if n > cap(b) {
		b = append(b, make([]byte, n-len(b))...)
	}
	b = b[:n]
	_, err := io.ReadFull(r, b)
	return b, err
}

var decPool = sync.Pool{New: func() any { return new(Decoder) }}

// GetDecoder takes a decoder from the pool; PutDecoder gives it back.
func GetDecoder() *Decoder { return decPool.Get().(*Decoder) }

// PutDecoder drops the reader but keeps buf at whatever size it reached.
func PutDecoder(d *Decoder) {
	d.r = nil
	decPool.Put(d) // want `^decPool.Put keeps d whatever the size of its buf \(grown from input on line 21 by readN in Decoder.readN\)$`
}

// Stream appends what is written to it to buf.
type Stream struct {
	out io.Writer
	buf []byte
}

// Write appends p to the stream's buffer.
func (s *Stream) Write(p []byte) (int, error) {
	s.buf = append(s.buf, p...)
	return len(p), nil
}

// Reset keeps the memory of buf.
func (s *Stream) Reset(w io.Writer) {
	s.out = w
	s.buf = s.buf[:0]
}

var streams = sync.Pool{New: func() any { return new(Stream) }}

// ReturnStream resets the stream, which keeps its memory.
func ReturnStream(s *Stream) {
	s.Reset(nil)
	streams.Put(s) // want `streams.Put keeps s whatever the size of its buf \(grown from input on line 53 by append in Stream.Write\)`
}

// marshal gets, grows and puts in one function.
func marshal(v []byte) []byte {
	s := streams.Get().(*Stream)
	s.Reset(nil)
	s.Write(v)
	out := append([]byte(nil), s.buf...)
	streams.Put(s) // want `streams.Put keeps s whatever its size \(got on line 73, grown from input on line 75 by s.Write of caller data\)`
	return out
}

// ---- quiet: the field is bounded, dropped or never grows from input ----

// Capped checks the size of its buffer before it goes back.
type Capped struct{ buf []byte }

func (c *Capped) add(p []byte) { c.buf = append(c.buf, p...) }

var capped = sync.Pool{New: func() any { return new(Capped) }}

func putCapped(c *Capped) {
	if cap(c.buf) > 64<<10 {
		return
	}
	capped.Put(c)
}

// Dropped lets go of its buffer on release.
type Dropped struct{ buf []byte }

func (d *Dropped) add(p []byte) { d.buf = append(d.buf, p...) }

var dropped = sync.Pool{New: func() any { return new(Dropped) }}

func putDropped(d *Dropped) {
	d.buf = nil
	dropped.Put(d)
}

// Cleared drops its buffer in a method the release calls.
type Cleared struct{ buf []byte }

func (c *Cleared) add(p []byte) { c.buf = append(c.buf, p...) }
func (c *Cleared) clear()       { c.buf = make([]byte, 0, 64) }

var cleared = sync.Pool{New: func() any { return new(Cleared) }}

func putCleared(c *Cleared) {
	c.clear()
	cleared.Put(c)
}

// Flushing flushes whenever its buffer passes 4 KiB: the method that
// grows it bounds it.
type Flushing struct {
	w   io.Writer
	buf []byte
}

func (f *Flushing) Write(p []byte) (int, error) {
	f.buf = append(f.buf, p...)
	if len(f.buf) >= 4096 {
		f.w.Write(f.buf)
		f.buf = f.buf[:0]
	}
	return len(p), nil
}

var flushing = sync.Pool{New: func() any { return new(Flushing) }}

func putFlushing(f *Flushing) { flushing.Put(f) }

// Fixed appends constants only.
type Fixed struct{ buf []byte }

func (f *Fixed) null() { f.buf = append(f.buf, "null"...) }

var fixed = sync.Pool{New: func() any { return new(Fixed) }}

func putFixed(f *Fixed) { fixed.Put(f) }

// ByValue grows a copy of itself.
type ByValue struct{ buf []byte }

func (b ByValue) add(p []byte) []byte { b.buf = append(b.buf, p...); return b.buf }

var byValue = sync.Pool{New: func() any { return new(ByValue) }}

func putByValue(b *ByValue) { byValue.Put(b) }

// Nodes grows a slice of pointers, not a byte buffer.
type Nodes struct{ list []*Nodes }

func (n *Nodes) add(m *Nodes) { n.list = append(n.list, m) }

var nodes = sync.Pool{New: func() any { return new(Nodes) }}

func putNodes(n *Nodes) { nodes.Put(n) }

// Sized has a Len method its callers check before the release.
type Sized struct{ buf []byte }

func (s *Sized) add(p []byte) { s.buf = append(s.buf, p...) }
func (s *Sized) Len() int     { return len(s.buf) }

var sized = sync.Pool{New: func() any { return new(Sized) }}

func putSized(s *Sized) { sized.Put(s) }

func useSized(s *Sized, p []byte) {
	s.add(p)
	if s.Len() <= 64<<10 {
		putSized(s)
	}
}

// ---- a pooled buffer stored in a field, grown and put back elsewhere ----

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func acquireBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

func releaseBuffer(b *bytes.Buffer) {
	b.Reset()
	buffers.Put(b) // want `^buffers.Put keeps b whatever its size \(got on line 201, grown from input on line 211 by r.decompressed.ReadFrom\)$`
}

type setReader struct {
	decompressed *bytes.Buffer
}

func newSetReader() *setReader { return &setReader{decompressed: acquireBuffer()} }

func (r *setReader) close() {
	releaseBuffer(r.decompressed)
	r.decompressed = nil
}

func (r *setReader) read(src io.Reader) error {
	return r.each(func() error {
		r.decompressed.Reset()
		_, err := r.decompressed.ReadFrom(src)
		return err
	})
}

func (r *setReader) each(f func() error) error { return f() }

// ---- quiet: the pooled field's size is checked ----

var smalls = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type smallReader struct{ buf *bytes.Buffer }

func newSmallReader() *smallReader { return &smallReader{buf: smalls.Get().(*bytes.Buffer)} }

func (r *smallReader) read(src io.Reader) error {
	_, err := r.buf.ReadFrom(src)
	return err
}

func (r *smallReader) close() {
	if r.buf.Cap() <= 64<<10 {
		putSmall(r.buf)
	}
	r.buf = nil
}

func putSmall(b *bytes.Buffer) {
	b.Reset()
	smalls.Put(b)
}
