package jsonpool

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"time"
)

// The fast decode path.
//
// For a type made only of what it supports (see makeDecodePlan), Unmarshal
// and UnmarshalReuse decode a document in one pass that also checks its
// syntax, writing through unsafe pointers at offsets planned once per type,
// instead of checking the document with isValid and then decoding it with
// encoding/json, which scans the value a second time and walks the type
// with reflect. The fast path succeeds only on a document isValid accepts,
// with exactly the value json.Unmarshal would produce into the same zeroed
// or cleared target; otherwise it reports whether isValid accepts the
// document, and the caller zeroes or clears the target and decodes with
// encoding/json, whose value and error are then the result. It fails, rather
// than deciding a case encoding/json might decide differently, on anything
// but the plain cases: a syntax error, a value of the wrong JSON type for
// its field, a number out of range or not an integer for an integer field,
// a key that matches no field exactly and is not ASCII, a second occurrence
// of a key whose field is a struct, slice or pointer, a time that
// time.Time's UnmarshalJSON refuses.

// dkind is what the fast path does with a value of a planned type.
type dkind uint8

const (
	dBool dkind = iota
	dInt
	dUint
	dFloat32
	dFloat64
	dString
	dStruct
	dSlice
	dPtr
	dTime
)

// dplan is how the fast path decodes into a value of one type.
type dplan struct {
	kind   dkind
	bits   int          // dInt, dUint: the size in bits
	typ    reflect.Type // dSlice: the slice type, for growing it
	elem   *dplan       // dSlice, dPtr: the element's plan
	size   uintptr      // dSlice: the element's size
	fields []dfield     // dStruct
}

// dfield is one field of a struct that a JSON member can set.
type dfield struct {
	name string // its JSON name, ASCII
	off  uintptr
	plan *dplan
	// once is the field's bit in a per-object set of fields seen, for a
	// struct, slice or pointer field, which a second occurrence of its key
	// would decode into, merging; 0 for the others, which it overwrites.
	once uint64
}

// decodePlans maps a reflect.Type to its *dplan, or to noDecodePlan for a
// type the fast path does not support. A lookup with an interface key that
// holds a pointer allocates nothing.
var decodePlans sync.Map

var noDecodePlan = new(dplan)

// decodePlanOf returns t's plan, or nil if the fast path does not support
// t.
func decodePlanOf(t reflect.Type) *dplan {
	if p, ok := decodePlans.Load(t); ok {
		if p == noDecodePlan {
			return nil
		}
		return p.(*dplan)
	}
	p, ok := makeDecodePlan(t, map[reflect.Type]*dplan{})
	if !ok {
		p = noDecodePlan
	}
	decodePlans.Store(t, p)
	if p == noDecodePlan {
		return nil
	}
	return p
}

var (
	timeType   = reflect.TypeFor[time.Time]()
	numberType = reflect.TypeFor[json.Number]()
)

// hasDecodeMethod reports whether t has a method by which encoding/json
// (v1, or v2 under GOEXPERIMENT=jsonv2) may decode it itself. It goes by
// name: a method of that name with another signature only costs the fast
// path.
func hasDecodeMethod(t reflect.Type) bool {
	for _, name := range [...]string{"UnmarshalJSON", "UnmarshalText", "UnmarshalJSONFrom"} {
		if _, ok := t.MethodByName(name); ok {
			return true
		}
	}
	return false
}

// makeDecodePlan builds t's plan, and reports false if t, or any type it
// holds, is outside what the fast path supports. seen holds the plans
// being built, so that a recursive type refers to its own plan.
func makeDecodePlan(t reflect.Type, seen map[reflect.Type]*dplan) (*dplan, bool) {
	if p, ok := seen[t]; ok {
		return p, true
	}
	if t == timeType {
		return &dplan{kind: dTime}, true
	}
	// Every other type of package time (Duration, Month, Weekday) has
	// its own treatment in encoding/json v2; and any method of decoding
	// of the type's own, on the value or its pointer, is encoding/json's
	// to call.
	if t == numberType || t.PkgPath() == "time" || hasDecodeMethod(t) || hasDecodeMethod(reflect.PointerTo(t)) {
		return nil, false
	}
	p := &dplan{typ: t}
	seen[t] = p
	switch t.Kind() {
	case reflect.Bool:
		p.kind = dBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind, p.bits = dInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.kind, p.bits = dUint, t.Bits()
	case reflect.Float32:
		p.kind = dFloat32
	case reflect.Float64:
		p.kind = dFloat64
	case reflect.String:
		p.kind = dString
	case reflect.Slice:
		// encoding/json decodes a slice of bytes from base64.
		if t.Elem().Kind() == reflect.Uint8 {
			return nil, false
		}
		e, ok := makeDecodePlan(t.Elem(), seen)
		if !ok {
			return nil, false
		}
		p.kind, p.elem, p.size = dSlice, e, t.Elem().Size()
	case reflect.Pointer:
		if t.Name() != "" || t.Elem().Kind() == reflect.Pointer {
			return nil, false
		}
		e, ok := makeDecodePlan(t.Elem(), seen)
		if !ok {
			return nil, false
		}
		p.kind, p.elem = dPtr, e
	case reflect.Struct:
		p.kind = dStruct
		if !planFields(p, t, seen) {
			return nil, false
		}
	default:
		// Maps, interfaces, arrays, complex numbers, uintptr and the
		// rest.
		return nil, false
	}
	return p, true
}

// planFields fills p.fields with the fields of struct t that a JSON member
// can set, by encoding/json's rules for a struct without embedded fields,
// and reports false where the fast path leaves t to encoding/json: an
// embedded field, a tag option other than omitempty and omitzero (the
// string option above all), a name that is not plain ASCII letters, digits,
// '_' and '-', two names that encoding/json v1 or v2 might match to the
// same key case-insensitively, more than 64 fields.
func planFields(p *dplan, t reflect.Type, seen map[reflect.Type]*dplan) bool {
	if t.NumField() > 64 {
		return false
	}
	folded := make(map[string]bool)
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous {
			return false
		}
		tag, hasTag := sf.Tag.Lookup("json")
		if tag == "-" {
			continue
		}
		if !sf.IsExported() {
			if hasTag {
				return false // v2 may report such a tag
			}
			continue
		}
		name, opts, hasOpts := strings.Cut(tag, ",")
		if hasOpts {
			for _, opt := range strings.Split(opts, ",") {
				if opt != "omitempty" && opt != "omitzero" {
					return false
				}
			}
		}
		if name == "" {
			name = sf.Name
		}
		if !plainName(name) {
			return false
		}
		key := foldPlainName(name)
		if folded[key] {
			return false
		}
		folded[key] = true
		fp, ok := makeDecodePlan(sf.Type, seen)
		if !ok {
			return false
		}
		f := dfield{name: name, off: sf.Offset, plan: fp}
		if fp.kind == dStruct || fp.kind == dSlice || fp.kind == dPtr {
			f.once = 1 << i
		}
		p.fields = append(p.fields, f)
	}
	return true
}

// plainName reports whether name is ASCII letters, digits, '_' and '-',
// not starting with '-'.
func plainName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// foldPlainName returns name in lower case without '_' and '-': two names
// that v1 (ASCII case folding) or v2 (which also ignores '_' and '-' in
// grouping names) could match to one key fold to the same string.
func foldPlainName(name string) string {
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-':
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
