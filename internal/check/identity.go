package check

import (
	"reflect"
	"unsafe"
)

// Identity returns a number that tells apart the pooled values of type T
// that share no memory, so that a second Put of the same value can be
// recognised, or 0 when v has none:
//   - a pointer, map, channel or unsafe.Pointer is its own identity,
//     except a pointer to a zero-size type (all such may be equal);
//   - a slice with capacity is identified by its backing array;
//   - a struct by its first slice field with capacity.
//
// Functions, numbers, strings and interfaces have none: two equal ones may
// well be two values of two owners.
func Identity[T any](v *T) uintptr {
	return identity(unsafe.Pointer(v), reflect.TypeFor[T](), true)
}

func identity(p unsafe.Pointer, t reflect.Type, top bool) uintptr {
	switch t.Kind() {
	case reflect.Pointer:
		if t.Elem().Size() == 0 || !top {
			return 0
		}
		return *(*uintptr)(p)
	case reflect.Map, reflect.Chan, reflect.UnsafePointer:
		if !top {
			return 0
		}
		return *(*uintptr)(p)
	case reflect.Slice:
		type header struct {
			data     uintptr
			len, cap int
		}
		h := (*header)(p)
		if h.cap == 0 || t.Elem().Size() == 0 {
			return 0
		}
		return h.data
	case reflect.Struct:
		if !top {
			return 0
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if id := identity(unsafe.Add(p, f.Offset), f.Type, false); id != 0 {
				return id
			}
		}
	}
	return 0
}
