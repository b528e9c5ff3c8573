// Package deferorder holds stores of a pooled value undone, or not, by
// defers that run before the deferred Put.
package deferorder

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type conn struct {
	out     *bytes.Buffer
	scratch []byte
	byKey   map[string]*bytes.Buffer
}

func (c *conn) write() { c.out.WriteString("x") }

// undone: deferred calls run in reverse order, so the later defer clears
// c.out before the Put runs.
func (c *conn) undone() {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer bufPool.Put(b)
	c.out = b
	defer func() { c.out = nil }()
	c.write()
}

// undoneFirst: the undoing defer is registered before the store, but
// still after the Put's defer, so it still runs first.
func (c *conn) undoneFirst(k string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer bufPool.Put(b)
	defer delete(c.byKey, k)
	c.byKey[k] = b
	c.byKey[k].WriteString(k)
}

// tooLate: a defer registered before the deferred Put runs after it;
// the next user of b shares c.out until then.
func (c *conn) tooLate() {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer func() { c.out = nil }()
	defer bufPool.Put(b)
	c.out = b // want `stores b, which the deferred Put on line 48 hands back to bufPool`
	c.write()
}

// otherPlace: the later defer clears another field.
func (c *conn) otherPlace() {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer bufPool.Put(b)
	c.out = b // want `stores b, which the deferred Put on line 57 hands back to bufPool`
	defer func() { c.scratch = nil }()
	c.write()
}

// maybeUndone: a defer inside a branch is registered only on that
// branch; on the other path c.out still holds b at the Put.
func (c *conn) maybeUndone(clear bool) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer bufPool.Put(b)
	c.out = b // want `stores b, which the deferred Put on line 68 hands back to bufPool`
	if clear {
		defer func() { c.out = nil }()
	}
	c.write()
}

var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}

// untilDelim returns part of the pooled buffer, which the deferred
// closure puts back with whatever the variable holds when it runs.
func untilDelim(chunks [][]byte, delim byte) []byte {
	buf := *scratch.Get().(*[]byte)
	defer func() {
		scratch.Put(&buf)
	}()
	buf = buf[:0]
	for _, c := range chunks {
		buf = append(buf, c...)
		if i := bytes.IndexByte(buf, delim); i >= 0 {
			return buf[:i] // want `returns memory of buf, which the deferred Put on line 83 hands back to scratch`
		}
	}
	return nil
}

// byAddress: defer Put(&buf) sees the variable's last value too.
func byAddress(p []byte) []byte {
	buf := *scratch.Get().(*[]byte)
	defer scratch.Put(&buf)
	buf = append(buf[:0], p...)
	return buf // want `returns buf, which the deferred Put on line 98 hands back to scratch`
}

// byValue: defer Put(b) put the value b had at the defer; b is another
// slice by the time it is returned.
func byValue(p []byte) *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	b.Write(p)
	b = new(bytes.Buffer)
	return b
}
