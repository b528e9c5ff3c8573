// Package bbpool is a byte buffer pool of another package, in the shape
// of valyala/bytebufferpool.
package bbpool

import "sync"

// ByteBuffer is a pooled buffer.
type ByteBuffer struct{ B []byte }

// Reset empties the buffer.
func (b *ByteBuffer) Reset() { b.B = b.B[:0] }

var p sync.Pool

// Get returns a buffer from the pool.
func Get() *ByteBuffer {
	v := p.Get()
	if v == nil {
		return &ByteBuffer{}
	}
	return v.(*ByteBuffer)
}

// Put returns a buffer to the pool.
func Put(b *ByteBuffer) {
	b.Reset()
	p.Put(b)
}
