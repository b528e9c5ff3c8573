package a

import (
	"bytes"
	"sync"
	"time"
	"unsafe"
	"wrap"

	"github.com/poolkit/poolkit/pool"
)

var bufs = sync.Pool{New: func() any { return make([]byte, 0, 512) }}

type point struct{ x, y int }

type handle struct{ p *point }

type server struct {
	strs  sync.Pool
	ptrs  sync.Pool
	typed *pool.Pool[[]byte]
}

// Flagged.

func flagged(s *server, b []byte, str string, n int64, pt point, arr [4]int, d time.Duration) {
	bufs.Put(b[:0]) // want `^bufs.Put of \[\]byte \(a slice\) allocates on every call$`
	s.strs.Put(str) // want `s.strs.Put of string \(a string\)`
	bufs.Put(n)     // want `bufs.Put of int64 \(a int64\)`
	bufs.Put(pt)    // want `bufs.Put of point \(a struct\)`
	bufs.Put(arr)   // want `bufs.Put of \[4\]int \(an array\)`
	bufs.Put(d)     // want `bufs.Put of time.Duration \(a int64\)`
	bufs.Put(*&b)   // want `bufs.Put of \[\]byte`
	local := &sync.Pool{}
	local.Put([]string{"x"}) // want `local.Put of \[\]string`
}

func putSlice[S ~[]E, E any](p *sync.Pool, s S) {
	p.Put(s) // want `p.Put of S \(type parameter S is a a slice\)`
}

func viaWrappers(s *server, b []byte, pt point) {
	wrap.Put(&s.ptrs, b)   // want `^&s.ptrs.Put \(through Put\) of \[\]byte \(a slice\) allocates`
	wrap.PutAny(&bufs, pt) // want `&bufs.Put \(through PutAny\) of point`
	putGeneric(s, b)       // want `s.Put \(through putGeneric\) of \[\]byte`
}

func putGeneric[T any](s *server, v T) { s.ptrs.Put(v) }

// Clean.

func clean(s *server, b []byte, bp *[]byte, m map[string]int, ch chan int, h handle, fn func()) {
	bufs.Put(bp)                 // a pointer
	bufs.Put(m)                  // a map
	bufs.Put(ch)                 // a channel
	bufs.Put(fn)                 // a function
	bufs.Put(h)                  // a struct of one pointer: direct interface
	bufs.Put([1]*int{})          // an array of one pointer
	bufs.Put(struct{}{})         // zero size
	bufs.Put(true)               // one byte
	bufs.Put(byte(7))            // one byte
	bufs.Put(42)                 // a constant: statically boxed
	bufs.Put("const")            // a constant
	bufs.Put(nil)                // nil
	bufs.Put(unsafe.Pointer(bp)) // unsafe.Pointer
	var v any = b
	bufs.Put(v)           // already an interface: the allocation happened earlier
	s.typed.Put(b)        // pool.Pool[T] boxes without allocating
	wrap.Put(&s.ptrs, bp) // generic wrapper with a pointer
	putBytes(b)           // reported inside putBytes, not here
	var bb bytes.Buffer
	bufs.Put(&bb)
}

func putBytes(b []byte) {
	bufs.Put(b) // want `bufs.Put of \[\]byte`
}

func putAnyT[T any](p *sync.Pool, v T) {
	p.Put(v) // T unconstrained: decided by the caller, not reported here
}

func putPtr[P ~*E, E any](p *sync.Pool, v P) {
	p.Put(v) // pointer type parameter
}
