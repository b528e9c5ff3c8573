package jsonpool

import (
	"unsafe"
)

// encEface is the layout of an interface{} value.
type encEface struct {
	typ, data unsafe.Pointer
}

// encSlice is the layout of a slice.
type encSlice struct {
	data     unsafe.Pointer
	len, cap int
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}
