package check

import (
	"encoding/binary"
	"hash/maphash"
	"reflect"
	"unsafe"
)

// sumBudget bounds the bytes Sum reads for one value, so that checking a
// pool of huge values stays affordable; memory beyond it is not checked.
const sumBudget = 1 << 20

// sumDepth is how many pointers Sum follows from the value: a pointer to a
// struct holding a slice is followed to the slice's backing array.
const sumDepth = 3

var seed = maphash.MakeSeed()

// Sum returns a checksum of the memory a value of type T owns: for a
// pointer, the memory it points to; for a slice, its backing array up to
// its capacity; for a struct or an array, what its fields own; and the
// backing arrays of the slices in all of these, up to sumDepth deep,
// reading at most sumBudget bytes. Pointers below the top are not
// followed: a pooled struct may well point at memory it shares and that
// legitimately changes while the value sits in the pool (a time.Time's
// Location, which the time package fills in lazily; an *http.Client's
// connection pool). A map or a channel contributes its length, an
// interface, a string or a function nothing.
//
// It reads memory the caller put and may still, by mistake, write: that is
// what it is for.
func Sum[T any](v *T) uint64 {
	sum, _ := SumSize(v)
	return sum
}

// SumSize is Sum, also returning how many bytes it read: an estimate of
// the memory a pool keeps alive by holding the value.
func SumSize[T any](v *T) (sum uint64, size int) {
	s := summer{budget: sumBudget}
	s.h.SetSeed(seed)
	s.fields(unsafe.Pointer(v), reflect.TypeFor[T](), sumDepth, true)
	return s.h.Sum64(), sumBudget - min(s.budget, sumBudget)
}

type summer struct {
	h      maphash.Hash
	budget int
}

// mem hashes the size bytes at p, then what the values of type t stored
// there reach.
func (s *summer) mem(p unsafe.Pointer, t reflect.Type, n int, depth int) {
	size := int(t.Size()) * n
	if p == nil || size == 0 || s.budget <= 0 {
		return
	}
	s.h.Write(unsafe.Slice((*byte)(p), min(size, s.budget)))
	s.budget -= size
	if depth == 0 || !hasPointers(t) {
		return
	}
	for i := 0; i < n && s.budget > 0; i++ {
		s.fields(unsafe.Add(p, i*int(t.Size())), t, depth, false)
	}
}

// fields hashes what the value of type t at p owns, not its own bytes.
// top says whether it is the pooled value itself, whose pointer is
// followed.
func (s *summer) fields(p unsafe.Pointer, t reflect.Type, depth int, top bool) {
	switch t.Kind() {
	case reflect.Pointer:
		if q := *(*unsafe.Pointer)(p); q != nil && top {
			s.mem(q, t.Elem(), 1, depth-1)
		}
	case reflect.Slice:
		type header struct {
			data     unsafe.Pointer
			len, cap int
		}
		h := (*header)(p)
		s.mem(h.data, t.Elem(), h.cap, depth-1)
	case reflect.Map, reflect.Chan:
		v := reflect.NewAt(t, p).Elem()
		if !v.IsNil() {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(v.Len()))
			s.h.Write(n[:])
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			s.fields(unsafe.Add(p, f.Offset), f.Type, depth, top)
		}
	case reflect.Array:
		if t.Len() > 0 && hasPointers(t.Elem()) {
			for i := range t.Len() {
				s.fields(unsafe.Add(p, i*int(t.Elem().Size())), t.Elem(), depth, top)
			}
		}
	}
}

// hasPointers reports whether values of t hold pointers Sum can follow.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// HasPointers reports whether the garbage collector must scan values of
// type t: such values cannot live in a Block.
func HasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && HasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if HasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	default:
		return true
	}
}
