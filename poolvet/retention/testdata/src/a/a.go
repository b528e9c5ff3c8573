package a

import (
	"bytes"
	"io"
	"sync"
)

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var raw = sync.Pool{New: func() any { return new([]byte) }}

type state struct{ buf []byte }

var states = sync.Pool{New: func() any { return new(state) }}

var copies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var writes = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var viaWrap = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var local = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Flagged.

func readAll(r io.Reader) string {
	b := bufs.Get().(*bytes.Buffer)
	b.Reset()
	b.ReadFrom(r)
	s := b.String()
	bufs.Put(b) // want `^bufs.Put keeps b whatever its size \(got on line 28, grown from input on line 30 by b.ReadFrom\)$`
	return s
}

func appendRaw(data []byte) int {
	bp := raw.Get().(*[]byte)
	*bp = append((*bp)[:0], data...)
	n := len(*bp)
	raw.Put(bp) // want `raw.Put keeps bp .* by append of caller data\)`
	return n
}

type request struct{ Header map[string]string }

func fill(r *request) {
	s := states.Get().(*state)
	s.buf = append(s.buf[:0], r.Header["X"]...)
	states.Put(s) // want `states.Put keeps s .* by append of caller data\)`
}

func copyIn(w io.Writer, r io.Reader) {
	b := copies.Get().(*bytes.Buffer)
	defer copies.Put(b) // want `copies.Put keeps b .* by io.Copy\)`
	b.Reset()
	io.Copy(b, r)
	b.WriteTo(w)
}

func echo(p []byte) string {
	b := writes.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(p)
	s := b.String()
	writes.Put(b) // want `writes.Put keeps b .* by b.Write of caller data\)`
	return s
}

func putWrap(b *bytes.Buffer) {
	b.Reset()
	viaWrap.Put(b) // want `viaWrap.Put keeps b whatever its size \(got on line 75, grown from input on line 76 by b.WriteString of caller data\)`
}

func useWrap(s string) int {
	b := viaWrap.Get().(*bytes.Buffer)
	b.WriteString(s)
	n := b.Len()
	putWrap(b)
	return n
}

func closure(r io.Reader) func() {
	return func() {
		b := local.Get().(*bytes.Buffer)
		b.ReadFrom(r)
		local.Put(b) // want `local.Put keeps b`
	}
}

var strs = sync.Pool{New: func() any { return new([]byte) }}

func appendStr(s string) {
	bp := strs.Get().(*[]byte)
	*bp = append(*bp, s...)
	strs.Put(bp) // want `strs.Put keeps bp`
}

// Clean.

var guardedPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func guardAtPut(r io.Reader) {
	b := guardedPool.Get().(*bytes.Buffer)
	b.ReadFrom(r)
	if b.Cap() <= 64<<10 {
		guardedPool.Put(b)
	}
}

var guardedWrap = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putGuarded(b *bytes.Buffer) {
	if b.Cap() > 1<<16 {
		return
	}
	b.Reset()
	guardedWrap.Put(b)
}

func useGuardedWrap(r io.Reader) {
	b := guardedWrap.Get().(*bytes.Buffer)
	b.ReadFrom(r)
	putGuarded(b)
}

var lenGuard = sync.Pool{New: func() any { return new([]byte) }}

func lenGuarded(p []byte) {
	bp := lenGuard.Get().(*[]byte)
	*bp = append((*bp)[:0], p...)
	if len(*bp) > 4096 {
		return
	}
	lenGuard.Put(bp)
}

var fixed = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func constantWrites() string {
	b := fixed.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("hello") // not caller data
	s := b.String()
	fixed.Put(b)
	return s
}

var notPut = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func neverPut(r io.Reader) *bytes.Buffer {
	b := notPut.Get().(*bytes.Buffer)
	b.ReadFrom(r)
	return b // handed to the caller, not put here
}

func putElsewhere(b *bytes.Buffer) { notPut.Put(b) } // no growth reaches this Put

var fieldGuard = sync.Pool{New: func() any { return new(state) }}

func fieldGuarded(p []byte) {
	s := fieldGuard.Get().(*state)
	s.buf = append(s.buf[:0], p...)
	if cap(s.buf) > 1<<20 {
		s.buf = nil
	}
	fieldGuard.Put(s)
}

var other = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func otherPool(r io.Reader) {
	b := new(bytes.Buffer) // not from a pool
	b.ReadFrom(r)
	other.Put(b)
}

func unrelatedPut() {
	other.Put(new(bytes.Buffer))
}

type compressor struct {
	dict []byte
	n    int
}

func (c *compressor) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

var compressors = sync.Pool{New: func() any { return new(compressor) }}

func compress(p []byte) int {
	c := compressors.Get().(*compressor)
	c.Write(p) // passes data through: does not grow
	n := c.n
	compressors.Put(c)
	return n
}

type growBuf struct{ b []byte }

func (g *growBuf) Write(p []byte) (int, error) { g.b = append(g.b, p...); return len(p), nil }

var growBufs = sync.Pool{New: func() any { return new(growBuf) }}

func grow(p []byte) {
	g := growBufs.Get().(*growBuf)
	g.Write(p)
	growBufs.Put(g) // want `growBufs.Put keeps g .* by g.Write of caller data\)`
}
