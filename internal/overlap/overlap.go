// Package overlap tells whether appending to a slice would overwrite an
// input, so that append-style functions can stay correct in place.
//
// Go has no safe way to compare the addresses of two slices: this package
// uses unsafe only to read them as integers, and depends only on a slice's
// or string's bytes being contiguous from unsafe.SliceData or
// unsafe.StringData. Heap objects do not move; a goroutine's stack, which
// may hold dst's array or an input, moves only as a whole, at a function
// call, and the pointers on it move with it. So every comparison reads
// both addresses as integers in one expression, with no call between, and
// a Region keeps a pointer, not an integer, for use across calls.
package overlap

import "unsafe"

// Region is a slice's spare capacity, dst[len(dst):cap(dst)], the bytes
// that appending to dst overwrites. Bytes within dst[:len(dst)] are not in
// it: an append never writes them.
type Region struct {
	p unsafe.Pointer // &dst[len(dst)] when n > 0
	n int
}

// SpareRegion returns the Region of dst's spare capacity, for checking
// several inputs against it; it is empty when dst has none.
func SpareRegion(dst []byte) Region {
	n := cap(dst) - len(dst)
	if n == 0 {
		return Region{}
	}
	return Region{unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), len(dst)), n}
}

// Holds reports whether any of the n bytes from p lies in r.
func (r Region) Holds(p *byte, n int) bool {
	if n <= 0 || r.n == 0 {
		return false
	}
	lo, q := uintptr(r.p), uintptr(unsafe.Pointer(p))
	return q < lo+uintptr(r.n) && lo < q+uintptr(n)
}

// Spare reports whether the spare capacity of dst, which appending to dst
// overwrites, shares memory with src.
func Spare(dst, src []byte) bool {
	return SpareRegion(dst).Holds(unsafe.SliceData(src), len(src))
}

// SpareString reports whether the spare capacity of dst shares memory
// with s (a string made from a []byte with package unsafe can).
func SpareString(dst []byte, s string) bool {
	return SpareRegion(dst).Holds(unsafe.StringData(s), len(s))
}
