//go:build !poolkit_nounsafe

package jsonpool

import (
	"encoding/base64"
	"reflect"
	"unsafe"
)

// The fast encode path.
//
// encoding/json walks a value with reflect on every call: it looks up each
// field's encoder and reads each field through a reflect.Value. For the
// types a response is commonly made of (structs of numbers, strings,
// booleans, times, slices and pointers of those) jsonpool builds, once per
// type, a plan: a tree of encode functions that read each field at its
// offset through an unsafe.Pointer and append its JSON text directly. The
// plan only ever produces what encoding/json would for the same value;
// everything it cannot reproduce exactly is found when the plan is built,
// and the type is then marked unsupported, so that encoding/json encodes
// it as before. At run time a plan reports failure (a NaN, a time
// encoding/json refuses) instead of an error, and the caller throws away
// what was appended and lets encoding/json produce its own error.
//
// What this depends on: the layout of an interface value (a type word and
// a data word; for the types the fast path accepts at the top level, the
// data word is a pointer to the value or, for a pointer type, the pointer
// itself), and the layouts of strings, slices and struct fields that
// reflect reports (reflect.StructField.Offset, reflect.Type.Size). Both
// are the Go specification's and the gc runtime's since Go 1.0; no
// runtime internal is reached through go:linkname.

// fastPaths says the fast paths are built in (they are not under the
// poolkit_nounsafe tag: see nounsafe.go).
const fastPaths = true

// encoderFunc appends the JSON text of the value at p to b. ok is false when
// encoding/json would return an error for the value: b is then to be
// thrown away. html says whether <, > and & are escaped in strings.
type encoderFunc func(b []byte, p unsafe.Pointer, html bool) (_ []byte, ok bool)

// encodePlan is how a value stored in an interface is encoded: fn is nil
// when its type is unsupported; ptr says the interface holds a pointer,
// whose target fn encodes (nil is null).
type encodePlan struct {
	fn  encoderFunc
	ptr bool
}

// encodePlans holds the encodePlan of each type appendFast has met.
var encodePlans planCache[encodePlan]

// appendFast appends the JSON encoding of v, as json.Encoder.Encode
// writes it without its newline, to b. handled is false when v's type has
// no plan or encoding/json would fail on v; b's appended bytes must then
// be discarded (b[:len(b) before the call]). It may write to b's spare
// capacity beyond what it appends (keys and strings are written as whole
// words), never past its capacity: b must be the encoder's own buffer, or
// memory nothing else reads.
func appendFast(b []byte, v any, html bool) (_ []byte, handled bool) {
	if v == nil {
		return b, false
	}
	t := reflect.TypeOf(v)
	pl := encodePlans.get(t, buildEncodePlan)
	if pl.fn == nil {
		return b, false
	}
	p := (*eface)(unsafe.Pointer(&v)).data
	if pl.ptr && p == nil {
		return append(b, "null"...), true
	}
	return pl.fn(b, p, html)
}

// ptrSize is the size of a pointer, and of an interface's data word.
const ptrSize = unsafe.Sizeof(uintptr(0))

func buildEncodePlan(t reflect.Type) *encodePlan {
	b := encodeBuilder{visiting: map[reflect.Type]bool{}}
	if t.Kind() == reflect.Pointer {
		if fn := b.build(t.Elem()); fn != nil && !b.failed {
			return &encodePlan{fn: fn, ptr: true}
		}
		return &encodePlan{}
	}
	// A struct or array of pointer size may be stored in the interface's
	// data word itself rather than behind it (a struct of one pointer),
	// which the data word does not tell: leave those to encoding/json.
	// Every other kind the plan supports is stored behind the data word.
	if k := t.Kind(); (k == reflect.Struct || k == reflect.Array) && t.Size() == ptrSize {
		return &encodePlan{}
	}
	if fn := b.build(t); fn != nil && !b.failed {
		return &encodePlan{fn: fn}
	}
	return &encodePlan{}
}

// encodeBuilder builds the encode functions of one top-level type.
type encodeBuilder struct {
	visiting map[reflect.Type]bool // types being built: a recursive type is unsupported
	failed   bool
	fixed    map[reflect.Type][]fixedField // the fields of the fixed structs built (see fixedFields)
}

// hasEncodeMethod reports whether t, or *t, has a method through which
// encoding/json (v1, or the v2 engine of GOEXPERIMENT=jsonv2) would
// encode it instead of by its kind: MarshalJSON, MarshalJSONTo,
// MarshalText, AppendText. The test is by name only, so that any method
// that might qualify sends the type to encoding/json.
func hasEncodeMethod(t reflect.Type) bool {
	pt := reflect.PointerTo(t) // whose method set holds t's
	for _, name := range [...]string{"MarshalJSON", "MarshalJSONTo", "MarshalText", "AppendText"} {
		if _, ok := pt.MethodByName(name); ok {
			return true
		}
	}
	return false
}

