// Package free holds buffers whose own method puts them back, in the
// shape of zap's buffer.Buffer.Free.
package free

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

type Buffer struct {
	bs   []byte
	pool *Pool
}

type Pool struct{ p *sync.Pool }

func (p *Pool) put(b *Buffer) { p.p.Put(b) }

func (p *Pool) Get() *Buffer {
	b := p.p.Get().(*Buffer)
	b.bs = b.bs[:0]
	b.pool = p
	return b
}

// Free returns the Buffer to its Pool.
func (b *Buffer) Free() { b.pool.put(b) }

// Bytes returns the buffer's contents, not a copy.
func (b *Buffer) Bytes() []byte { return b.bs }

// String returns a copy of the contents.
func (b *Buffer) String() string { return string(b.bs) }

// Len returns the length of the contents.
func (b *Buffer) Len() int { return len(b.bs) }

var pool = &Pool{p: &sync.Pool{New: func() any { return &Buffer{bs: make([]byte, 0, 1024)} }}}

// ---- flagged ----

func freeThenUse(s string) []byte {
	buf := pool.Get()
	buf.bs = append(buf.bs, s...)
	buf.Free()
	return buf.Bytes() // want `buf is used after it was put back into buf.pool on line 47`
}

func deferFree(s string) []byte {
	buf := pool.Get()
	defer buf.Free()
	buf.bs = append(buf.bs, s...)
	return buf.Bytes() // want `returns memory of buf, which the deferred Put on line 53 hands back to buf.pool`
}

func TestContents(t *testing.T) {
	buf := pool.Get()
	buf.Free()
	assert.Equal(t, 0, buf.Len()) // want `buf is used after it was put back`
}

// ---- quiet ----

func deferString(s string) string {
	buf := pool.Get()
	defer buf.Free()
	buf.bs = append(buf.bs, s...)
	return buf.String()
}

func copyBefore(s string) []byte {
	buf := pool.Get()
	buf.bs = append(buf.bs, s...)
	out := append([]byte(nil), buf.Bytes()...)
	buf.Free()
	return out
}

func TestNotNil(t *testing.T) {
	buf := pool.Get()
	buf.Free()
	assert.NotNil(t, buf)
}
