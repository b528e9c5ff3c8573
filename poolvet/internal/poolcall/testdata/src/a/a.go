package a

import (
	"bytes"
	"helper"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }} // want `new bufPool: \*bytes.Buffer`

type server struct {
	pool   sync.Pool
	slices slicepool.Pool[int]
}

func newServer() *server {
	return &server{pool: sync.Pool{New: newInts}} // want `new pool: \*\[\]int`
}

func newInts() any {
	s := make([]int, 0, 8)
	return &s
}

func direct(s *server) {
	b := bufPool.Get().(*bytes.Buffer) // want `get from bufPool \(bufPool\)`
	bufPool.Put(b)                     // want `put to bufPool \(bufPool\) value b`
	p := s.pool.Get()                  // want `get from pool \(s.pool\)`
	s.pool.Put(p)                      // want `put to pool \(s.pool\) value p`
	x := s.slices.Get(4)               // want `get from slices \(s.slices\) kind 3`
	s.slices.Put(x)                    // want `put to slices \(s.slices\) kind 3 value x`
	bb := bytebuf.Get()                // want `get from <nil> \(bytebuf's default pool\) kind 4`
	bytebuf.Put(bb)                    // want `put to <nil> \(bytebuf's default pool\) kind 4 value bb`
}

var kp = pool.New(func() *bytes.Buffer { return new(bytes.Buffer) })

func kit() {
	b := kp.Get() // want `get from kp \(kp\) kind 2`
	kp.Put(b)     // want `put to kp \(kp\) kind 2 value b`
}

// Wrappers in this package.

func getBuf() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer) // want `get from bufPool`
	b.Reset()
	return b
}

func putBuf(b *bytes.Buffer) {
	if b.Cap() > 64<<10 {
		return
	}
	bufPool.Put(b) // want `put to bufPool`
}

type typed[T any] struct{ p sync.Pool }

func (t *typed[T]) put(v T) { t.p.Put(v) } // want `put to p \(t.p\) value v`

func (t *typed[T]) get() T { return t.p.Get().(T) } // want `get from p \(t.p\)`

// putTwice is not a wrapper: two Puts.
func putTwice(a, b *bytes.Buffer) {
	bufPool.Put(a) // want `put to bufPool`
	bufPool.Put(b) // want `put to bufPool`
}

// notFwd is not a wrapper: it returns something else.
func notFwd() int {
	b := bufPool.Get().(*bytes.Buffer) // want `get from bufPool`
	return b.Len()
}

func viaWrappers(s *server, tp *typed[[]byte], h *holder) {
	putField(h, nil)             // want `put to pool \(h.pool\) value nil via putField`
	b := getBuf()                // want `get from bufPool \(bufPool\) via getBuf`
	putBuf(b)                    // want `put to bufPool \(bufPool\) value b via putBuf`
	helper.Put(&s.pool, []int{}) // want `put to pool \(&s.pool\) value \[\]int{} via Put`
	x := helper.GetShared()      // want `get from Shared \(helper.Shared\) via GetShared`
	helper.PutShared(x)          // want `put to Shared \(helper.Shared\) value x via PutShared`
	tp.put(tp.get())             // want `put to p \(tp.p\) value tp.get\(\) via put` `get from p \(tp.p\) via get`
	putTwice(b, b)
	notFwd()
}

func locals() {
	p := &sync.Pool{New: func() any { return new(int) }} // want `new p: \*int`
	var q sync.Pool
	q.New = func() any { return "x" } // want `new q: string`
	r := other()
	r.New = func() any { return new(int) } // want `new r: \*int unknown`
	_, _ = p.Get(), q.Get()                // want `get from p` `get from q`
}

func other() *sync.Pool { return new(sync.Pool) }

type holder struct{ pool sync.Pool }

func putField(h *holder, v any) { h.pool.Put(v) } // want `put to pool \(h.pool\) value v`

var arrays = sync.Pool{New: func() any { return new([64]byte) }} // want `new arrays: \*\[64\]byte`

func putArray(b []byte) { arrays.Put((*[64]byte)(b)) } // want `put to arrays \(arrays\) value \(\*\[64\]byte\)\(b\)`

func useArray(b []byte) {
	putArray(b) // want `put to arrays \(arrays\) value b via putArray converted`
}

// acquire falls back to a fresh buffer when the pool is empty, instead of
// New: still a Get wrapper.
func acquire() *bytes.Buffer {
	v := bufPool.Get() // want `get from bufPool`
	if v == nil {
		return &bytes.Buffer{}
	}
	return v.(*bytes.Buffer)
}

// acquireNew, with new(T).
func acquireNew() *bytes.Buffer {
	if v, ok := bufPool.Get().(*bytes.Buffer); ok { // want `get from bufPool`
		return v
	}
	return new(bytes.Buffer)
}

// fresh returns a fresh buffer on every path: not a Get wrapper.
func fresh(v any) *bytes.Buffer {
	if v == nil {
		return &bytes.Buffer{}
	}
	return new(bytes.Buffer)
}

// mixed returns another buffer on one path: not a Get wrapper.
func mixed(other *bytes.Buffer) *bytes.Buffer {
	v := bufPool.Get() // want `get from bufPool`
	if v == nil {
		return other
	}
	return v.(*bytes.Buffer)
}

func viaFallback() {
	b := acquire()    // want `get from bufPool \(bufPool\) via acquire`
	c := acquireNew() // want `get from bufPool \(bufPool\) via acquireNew`
	_ = fresh(nil)
	_ = mixed(b)
	putBuf(b) // want `put to bufPool \(bufPool\) value b via putBuf`
	putBuf(c) // want `put to bufPool \(bufPool\) value c via putBuf`
}

type freeBuf struct{ b []byte }

var freeBufs = sync.Pool{New: func() any { return new(freeBuf) }} // want `new freeBufs: \*freeBuf`

// free puts its receiver back: a Put wrapper whose value is the receiver.
func (f *freeBuf) free() { freeBufs.Put(f) } // want `put to freeBufs \(freeBufs\) value f`

func viaFree() {
	f := freeBufs.Get().(*freeBuf) // want `get from freeBufs`
	f.free()                       // want `put to freeBufs \(freeBufs\) value f via free`
}

// process puts back a value of its own when it is given none: not a Put
// wrapper of its parameter.
func process(f *freeBuf) int {
	if f == nil {
		f = decodeFree()
		defer f.free() // want `put to freeBufs \(freeBufs\) value f via free`
	}
	return len(f.b)
}

func decodeFree() *freeBuf { return &freeBuf{} }

func viaProcess(f *freeBuf) {
	process(f) // not a Put
	f.free()   // want `put to freeBufs \(freeBufs\) value f via free`
}
