package sqlinterp

import (
	"database/sql/driver"
	"encoding/json"
	"unsafe"
)

// checkOverlap returns an error when the query or an argument's bytes share
// memory with dst[len(dst):cap(dst)], which Append overwrites as it writes:
// the value would be read after it had been overwritten. Memory before
// len(dst) is only read, so an argument may alias dst's contents.
func checkOverlap(dst []byte, query string, vals []driver.Value, typed []arg) error {
	if cap(dst) == len(dst) {
		return nil
	}
	if overlaps(dst, unsafe.StringData(query), len(query)) {
		return &QueryError{Offset: 0, Reason: "the query shares memory with dst beyond its length, which Append overwrites; pass a copy or another dst"}
	}
	for i, v := range vals {
		var p *byte
		var n int
		switch v := v.(type) {
		case string:
			p, n = unsafe.StringData(v), len(v)
		case []byte:
			p, n = unsafe.SliceData(v), len(v)
		case json.RawMessage:
			p, n = unsafe.SliceData(v), len(v)
		}
		if overlaps(dst, p, n) {
			return &ArgError{Index: i, Type: typeName(v), Err: ErrOverlap}
		}
	}
	for i := range typed {
		a := &typed[i]
		if overlaps(dst, unsafe.StringData(a.s), len(a.s)) {
			return &ArgError{Index: i, Type: "string", Err: ErrOverlap}
		}
		if overlaps(dst, unsafe.SliceData(a.b), len(a.b)) {
			return &ArgError{Index: i, Type: "[]byte", Err: ErrOverlap}
		}
	}
	return nil
}

// overlaps reports whether the n bytes at p share memory with
// dst[len(dst):cap(dst)]. It compares addresses, as crypto/internal/alias
// does: this needs unsafe, and is sound because both are live here and Go's
// heap objects do not move (a goroutine's stack may, but only as a whole,
// never during this leaf function).
func overlaps(dst []byte, p *byte, n int) bool {
	free := cap(dst) - len(dst)
	if n == 0 || free == 0 {
		return false
	}
	d := uintptr(unsafe.Pointer(unsafe.SliceData(dst))) + uintptr(len(dst))
	q := uintptr(unsafe.Pointer(p))
	return q < d+uintptr(free) && d < q+uintptr(n)
}
