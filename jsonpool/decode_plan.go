//go:build !poolkit_nounsafe

package jsonpool

import (
	"reflect"
	"strings"
)

// The fast decode path.
//
// For a type made only of what it supports (see buildDecodePlan), Unmarshal
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
// but the simple cases: a syntax error, a value of the wrong JSON type for
// its field, a number out of range or not an integer for an integer field,
// a key that matches no field exactly and is not ASCII, a second occurrence
// of a key whose field is a struct, slice, array or pointer, a time that
// time.Time's UnmarshalJSON refuses.

// decodeKind is what the fast path does with a value of a planned type.
type decodeKind uint8

const (
	decodeBool decodeKind = iota
	decodeInt
	decodeUint
	decodeFloat32
	decodeFloat64
	decodeString
	decodeStruct
	decodeSlice
	decodeArray
	decodePtr
	decodeTime
)

// decodePlan is how the fast path decodes into a value of one type.
type decodePlan struct {
	kind   decodeKind
	bits   int           // decodeInt, decodeUint: the size in bits
	typ    reflect.Type  // decodeSlice: the slice type, for growing it
	elem   *decodePlan   // decodeSlice, decodeArray, decodePtr: the element's plan
	size   uintptr       // decodeSlice, decodeArray: the element's size
	n      int           // decodeArray: the length
	fields []decodeField // decodeStruct
}

// isInteger reports whether p is the plan of an integer type.
func (p *decodePlan) isInteger() bool {
	return p.kind == decodeInt || p.kind == decodeUint
}

// decodeField is one field of a struct that a JSON member can set.
type decodeField struct {
	name string // its JSON name, ASCII
	// key holds the name and its closing quote as words, for a name of
	// 15 bytes or fewer (else keyLen is 0): the first eight bytes, zero
	// past the quote, with keyMask over those of the key, and the last
	// eight if the key is longer (see keyWords).
	key     [2]uint64
	keyMask uint64
	keyLen  int
	off     uintptr
	plan    *decodePlan
	// once is the field's bit in a per-object set of fields seen, for a
	// struct, slice, array or pointer field, which a second occurrence of
	// its key would decode into, merging with what the first left there
	// (null elements of an array keep the first's values); 0 for the
	// others, which it overwrites.
	once uint64
}

// decodePlans holds the decodePlan of each type the fast decode path has
// met: nil for a type it does not support.
var decodePlans planCache[decodePlan]

// decodePlanOf returns t's plan, or nil if the fast path does not support
// t.
func decodePlanOf(t reflect.Type) *decodePlan {
	return decodePlans.get(t, newDecodePlan)
}

// newDecodePlan builds t's plan, or returns nil if the fast path does not
// support t.
func newDecodePlan(t reflect.Type) *decodePlan {
	p, ok := buildDecodePlan(t, map[reflect.Type]*decodePlan{})
	if !ok {
		return nil
	}
	return p
}

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

// buildDecodePlan builds t's plan, and reports false if t, or any type it
// holds, is outside what the fast path supports. seen holds the plans
// being built, so that a recursive type refers to its own plan.
func buildDecodePlan(t reflect.Type, seen map[reflect.Type]*decodePlan) (*decodePlan, bool) {
	if p, ok := seen[t]; ok {
		return p, true
	}
	if t == timeType {
		return &decodePlan{kind: decodeTime}, true
	}
	// Every other type of package time (Duration, Month, Weekday) has
	// its own treatment in encoding/json v2; and any method of decoding
	// of the type's own, on the value or its pointer, is encoding/json's
	// to call.
	if t == numberType || t.PkgPath() == "time" || hasDecodeMethod(t) || hasDecodeMethod(reflect.PointerTo(t)) {
		return nil, false
	}
	p := &decodePlan{typ: t}
	seen[t] = p
	switch t.Kind() {
	case reflect.Bool:
		p.kind = decodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind, p.bits = decodeInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.kind, p.bits = decodeUint, t.Bits()
	case reflect.Float32:
		p.kind = decodeFloat32
	case reflect.Float64:
		p.kind = decodeFloat64
	case reflect.String:
		p.kind = decodeString
	case reflect.Slice:
		// encoding/json decodes a slice of bytes from base64.
		if t.Elem().Kind() == reflect.Uint8 {
			return nil, false
		}
		e, ok := buildDecodePlan(t.Elem(), seen)
		if !ok {
			return nil, false
		}
		p.kind, p.elem, p.size = decodeSlice, e, t.Elem().Size()
	case reflect.Array:
		// encoding/json (v1, and v2 with v1's options, which set
		// FormatByteArrayAsArray) decodes every array from a JSON array,
		// [N]byte included: only a slice of bytes is base64.
		e, ok := buildDecodePlan(t.Elem(), seen)
		if !ok {
			return nil, false
		}
		p.kind, p.elem, p.size, p.n = decodeArray, e, t.Elem().Size(), t.Len()
	case reflect.Pointer:
		if t.Name() != "" || t.Elem().Kind() == reflect.Pointer {
			return nil, false
		}
		e, ok := buildDecodePlan(t.Elem(), seen)
		if !ok {
			return nil, false
		}
		p.kind, p.elem = decodePtr, e
	case reflect.Struct:
		p.kind = decodeStruct
		if !buildDecodeFields(p, t, seen) {
			return nil, false
		}
	default:
		// Maps, interfaces, complex numbers, uintptr and the rest.
		return nil, false
	}
	return p, true
}

// buildDecodeFields fills p.fields with the fields of struct t that a JSON member
// can set, by encoding/json's rules for a struct without embedded fields,
// and reports false where the fast path leaves t to encoding/json: an
// embedded field, a tag option other than omitempty and omitzero (the
// string option above all), a name that is not ASCII letters, digits,
// '_' and '-', two names that encoding/json v1 or v2 might match to the
// same key case-insensitively, more than 64 fields.
func buildDecodeFields(p *decodePlan, t reflect.Type, seen map[reflect.Type]*decodePlan) bool {
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
		if !asciiName(name) {
			return false
		}
		key := foldName(name)
		if folded[key] {
			return false
		}
		folded[key] = true
		fp, ok := buildDecodePlan(sf.Type, seen)
		if !ok {
			return false
		}
		f := decodeField{name: name, off: sf.Offset, plan: fp}
		f.setKey()
		if fp.kind == decodeStruct || fp.kind == decodeSlice || fp.kind == decodeArray || fp.kind == decodePtr {
			f.once = 1 << i
		}
		p.fields = append(p.fields, f)
	}
	return true
}

// maxWordKey is the longest key, a name and its closing quote, that
// keyWords compares as words.
const maxWordKey = 16

// setKey sets f's key words from its name.
func (f *decodeField) setKey() {
	k := f.name + `"`
	if len(k) > maxWordKey {
		return
	}
	var b [maxWordKey]byte
	copy(b[:], k)
	f.keyLen = len(k)
	f.key[0] = load8(b[:])
	f.keyMask = ^uint64(0)
	if len(k) < 8 {
		f.keyMask = 1<<(8*len(k)) - 1
	} else {
		f.key[1] = load8([]byte(k[len(k)-8:]))
	}
}

// asciiName reports whether name is ASCII letters, digits, '_' and '-',
// not starting with '-'.
func asciiName(name string) bool {
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

// foldName returns name in lower case without '_' and '-': two names
// that v1 (ASCII case folding) or v2 (which also ignores '_' and '-' in
// grouping names) could match to one key fold to the same string.
func foldName(name string) string {
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
