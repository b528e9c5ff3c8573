// Package nonptrput defines an Analyzer that reports values put into a
// sync.Pool that allocate when converted to any.
//
// # Analyzer nonptrput
//
// nonptrput: report sync.Pool.Put of values that allocate on every call
//
// sync.Pool holds values of type any. Converting a slice, string, struct,
// array or multi-byte number to any copies it to the heap, so a Put of such
// a value allocates on every call: the allocation the pool was meant to
// save comes back, plus a pointer-sized box per round trip. Pool a pointer
// instead.
//
// Bad:
//
//	var bufs = sync.Pool{New: func() any { return make([]byte, 0, 512) }}
//
//	b := bufs.Get().([]byte)
//	...
//	bufs.Put(b[:0]) // allocates a slice header on the heap
//
// Good:
//
//	var bufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}
//
//	bp := bufs.Get().(*[]byte)
//	...
//	*bp = (*bp)[:0]
//	bufs.Put(bp)
//
// The check sees through wrappers, generic or not: given
//
//	func put[T any](p *sync.Pool, v T) { p.Put(v) }
//
// the call put(&pool, buf) with buf a []byte is reported at the call,
// where the type is known (staticcheck's SA6002 sees only direct calls).
// Values that convert to any without allocating are not reported:
// pointers, maps, channels, functions, structs and arrays made of exactly
// one of those, zero-size values, one-byte values and constants.
// poolkit's pool.Pool[T] boxes non-pointer values without allocating, so
// its Put is never reported for that.
//
// A Put through an interface shaped like sync.Pool (Get() any and
// Put(any), such as a library's BufferPool option, which *sync.Pool
// satisfies) boxes its argument at the call whatever implements the
// interface, and is reported the same way: c.writePool.Put(poolData{buf:
// c.buf}) allocates the struct on every call.
//
// The same allocation hides in Put(&s) when s is a slice or string that is
// a parameter or a local copy of a header (s := *bp, s := (*bp)[:n]), also
// when calls given s replace it with its grown memory (s = append(s, x),
// s, err = Decode(s, src)): &s moves s to the heap, a new header on every call, for sync.Pool and
// pool.Pool alike. Put back the pointer the header came from (*bp = s;
// Put(bp)). A fresh slice made to fill the pool (b := make(...);
// Put(&b)) is not reported: that allocation is the point.
package nonptrput

import _ "embed"

//go:embed doc.go
var doc string
