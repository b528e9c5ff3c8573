// Package overlap tells whether appending to a slice would overwrite an
// input, so that append-style functions can stay correct in place.
//
// Go has no safe way to compare the addresses of two slices: this package
// uses unsafe only to read them as integers, and depends only on a slice's
// or string's bytes being contiguous from unsafe.SliceData or
// unsafe.StringData. Heap objects do not move, and a goroutine's stack
// moves only as a whole at a call, so addresses read between two calls
// are read in the same place; a Region is used while dst and the inputs
// it is compared with stay live, and so stay together.
package overlap

import "unsafe"

// Region is the address range of a slice's spare capacity,
// dst[len(dst):cap(dst)], the bytes that appending to dst overwrites. Bytes
// within dst[:len(dst)] are not in it: an append never writes them.
type Region struct{ lo, hi uintptr }

// SpareRegion returns the Region of dst's spare capacity, for checking
// several inputs against it; it is empty when dst has none.
func SpareRegion(dst []byte) Region {
	if cap(dst) == len(dst) {
		return Region{}
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(dst))) + uintptr(len(dst))
	return Region{lo, lo + uintptr(cap(dst)-len(dst))}
}

// Holds reports whether any of the n bytes from p lies in r.
func (r Region) Holds(p *byte, n int) bool {
	if n <= 0 || r.lo == r.hi {
		return false
	}
	q := uintptr(unsafe.Pointer(p))
	return q < r.hi && r.lo < q+uintptr(n)
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
