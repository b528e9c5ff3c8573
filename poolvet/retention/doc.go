// Package retention defines an Analyzer that reports buffers grown from
// input and put back into a sync.Pool with no size check.
//
// # Analyzer retention
//
// retention: report pooled buffers that grow from input and are kept whatever their size (opt-in)
//
// A pool keeps whatever it is given. A buffer that once read a 100 MB
// request body goes back into the pool at 100 MB and stays reachable until
// two garbage collections pass without anyone taking it, and each reuse of
// it for a 100-byte request still pins the 100 MB (go.dev/issue/23199,
// fmt's free, encoding/json's 64 KiB cap). The check reports a Put into a
// sync.Pool when, in the same package, a value taken from that pool grows
// from input (ReadFrom, io.Copy into it, Write/WriteString/append of the
// caller's data, a call returning it grown such as buf.data, err =
// Append(buf.data[:0], x) or dec.DecodeAll(src, buf[:0]), also through a
// copy written back (out, err := dec.DecodeAll(src, (*bp)[:0]); *bp =
// out) or taken out of the pool (buf := *pool.Get().(*[]byte); buf, err =
// dec.DecodeAll(src, buf); pool.Put(&buf)), a function of the package that grows the value it is given, by
// pointer, from its other arguments)
// and goes back with no capacity or length check either where it grows or
// where it is put, the Put in the same function or in a function of the
// package the value is handed to (finish(b) ending in bufs.Put(b)).
//
// Growth and Put may also be further apart. A Put of a pointer to a struct
// of the package is reported when a pointer method of that struct grows
// one of its byte buffer fields from the method's parameters (s.buf =
// append(s.buf, p...) in Write, d.buf, err = readN(d.r, d.buf, n)), that
// method does not check the field's size, and the function holding the
// Put neither checks the value's size nor lets go of the field (d.buf =
// nil, also in a method it calls; d.buf = d.buf[:0] keeps the memory). And
// a buffer from a pool stored in a struct field (r.buf =
// bufPool.Get().(*bytes.Buffer), or T{buf: acquire()}) that some function
// grows (r.buf.ReadFrom(src), io.Copy(r.buf, src), r.buf.Write of the
// caller's data) is reported at the Put it goes back through. Neither
// rule reports a field whose length or capacity the package compares
// anywhere, nor a type whose Len, Cap or Size it compares: the bound is
// then somewhere the check does not follow. The
// value may come from a Get wrapper, also one that returns a fresh &T{}
// when the pool is empty instead of using New.
//
// Bad:
//
//	func readAll(r io.Reader) string {
//		b := bufs.Get().(*bytes.Buffer)
//		b.Reset()
//		b.ReadFrom(r)
//		s := b.String()
//		bufs.Put(b) // keeps b at whatever size r had
//		return s
//	}
//
// Good:
//
//	func readAll(r io.Reader) string {
//		b := bufs.Get().(*bytes.Buffer)
//		b.Reset()
//		b.ReadFrom(r)
//		s := b.String()
//		if b.Cap() <= 64<<10 {
//			bufs.Put(b)
//		}
//		return s
//	}
//
// The caller's data is what the function's parameters hold, and what local
// variables assigned or ranged over from them hold (chunk, err :=
// r.ReadSlice(delim) for a parameter r, f in for _, f := range fields),
// but not a value made from the pooled buffer itself (out, err :=
// dec.DecodeAll(src, (*bp)[:0]) is the pooled memory).
//
// Growth bounded by construction is not growth from input, and is not
// reported: a call appending the form of one number, boolean or rune
// (strconv.AppendInt, AppendUint, AppendFloat, AppendBool, utf8.AppendRune,
// encoding/binary's AppendUvarint, AppendVarint and byte orders'
// AppendUint16/32/64) adds at most a few dozen bytes whatever the caller
// passes, so a buffer grown only that way, once per use or from an emptied
// slice (x[:0]) each time, stays that small. The same call repeated in a
// loop over the caller's data grows with that data and is reported, as is
// strconv.AppendQuote, which copies a caller's string.
//
// The check is opt-in (poolvet -all): whether input can be large is
// something only the program knows. poolkit's bytebuf.Pool and
// slicepool.Pool cap what they keep and are never reported.
package retention

import _ "embed"

//go:embed doc.go
var doc string
