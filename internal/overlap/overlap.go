// Package overlap tells whether appending to a slice would overwrite an
// input, so that append-style functions can stay correct in place.
package overlap

import "unsafe"

// Spare reports whether the spare capacity of dst, which appending to dst
// overwrites, shares memory with src. Bytes of src within dst[:len(dst)]
// do not count: an append never writes them.
//
// Go has no safe way to compare the addresses of two slices: this uses
// unsafe only to read them as integers, and depends only on a slice's
// elements being contiguous from unsafe.SliceData. Heap objects do not
// move, and a goroutine's stack moves only as a whole at a call, so both
// addresses, read between two calls, are read in the same place.
func Spare(dst, src []byte) bool {
	spare := cap(dst) - len(dst)
	if spare == 0 || len(src) == 0 {
		return false
	}
	d := uintptr(unsafe.Pointer(unsafe.SliceData(dst))) + uintptr(len(dst))
	s := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return d < s+uintptr(len(src)) && s < d+uintptr(spare)
}
