package sqlinterp

import (
	"database/sql/driver"
	"unsafe"
)

// region is the address range [lo, hi) of dst[len(dst):cap(dst)], the bytes
// Append writes. An input there (an argument, or a query made from dst with
// unsafe) would be overwritten before it is read, so Append refuses it;
// memory before len(dst) is only read, so an argument may alias dst's
// contents.
//
// Telling needs unsafe, to compare addresses as crypto/internal/alias
// does. That is sound because dst and the inputs are live throughout, and
// Go's heap objects do not move (a goroutine's stack may, but only as a
// whole, and holds dst and an input on it alike).
type region struct{ lo, hi uintptr }

// spare returns the region of dst's spare capacity; it is empty when dst
// has none.
func spare(dst []byte) region {
	if cap(dst) == len(dst) {
		return region{}
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(dst))) + uintptr(len(dst))
	return region{lo, lo + uintptr(cap(dst)-len(dst))}
}

// holds reports whether the n bytes at p share memory with r.
func (r region) holds(p *byte, n int) bool {
	if n == 0 || r.lo == r.hi {
		return false
	}
	q := uintptr(unsafe.Pointer(p))
	return q < r.hi && r.lo < q+uintptr(n)
}

// overlapError reports that argument i shares memory with dst's spare
// capacity.
func overlapError(vals []driver.Value, typed []arg, i int) error {
	t := "[]byte"
	if typed != nil {
		if typed[i].kind == kindString {
			t = "string"
		}
	} else {
		t = typeName(vals[i])
	}
	return &ArgError{Index: i, Type: t, Err: ErrOverlap}
}