// build returns t's encode function, or nil if t is unsupported.
func (pb *encodeBuilder) build(t reflect.Type) encoderFunc {
	if pb.failed {
		return nil
	}
	switch t {
	case timeType:
		return timeEncoder
	case kitTimeType:
		return kitTimeEncoder
	case numberType:
		pb.failed = true
		return nil
	}
	// A pointer type has no methods but its target's, checked when its
	// target is built.
	if t.Kind() != reflect.Pointer && hasEncodeMethod(t) {
		pb.failed = true
		return nil
	}
	if pb.visiting[t] {
		pb.failed = true
		return nil
	}
	pb.visiting[t] = true
	defer delete(pb.visiting, t)

	var fn encoderFunc
	switch t.Kind() {
	case reflect.Bool:
		fn = boolEncoder
	case reflect.Int:
		fn = intEncoder[int]
	case reflect.Int8:
		fn = intEncoder[int8]
	case reflect.Int16:
		fn = intEncoder[int16]
	case reflect.Int32:
		fn = intEncoder[int32]
	case reflect.Int64:
		fn = intEncoder[int64]
	case reflect.Uint:
		fn = uintEncoder[uint]
	case reflect.Uint8:
		fn = uintEncoder[uint8]
	case reflect.Uint16:
		fn = uintEncoder[uint16]
	case reflect.Uint32:
		fn = uintEncoder[uint32]
	case reflect.Uint64:
		fn = uintEncoder[uint64]
	case reflect.Uintptr:
		fn = uintEncoder[uintptr]
	case reflect.Float32:
		fn = float32Encoder
	case reflect.Float64:
		fn = float64Encoder
	case reflect.String:
		fn = stringEncoder
	case reflect.Pointer:
		fn = pb.buildPointer(t)
	case reflect.Slice:
		fn = pb.buildSlice(t)
	case reflect.Array:
		fn = pb.buildArray(t)
	case reflect.Struct:
		fn = pb.buildStruct(t)
	}
	if fn == nil {
		// Maps, interfaces, complex numbers, channels, functions and
		// unsafe pointers are encoding/json's.
		pb.failed = true
	}
	return fn
}

func (pb *encodeBuilder) buildPointer(t reflect.Type) encoderFunc {
	elem := pb.build(t.Elem())
	if elem == nil {
		return nil
	}
	return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return append(b, "null"...), true
		}
		return elem(b, q, html)
	}
}

func (pb *encodeBuilder) buildSlice(t reflect.Type) encoderFunc {
	et := t.Elem()
	if et.Kind() == reflect.Uint8 {
		// []byte, and slices of any byte kind without methods of its
		// own (checked by build below), are base64 text in encoding/json.
		if pb.build(et) == nil {
			return nil
		}
		return bytesEncoder
	}
	elem := pb.build(et)
	if elem == nil {
		return nil
	}
	size := et.Size()
	if et.Kind() == reflect.String {
		// Strings, and slices of fixed structs below, are written by a
		// loop of their own, without an indirect call per element.
		return stringsEncoder
	}
	fixed := pb.fixed[et] // nil unless et is a fixed struct
	return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
		s := (*sliceHeader)(p)
		if s.data == nil {
			return append(b, "null"...), true
		}
		return appendElems(b, s.data, s.len, size, elem, fixed, html)
	}
}

// appendElems writes the n elements at data, size bytes apart, as a JSON
// array: by appendFixedStruct when fixed is not nil, without an indirect
// call per element, else by elem.
func appendElems(b []byte, data unsafe.Pointer, n int, size uintptr, elem encoderFunc, fixed []fixedField, html bool) ([]byte, bool) {
	b = append(b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if fixed != nil {
			b, ok = appendFixedStruct(b, unsafe.Add(data, uintptr(i)*size), fixed, html)
		} else {
			b, ok = elem(b, unsafe.Add(data, uintptr(i)*size), html)
		}
		if !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

func bytesEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	s := *(*[]byte)(p)
	if s == nil {
		return append(b, "null"...), true
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, s)
	return append(b, '"'), true
}

func (pb *encodeBuilder) buildArray(t reflect.Type) encoderFunc {
	elem := pb.build(t.Elem())
	if elem == nil {
		return nil
	}
	n, size := t.Len(), t.Elem().Size()
	fixed := pb.fixed[t.Elem()]
	return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
		return appendElems(b, p, n, size, elem, fixed, html)
	}
}
