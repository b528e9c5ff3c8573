// Package useafterput defines an Analyzer that reports pooled values used
// after they were put back into their pool.
//
// # Analyzer useafterput
//
// useafterput: report pooled values, and memory aliasing them, used after Put
//
// Once a value is Put, the pool may hand it to another goroutine at once:
// any later read or write through the old reference is a data race, and any
// slice taken from it (buf.Bytes(), *p for a pooled *[]T, a slice field)
// changes under its holder's feet. The analyzer reports, within one
// function:
//
//   - a use of the variable handed to Put (also as Put(m[:n])), or of a
//     local variable holding a slice or field of it, in the statements
//     that follow the Put; such a local may be made by an append-style
//     call given the pooled bytes (strconv.AppendInt(b.B[:0], ...),
//     AppendQuotedArg(bb.B, ...)), or be a string over them built without
//     a copy (unsafe.String(unsafe.SliceData(bb.B), n), b2s(bb.B),
//     *(*string)(unsafe.Pointer(&bb.B)));
//   - with a deferred Put, which runs after the return values are computed,
//     returning, sending or storing (in a package variable or through a
//     parameter) the pooled value itself or memory it owns, also through a
//     struct holding it (m.Body = b.Bytes(); return m) or a named result
//     returned by a bare return. Deferred calls run in reverse order: a
//     store is not reported when a defer of the function's own statement
//     list, registered after the deferred Put, assigns that place again or
//     deletes it from its map (defer func() { c.buf = nil }()), since the
//     place no longer holds the value when the Put runs; a defer inside a
//     branch or loop is registered only on some paths and does not count.
//     defer pool.Put(x) puts the value x held at the defer statement, so
//     once x is assigned after it the check stops; a Put that reads x
//     only when it runs (inside a deferred func literal, or Put(&x)) puts
//     x's last value, and returning that value is still reported;
//   - aliases handed to another goroutine before the Put: the value or its
//     memory sent on a channel, or used by a goroutine started (in its
//     arguments or its closure), unless something waits for that goroutine
//     (a receive, a select, a Wait call) between the hand-off and the Put;
//     with a deferred Put, unless such a wait follows anywhere;
//   - the value or its memory sent as the body of an HTTP request
//     (http.Client.Do, RoundTrip, Post, also through the request or a
//     bytes.Reader over the buffer) before a Put, deferred or not: net/http
//     documents that the transport may close the body, and so may still
//     be reading it, after Do returns, so the next user of the buffer can
//     overwrite a request still being sent. Copy the body out, or put the
//     buffer back only once the body is closed;
//   - the value or its memory stored where it outlives the Put (a package
//     variable, a map or field reached through a parameter or the
//     receiver: cache[k] = b; pool.Put(b)), unless that place is assigned
//     again or deleted from its map before the Put; package variables
//     named as benchmark sinks (sinkX) are left alone;
//   - a value that keeps the buffer, used after the Put: the result of a
//     constructor (New..., new...) or io wrapper given the buffer or its
//     bytes, such as http.NewRequest(method, url, buf) or
//     bytes.NewReader(buf.Bytes());
//   - a field used after it was put: after Put(&x.f) any use of x.f,
//     x.f = nil included, touches memory the pool owns; after Put(x.f), any
//     use but assigning x.f a new value.
//
// A method that puts its own receiver back (zap's buf.Free(), a Close
// that returns the value to its pool) is a Put of that receiver, and a
// method of the package that only returns a slice field of its receiver
// (func (b *Buffer) Bytes() []byte { return b.bs }) aliases it.
//
// Copies made before the Put are fine: buf.String(), string(b),
// bytes.Clone, append([]byte(nil), b...), and a *T dereference of a struct
// holding no slices or maps. Pools are recognised by poolcall: sync.Pool,
// poolkit's pool, slicepool and bytebuf, and functions wrapping them.
//
// Bad: the caller receives the pool's buffer, which the deferred Put
// recycles as the function returns.
//
//	func render(v int) []byte {
//		buf := bufPool.Get().(*bytes.Buffer)
//		defer bufPool.Put(buf)
//		buf.Reset()
//		fmt.Fprint(buf, v)
//		return buf.Bytes()
//	}
//
// Good: copy out while the buffer is still owned.
//
//	func render(v int) []byte {
//		buf := bufPool.Get().(*bytes.Buffer)
//		defer bufPool.Put(buf)
//		buf.Reset()
//		fmt.Fprint(buf, v)
//		return append([]byte(nil), buf.Bytes()...)
//	}
//
// Memory reached through a struct field, or a struct copied out with *p,
// is not reported when the package drops that field (x.f = nil, x.f = T{})
// or zeroes that type (*p = T{}) somewhere, or when the Put goes through a
// wrapper from another package: such code releases its references before
// the value goes back. The byte slice of a buffer type (a struct with a
// Reset method, such as bytebufferpool's ByteBuffer.B) is the exception:
// Reset truncates it and keeps its memory for the next user. Comparing addresses (got == b), len and cap, and
// t.Fatalf arguments and testify's Nil, NotNil, Same and NotSame after Put
// are not uses. Assigning the variable a new
// value ends the check, also in the init statement of an if, switch or for
// (if b = pool.Get(); ...); inside a branch or loop body it ends it there,
// and after the branch only if every way through it assigns the variable
// (the value may still be the one put back). Comparing the variable with
// the result of a later Get (again := get(); if again != s { t.Skip() })
// ends the check too: the code is testing that the pool handed it back.
// In a test function (TestXxx in a _test.go file) a value that is only
// read after the Put, its fields compared, measured with len or cap or
// passed to t.Errorf, is not reported: such a test checks what the
// release left behind (cap(e.buf) after putEncoder(e)), which it can only
// do by reading it. A write, a method call or a hand-off there still is.
//
// A Put inside an if, switch or select branch, or a block, is followed
// past it when the branch does not end in a return, break, continue, goto
// or panic: in "if short { p.Put(m[:n]) }; use(m)" m is used after the
// Put. Past the branch only uses outside later branches and loop bodies
// count, since a later branch may be guarded by a condition the Put's
// branch rules out. A Put in a loop body is not followed past the loop.
//
// Suggested fixes copy the slice out with append([]byte(nil), ...) (for
// slices of a basic type): at the return for a deferred Put, at the
// assignment of the aliasing variable otherwise. Uses across loop
// iterations and in closures are not followed.
package useafterput

import _ "embed"

//go:embed doc.go
var doc string
