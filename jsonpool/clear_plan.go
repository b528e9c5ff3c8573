//go:build !poolkit_nounsafe

package jsonpool

import (
	"reflect"
	"unsafe"
)

// clearValue clears *v as Clear documents, by the plan of T.
func clearValue[T any](v *T) {
	// Not reflect.TypeFor[T](), which on Go 1.24 boxes a zero T: an
	// allocation per call for a T larger than a pointer.
	clearAt(clearPlanOf(reflect.TypeOf((*T)(nil)).Elem()), unsafe.Pointer(v))
}

// clearPlan is how Clear clears a value of one type.
type clearPlan struct {
	typ  reflect.Type
	kind uint8
	// keep reports whether the type holds a slice or map, directly or in
	// its fields or array elements, whose capacity Clear keeps. A type
	// without one is simply zeroed.
	keep   bool
	zero   []zeroOp     // clearZero: the whole value; clearStruct: the fields without keep
	fields []clearField // clearStruct: the fields that keep something
	elem   *clearPlan   // clearArray, clearSlice: the element type's plan
	n      int          // clearArray: the length
	size   uintptr      // clearArray, clearSlice: the element size
	// noPtrs reports, for clearSlice, that the element type holds no
	// pointers, so that its backing array may be zeroed as bytes.
	noPtrs bool
}

type clearField struct {
	off  uintptr
	plan *clearPlan
}

const (
	clearZero   uint8 = iota // zero the whole value
	clearStruct              // zero the fields without keep, clear the others
	clearArray               // clear each element
	clearSlice               // clear elements up to cap, set len 0
	clearMap                 // clear
)

// zeroOp zeroes part of a value that keeps nothing: a run of bytes that
// holds no pointers, or values of one shape that do, with typed stores,
// which the compiler gives the garbage collector's write barriers. Memory
// that may hold a pointer is never zeroed as bytes.
type zeroOp struct {
	off  uintptr
	n    uintptr // zBytes: the bytes; zStrings, zPointers, zSlices: the count
	kind uint8
	typ  reflect.Type // zReflect
}

const (
	zBytes    uint8 = iota // n bytes without pointers
	zStrings               // n strings
	zPointers              // n pointers, channels, funcs or unsafe.Pointers
	zSlices                // n slices, set to nil
	zReflect               // a value of typ, zeroed through reflect
)

// zeroPlanner builds the zeroOps of a value, its structs' fields flattened
// and neighbouring runs of one kind merged.
type zeroPlanner struct {
	ops []zeroOp
	// open reports whether the last op may grow to take in the next
	// field: nothing that keeps its capacity lies between them.
	open bool
}

// add appends the ops that zero a value of type t, which keeps nothing, at
// offset off.
func (z *zeroPlanner) add(t reflect.Type, off uintptr) {
	if t.Size() == 0 {
		return
	}
	kind, n := zReflect, uintptr(1)
	switch t.Kind() {
	case reflect.String:
		kind = zStrings
	case reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		kind = zPointers
	case reflect.Slice:
		kind = zSlices // a slice that keeps nothing: of bytes
	case reflect.Struct:
		if hasPointers(t) {
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				z.add(f.Type, off+f.Offset)
			}
			return
		}
	}
	if !hasPointers(t) {
		kind, n = zBytes, t.Size()
	}
	if z.open && kind != zReflect {
		last := &z.ops[len(z.ops)-1]
		switch {
		case last.kind == zBytes && kind == zBytes:
			// The bytes between are padding, which holds no pointers.
			last.n = off + n - last.off
			return
		case last.kind == kind && last.off+last.n*t.Size() == off:
			last.n++
			return
		}
	}
	z.ops = append(z.ops, zeroOp{off: off, n: n, kind: kind, typ: t})
	z.open = true
}

// hasPointers reports whether a value of type t may hold a pointer.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	case reflect.String, reflect.Slice, reflect.Map, reflect.Pointer, reflect.Chan, reflect.Func,
		reflect.Interface, reflect.UnsafePointer:
		return true
	}
	return false
}

