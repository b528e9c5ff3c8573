// Package addr holds Puts of the address of a slice header that is a
// parameter or a local copy: a new header escapes on every call.
package addr

import (
	"sync"

	"github.com/poolkit/poolkit/pool"
)

var bufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

var kit = pool.New(func() *[]byte { b := make([]byte, 0, 512); return &b })

var strs = sync.Pool{New: func() any { return new(string) }}

// ---- flagged ----

func release(b []byte) {
	b = b[:0]
	bufs.Put(&b) // want `bufs.Put\(&b\) allocates a new slice header on every call \(b is a parameter\)`
}

func releaseKit(b []byte) {
	kit.Put(&b) // want `kit.Put\(&b\) allocates a new slice header on every call \(b is a parameter\)`
}

func localCopy() {
	bp := bufs.Get().(*[]byte)
	b := *bp
	b = append(b[:0], 'x')
	bufs.Put(&b) // want `bufs.Put\(&b\) allocates a new slice header on every call \(b is a local copy\)`
}

func reslicedParam(in []byte) {
	b := in[:0]
	bufs.Put(&b) // want `b is a local copy`
}

func stringParam(s string) {
	strs.Put(&s) // want `strs.Put\(&s\) allocates a new string header on every call \(s is a parameter\)`
}

func decode(dst, src []byte) ([]byte, error) { return append(dst, src...), nil }

// A copy grown by a call that returns its argument's grown slice, put
// back in a deferred closure.
func grownInClosure(src []byte) ([]byte, error) {
	buffer := *bufs.Get().(*[]byte)
	defer func() {
		buffer = buffer[:0]
		bufs.Put(&buffer) // want `bufs.Put\(&buffer\) allocates a new slice header on every call \(buffer is a local copy\)`
	}()
	buffer, err := decode(buffer, src)
	return append([]byte(nil), buffer...), err
}

// ---- quiet ----

// A copy replaced by a call's result that does not come from it: it may
// be any slice, and the allocation may be the point.
func replacedByCall(src []byte) {
	b := *bufs.Get().(*[]byte)
	b, _ = decode(nil, src)
	bufs.Put(&b)
}

// The pointer the header came from goes back.
func putPointer() {
	bp := bufs.Get().(*[]byte)
	b := (*bp)[:0]
	b = append(b, 'x')
	*bp = b
	bufs.Put(bp)
}

// A fresh slice made to fill the pool: the allocation is the point.
func prefill(n int) {
	for range n {
		b := make([]byte, 0, 512)
		bufs.Put(&b)
	}
}

// A pointer parameter.
func releasePtr(bp *[]byte) {
	*bp = (*bp)[:0]
	bufs.Put(bp)
}

type holder struct{ b []byte }

// The address of a field: the holder is what allocates, once.
func field(h *holder) {
	bufs.Put(&h.b)
}
