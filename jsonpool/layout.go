//go:build !poolkit_nounsafe

package jsonpool

import (
	"unsafe"
)

// eface is the layout of an interface{} value.
type eface struct {
	typ, data unsafe.Pointer
}

// sliceHeader is the layout of a slice: the fast paths read and write
// slices through it, and Clear sets their length.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}