// zeroAt runs ops on the value at ptr, which is of the type ops were
// planned for: every op's memory, from off for n bytes or n elements of
// its kind, lies within that value, by reflect's layout of the type.
func zeroAt(ops []zeroOp, ptr unsafe.Pointer) {
	for k := range ops {
		op := &ops[k]
		p := unsafe.Add(ptr, op.off)
		switch op.kind {
		case zBytes:
			clear(unsafe.Slice((*byte)(p), op.n))
		case zStrings:
			clear(unsafe.Slice((*string)(p), op.n))
		case zPointers:
			clear(unsafe.Slice((*unsafe.Pointer)(p), op.n))
		case zSlices:
			clear(unsafe.Slice((*[]byte)(p), op.n))
		default:
			reflect.NewAt(op.typ, p).Elem().SetZero()
		}
	}
}

// clearPlans holds the clearPlan of each type Clear has met.
var clearPlans planCache[clearPlan]

// clearPlanOf returns t's plan.
func clearPlanOf(t reflect.Type) *clearPlan {
	return clearPlans.get(t, newClearPlan)
}

// newClearPlan builds t's plan.
func newClearPlan(t reflect.Type) *clearPlan {
	return buildClearPlan(t, map[reflect.Type]*clearPlan{})
}

// buildClearPlan builds t's plan. seen holds the plans being built, so that a
// recursive type (type Node struct{ Kids []Node }) refers to its own plan.
func buildClearPlan(t reflect.Type, seen map[reflect.Type]*clearPlan) *clearPlan {
	if p, ok := seen[t]; ok {
		return p
	}
	p := &clearPlan{typ: t, kind: clearZero}
	seen[t] = p
	switch t.Kind() {
	case reflect.Map:
		p.kind, p.keep = clearMap, true
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			break // byte slices become nil: see Clear
		}
		p.kind, p.keep = clearSlice, true
		p.elem, p.size = buildClearPlan(t.Elem(), seen), t.Elem().Size()
		p.noPtrs = !hasPointers(t.Elem())
	case reflect.Array:
		if e := buildClearPlan(t.Elem(), seen); t.Len() > 0 && e.keep {
			p.kind, p.keep = clearArray, true
			p.elem, p.n, p.size = e, t.Len(), t.Elem().Size()
		}
	case reflect.Struct:
		var z zeroPlanner
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fp := buildClearPlan(f.Type, seen)
			if fp.keep {
				p.kind, p.keep = clearStruct, true
				p.fields = append(p.fields, clearField{off: f.Offset, plan: fp})
				z.open = false
			} else {
				z.add(f.Type, f.Offset)
			}
		}
		p.zero = z.ops
		return p
	}
	if !p.keep {
		var z zeroPlanner
		z.add(t, 0)
		p.zero = z.ops
	}
	return p
}

// clearAt clears the value of p's type at ptr. Memory that may hold
// pointers is only written with typed stores (see zeroOp) or through
// reflect (SetZero, SetLen, Clear), which keep the garbage collector's
// write barriers; unsafe finds the address of a field or element, and
// zeroes as bytes only memory that holds no pointers.
func clearAt(p *clearPlan, ptr unsafe.Pointer) {
	if !p.keep {
		zeroAt(p.zero, ptr)
		return
	}
	switch p.kind {
	case clearStruct:
		zeroAt(p.zero, ptr)
		for _, f := range p.fields {
			clearAt(f.plan, unsafe.Add(ptr, f.off))
		}
	case clearArray:
		for i := 0; i < p.n; i++ {
			clearAt(p.elem, unsafe.Add(ptr, uintptr(i)*p.size))
		}
	case clearMap:
		if m := reflect.NewAt(p.typ, ptr).Elem(); !m.IsNil() {
			m.Clear()
		}
	case clearSlice:
		h := (*sliceHeader)(ptr)
		if h.cap == 0 {
			return
		}
		switch {
		case p.noPtrs:
			// The slice's array: cap elements of p.size bytes.
			clear(unsafe.Slice((*byte)(h.data), uintptr(h.cap)*p.size))
		case !p.elem.keep:
			// Value.Slice would allocate a new slice header; setting
			// the length to the capacity, in place, does not.
			s := reflect.NewAt(p.typ, ptr).Elem()
			s.SetLen(h.cap)
			s.Clear()
		default:
			for i := 0; i < h.cap; i++ {
				clearAt(p.elem, unsafe.Add(h.data, uintptr(i)*p.size))
			}
		}
		h.len = 0
	}
}
