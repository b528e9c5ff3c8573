// Package store holds pooled values stored where they outlive the Put
// that hands them back.
package store

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var cache = map[string]*bytes.Buffer{}

var last []byte

type conn struct {
	buf  *bytes.Buffer
	body []byte
}

// ---- flagged ----

// The map keeps the buffer after the Put.
func storeInMap(k string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	cache[k] = b // want `stores b in cache\[k\], which outlives the Put on line 28`
	bufPool.Put(b)
}

// A package variable keeps the buffer's bytes.
func storeBytes(s string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	last = b.Bytes() // want `stores memory of b in last, which outlives the Put on line 37`
	bufPool.Put(b)
}

// The receiver keeps the buffer.
func (c *conn) keep() {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	c.buf = b // want `stores b in c.buf`
	bufPool.Put(b)
}

// ---- quiet ----

// The field is dropped before the Put.
func (c *conn) dropped() {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	c.buf = b
	c.flush()
	c.buf = nil
	bufPool.Put(b)
}

// The map entry is deleted before the Put.
func deleted(k string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	cache[k] = b
	delete(cache, k)
	bufPool.Put(b)
}

// A copy is stored.
func (c *conn) copied(s string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	c.body = append([]byte(nil), b.Bytes()...)
	bufPool.Put(b)
}

// A local keeps it, and dies with the function.
func local() int {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	c := &conn{}
	c.buf = b
	n := c.buf.Len()
	bufPool.Put(b)
	return n
}

// The store and the Put are on different branches.
func (c *conn) branches(keep bool) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	if keep {
		c.buf = b
		return
	}
	bufPool.Put(b)
}

func (c *conn) flush() {}

var sinkConn *conn

// The value truncates its own field.
func (c *conn) truncate(b *bytes.Buffer) {
	b.Reset()
	bb := bufPool.Get().(*bytes.Buffer)
	bb.Reset()
	c.body = c.body[:0]
	bufPool.Put(bb)
}

type pooled struct{ B []byte }

var pooledPool = sync.Pool{New: func() any { return new(pooled) }}

// putPooled truncates the value's own slice before the Put.
func putPooled(p *pooled) {
	p.B = p.B[:0]
	pooledPool.Put(p)
}

var sinkBytes []byte

// A benchmark sink.
func sinkStore() {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	sinkBytes = b.Bytes()
	bufPool.Put(b)
}
