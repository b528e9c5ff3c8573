// Package alias holds pooled memory used after Put through a reslice, an
// unsafe string or an append-style call.
package alias

import (
	"bbpool"
	"strconv"
	"sync"
	"unsafe"
)

var mp = sync.Pool{New: func() any { return make([]int, 0, 64) }}

var bp = sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}

type buf struct{ B []byte }

var lp = sync.Pool{New: func() any { return new(buf) }}

func b2s(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// AppendQuotedArg appends a quoted argument to dst.
func AppendQuotedArg(dst []byte, s string) []byte {
	return strconv.AppendQuote(dst, s)
}

// ---- flagged ----

// The Put hands back a reslice of m; m is still the same memory.
func reslicePut(n int) int {
	m := mp.Get().([]int)
	m = append(m[:0], 1, 2, 3)
	mp.Put(m[:n]) //lint:ignore SA6002 the shape under test
	return m[0]   // want `m is used after it was put back`
}

// An unsafe string over the pooled bytes, the Put through another
// package's wrapper.
func unsafeString(x string) string {
	bb := bbpool.Get()
	bb.B = append(bb.B, x...)
	s := unsafe.String(unsafe.SliceData(bb.B), len(bb.B))
	bbpool.Put(bb)
	return s // want `s aliases bb`
}

// The same through a conversion helper.
func unsafeHelper(x string) string {
	bb := bbpool.Get()
	bb.B = append(bb.B, x...)
	s := b2s(bb.B)
	bbpool.Put(bb)
	return s // want `s aliases bb`
}

// An append-style call returns the pooled buffer, grown.
func appendCall(x string) []byte {
	bb := bbpool.Get()
	dst := AppendQuotedArg(bb.B[:0], x)
	bbpool.Put(bb)
	return dst // want `dst aliases bb`
}

// strconv.Append* too, with a local pool.
func strconvAppend(n int) []byte {
	b := lp.Get().(*buf)
	out := strconv.AppendInt(b.B[:0], int64(n), 10)
	lp.Put(b)
	return out // want `out aliases b`
}

// ---- quiet ----

// A copy made before the Put.
func copied(x string) string {
	bb := bbpool.Get()
	bb.B = append(bb.B, x...)
	s := string(bb.B)
	bbpool.Put(bb)
	return s
}

// The reslice is reassigned before use.
func resliceReassigned(n int) int {
	m := mp.Get().([]int)
	mp.Put(m[:0]) //lint:ignore SA6002 the shape under test
	m = make([]int, n)
	return len(m) + m[0]
}

// A header read (len) after the reslice Put.
func resliceLen(n int) int {
	m := mp.Get().([]int)
	mp.Put(m[:n]) //lint:ignore SA6002 the shape under test
	return len(m)
}

// An append into a fresh slice does not alias the pool.
func appendFresh(n int) []byte {
	b := lp.Get().(*buf)
	out := strconv.AppendInt(nil, int64(n), 10)
	lp.Put(b)
	return out
}

// A pointer Put, then the slice it points to is replaced.
func ptrPut() []byte {
	p := bp.Get().(*[]byte)
	b := (*p)[:0]
	b = append(b, 'x')
	out := append([]byte(nil), b...)
	*p = b
	bp.Put(p)
	return out
}
