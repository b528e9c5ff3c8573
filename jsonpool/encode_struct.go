//go:build !poolkit_nounsafe

package jsonpool

import (
	"encoding/binary"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/poolkit/poolkit/internal/digits"
)

// encodeField is how one struct field is encoded, or, with ptr set, the
// fields of a struct embedded through a pointer at off.
type encodeField struct {
	off  uintptr
	key  string // `"name":`
	fn   encoderFunc
	omit func(p unsafe.Pointer) bool // nil: never omitted
	sub  []encodeField               // the embedded struct's fields, at offsets from the pointer's target
	ptr  bool                        // an embedded *struct, whose fields are sub
	kind encodeKind                  // how fn writes the field
}

func (pb *encodeBuilder) buildStruct(t reflect.Type) encoderFunc {
	var names []string
	fields, ok := pb.structFields(t, 0, &names)
	if !ok {
		return nil
	}
	if fixed := fixedFields(fields); fixed != nil {
		if pb.fixed == nil {
			pb.fixed = map[reflect.Type][]fixedField{}
		}
		pb.fixed[t] = fixed
		return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
			return appendFixedStruct(b, p, fixed, html)
		}
	}
	return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
		b = append(b, '{')
		b, _, ok := appendFields(b, p, fields, html, true)
		if !ok {
			return b, false
		}
		return append(b, '}'), true
	}
}

// encodeKind says how appendFixedStruct writes a field: by its encoderFunc, or, for
// the commonest kinds, itself, without the indirect call.
type encodeKind uint8

const (
	encodeByFunc encodeKind = iota
	encodeString
	encodeInt64
	encodeInt
	encodeBool
	encodeFloat64
)

// encodeKindOf returns the encodeKind of a field of type t whose encoderFunc build
// returned: named types of these kinds have no methods that encoding/json
// would call (build refuses them), so their kind says how they encode.
func encodeKindOf(t reflect.Type) encodeKind {
	if t == timeType || t == kitTimeType || t == numberType {
		return encodeByFunc
	}
	switch t.Kind() {
	case reflect.String:
		return encodeString
	case reflect.Int64:
		return encodeInt64
	case reflect.Int:
		return encodeInt
	case reflect.Bool:
		return encodeBool
	case reflect.Float64:
		return encodeFloat64
	}
	return encodeByFunc
}

// A fixed struct is one whose fields are all written, in the same order
// every time: none may be omitted, none is reached through an embedded
// pointer. appendFixedStruct writes it without the tests appendFields
// makes per field. fixedField is one of its fields: its key is written
// with the byte before it, { for the first field and a comma for the
// others.
type fixedField struct {
	off   uintptr
	pre   string    // `{"name":` or `,"name":`
	words [3]uint64 // pre in three words, zero-padded, if len(pre) <= keyWords
	kind  encodeKind
	fn    encoderFunc
}

// keyWords is the longest pre written as the three words of
// fixedField.words; a longer one is appended.
const keyWords = 24

// fixedFields returns fields as appendFixedStruct takes them, or nil if
// one of them may be omitted or is an embedded pointer's (or there are
// none).
func fixedFields(fields []encodeField) []fixedField {
	if len(fields) == 0 {
		return nil
	}
	fixed := make([]fixedField, len(fields))
	for i, f := range fields {
		if f.ptr || f.omit != nil {
			return nil
		}
		pre := "," + f.key
		if i == 0 {
			pre = "{" + f.key
		}
		pf := fixedField{off: f.off, pre: pre, kind: f.kind, fn: f.fn}
		if len(pre) <= keyWords {
			var w [keyWords]byte
			copy(w[:], pre)
			for j := range pf.words {
				pf.words[j] = binary.LittleEndian.Uint64(w[8*j:])
			}
		}
		fixed[i] = pf
	}
	return fixed
}

// fixedRoom is the spare capacity appendFixedStruct makes before each field:
// enough for a key written as three words and, after the longest such
// key, any integer (maxIntLen bytes). A longer key makes room for itself
// and an integer (appendLongKey).
const fixedRoom = 48

// maxIntLen is the longest decimal text of an int64: a sign and 19
// digits.
const maxIntLen = digits.MaxLen

// The room fixedRoom leaves after a key written as words must hold any
// integer: if it did not, this constant would overflow uint, and the
// package would not compile.
const _ = uint(fixedRoom - keyWords - maxIntLen)

// appendFixedStruct writes the struct at p, of fields, with the closing
// brace. It writes keys as whole words, which may write bytes of b's
// spare capacity beyond what it appends: b is the encoder's own buffer,
// never a caller's.
func appendFixedStruct(b []byte, p unsafe.Pointer, fields []fixedField, html bool) (_ []byte, ok bool) {
	for i := range fields {
		f := &fields[i]
		if cap(b)-len(b) < fixedRoom {
			b = grow(b, fixedRoom)
		}
		if k := len(f.pre); k <= keyWords {
			// The three words are within b's spare capacity: fixedRoom >=
			// keyWords bytes, made just above.
			n := len(b)
			w := (*[keyWords]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n))
			binary.LittleEndian.PutUint64(w[0:8], f.words[0])
			binary.LittleEndian.PutUint64(w[8:16], f.words[1])
			binary.LittleEndian.PutUint64(w[16:24], f.words[2])
			b = b[:n+k]
		} else {
			b = appendLongKey(b, f.pre)
		}
		// Here b has maxIntLen bytes of spare capacity at least: after a
		// key of keyWords bytes or fewer, fixedRoom-keyWords >=
		// maxIntLen (checked when compiling, next to maxIntLen) of the
		// room made before it; after a longer key, made by
		// appendLongKey.
		fp := unsafe.Add(p, f.off)
		switch f.kind {
		case encodeString:
			b = appendString(b, *(*string)(fp), html)
		case encodeInt64, encodeInt:
			// Written here, not by a call (which would cost the loop's
			// state reloaded after it), in place, into the maxIntLen
			// bytes of spare capacity the key left (see above): the
			// sign and the digits are stored in b[n:n+maxIntLen] at
			// most.
			var v int64
			if f.kind == encodeInt64 {
				v = *(*int64)(fp)
			} else {
				v = int64(*(*int)(fp))
			}
			u, n := uint64(v), len(b)
			d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n)
			if v < 0 {
				u = -u // |v|, MinInt64 included
				*(*byte)(d) = '-'
				d = unsafe.Add(d, 1)
				n++
			}
			l := digits.Len(u)
			digits.PutAt(d, l, u)
			b = b[:n+l]
		case encodeBool:
			if *(*bool)(fp) {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		case encodeFloat64:
			v := *(*float64)(fp)
			var short []byte
			if short, ok = digits.AppendShortFloat(b, v, digits.MaxPlaces); ok {
				b = short
				continue
			}
			if b, ok = appendFloatStrconv(b, v, 64); !ok {
				return b, false
			}
		default:
			if b, ok = f.fn(b, fp, html); !ok {
				return b, false
			}
		}
	}
	return append(b, '}'), true
}

// appendLongKey appends pre, a key longer than keyWords bytes, to b,
// with maxIntLen bytes of spare capacity after it at least.
func appendLongKey(b []byte, pre string) []byte {
	if cap(b)-len(b) < len(pre)+maxIntLen {
		b = grow(b, len(pre)+maxIntLen)
	}
	return append(b, pre...)
}

// appendFields appends fields of the struct at p, each after a comma unless
// it is the first written (first says whether none was before the call),
// and reports whether none was written yet after it.
func appendFields(b []byte, p unsafe.Pointer, fields []encodeField, html, first bool) (_ []byte, stillFirst, ok bool) {
	for i := range fields {
		f := &fields[i]
		fp := unsafe.Add(p, f.off)
		if f.ptr {
			// Fields of a struct embedded through a pointer: none when
			// it is nil, as in encoding/json.
			if q := *(*unsafe.Pointer)(fp); q != nil {
				if b, first, ok = appendFields(b, q, f.sub, html, first); !ok {
					return b, first, false
				}
			}
			continue
		}
		if f.omit != nil && f.omit(fp) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.key...)
		if b, ok = f.fn(b, fp, html); !ok {
			return b, first, false
		}
	}
	return b, first, true
}

// structFields returns the encoded fields of struct type t at offset base,
// in encoding/json's order, the fields of untagged embedded structs in
// their place. It fails for what the fast path leaves to encoding/json,
// among them any two fields, at any depth, whose names are equal but for
// case: with no such pair, encoding/json's rules for which of two equal
// names wins have nothing to decide.
func (pb *encodeBuilder) structFields(t reflect.Type, base uintptr, names *[]string) ([]encodeField, bool) {
	var fields []encodeField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, tagged := sf.Tag.Lookup("json")
		if sf.Anonymous {
			// An embedded struct, untagged, of an exported type without
			// methods of encoding, directly or through a pointer: its
			// fields are the outer struct's. Every other embedded field
			// (tagged, of an unexported type, not a struct) is
			// encoding/json's.
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if tagged || !sf.IsExported() || et.Kind() != reflect.Struct ||
				et == timeType || et == kitTimeType || hasEncodeMethod(et) || pb.visiting[et] {
				return nil, false
			}
			pb.visiting[et] = true
			if sf.Type.Kind() == reflect.Pointer {
				sub, ok := pb.structFields(et, 0, names)
				if !ok {
					return nil, false
				}
				fields = append(fields, encodeField{off: base + sf.Offset, sub: sub, ptr: true})
			} else {
				sub, ok := pb.structFields(et, base+sf.Offset, names)
				if !ok {
					return nil, false
				}
				fields = append(fields, sub...)
			}
			delete(pb.visiting, et)
			continue
		}
		if !sf.IsExported() {
			if tagged {
				// Ignored by encoding/json v1; an error in v2.
				return nil, false
			}
			continue
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		if !encodableName(name) {
			// Names encoding/json replaces by the Go name, or would
			// have to escape, or that v2 parses differently (quoted
			// names): left to encoding/json.
			return nil, false
		}
		var omitEmpty, omitZero bool
		if strings.Contains(tag, ",") {
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "omitempty":
					omitEmpty = true
				case "omitzero":
					omitZero = true
				case "":
					// A trailing comma, as in `json:"-,"`: no option.
				default:
					// ",string" and options v2 knows and v1 does not.
					return nil, false
				}
			}
		}
		for _, n := range *names {
			if strings.EqualFold(n, name) {
				// encoding/json drops both of two equal names, or keeps
				// the shallower; v2 may refuse names that differ only
				// in case.
				return nil, false
			}
		}
		*names = append(*names, name)
		fn := pb.build(sf.Type)
		if fn == nil {
			return nil, false
		}
		f := encodeField{off: base + sf.Offset, key: `"` + name + `":`, fn: fn, kind: encodeKindOf(sf.Type)}
		if omitEmpty {
			f.omit = emptyFunc(sf.Type)
			if f.omit == nil {
				return nil, false
			}
		}
		if omitZero {
			z := zeroFunc(sf.Type)
			if z == nil {
				return nil, false
			}
			if e := f.omit; e != nil {
				f.omit = func(p unsafe.Pointer) bool { return e(p) || z(p) }
			} else {
				f.omit = z
			}
		}
		fields = append(fields, f)
	}
	return fields, true
}

// encodableName reports whether a field name is one that encoding/json
// accepts as a tag name and writes as it is, escaping nothing in any
// mode: letters, digits and punctuation other than quotes, backslashes
// and the HTML characters <, > and &.
func encodableName(name string) bool {
	if name == "" || !utf8.ValidString(name) {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%()*+-./:;=?@[]^_{|}~ ", c):
		case c == '\u2028' || c == '\u2029':
			return false
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// emptyFunc returns the test of encoding/json's omitempty for a field of
// type t: false, 0, a nil pointer, an empty string or slice, an array of
// length 0. Structs are never empty. nil means t is not handled.
func emptyFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Struct:
		return func(unsafe.Pointer) bool { return false }
	case reflect.Array:
		empty := t.Len() == 0
		return func(unsafe.Pointer) bool { return empty }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*sliceHeader)(p).len == 0 }
	case reflect.Float32:
		return func(p unsafe.Pointer) bool { return *(*float32)(p) == 0 }
	case reflect.Float64:
		return func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	}
	return zeroKindFunc(t)
}

// zeroFunc returns the test of encoding/json's omitzero for a field of
// type t: its IsZero method for the two time types, reflect.Value.IsZero
// (floats compare equal to 0, so -0 is zero) for the rest. nil means t is
// not handled: another type with an IsZero method.
func zeroFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t {
	case timeType:
		return func(p unsafe.Pointer) bool { return (*time.Time)(p).IsZero() }
	case kitTimeType:
		return func(p unsafe.Pointer) bool { return (*Time)(p).IsZero() }
	}
	if _, ok := reflect.PointerTo(t).MethodByName("IsZero"); ok {
		return nil
	}
	if _, ok := t.MethodByName("IsZero"); ok {
		return nil
	}
	return valueZeroFunc(t)
}

// valueZeroFunc returns reflect.Value.IsZero for a value of type t, of
// any kind, read in place: floats and complex numbers compare equal to 0
// (so -0 is zero), strings are empty, slices, pointers, maps, channels,
// functions and interfaces nil, arrays and structs zero in every element
// and field, blank (_) fields aside. Methods play no part: a time.Time
// inside a struct is zero only with no location either, as in reflect.
func valueZeroFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*sliceHeader)(p).data == nil }
	case reflect.Float32:
		return func(p unsafe.Pointer) bool { return *(*float32)(p) == 0 }
	case reflect.Float64:
		return func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	case reflect.Complex64:
		return func(p unsafe.Pointer) bool { return *(*complex64)(p) == 0 }
	case reflect.Complex128:
		return func(p unsafe.Pointer) bool { return *(*complex128)(p) == 0 }
	case reflect.Interface:
		// Both words nil; the first is nil only for a nil interface.
		return func(p unsafe.Pointer) bool { return (*eface)(p).typ == nil }
	case reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Array:
		n, size := t.Len(), t.Elem().Size()
		elem := valueZeroFunc(t.Elem())
		return func(p unsafe.Pointer) bool {
			for i := 0; i < n; i++ {
				if !elem(unsafe.Add(p, uintptr(i)*size)) {
					return false
				}
			}
			return true
		}
	case reflect.Struct:
		type part struct {
			off  uintptr
			zero func(unsafe.Pointer) bool
		}
		var parts []part
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			if sf.Name == "_" {
				continue
			}
			parts = append(parts, part{sf.Offset, valueZeroFunc(sf.Type)})
		}
		return func(p unsafe.Pointer) bool {
			for _, f := range parts {
				if !f.zero(unsafe.Add(p, f.off)) {
					return false
				}
			}
			return true
		}
	}
	return zeroKindFunc(t) // booleans, integers, strings, pointers
}

// zeroKindFunc returns a test for the zero value of a bool, integer,
// string or pointer type, nil for any other kind.
func zeroKindFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Bool:
		return func(p unsafe.Pointer) bool { return !*(*bool)(p) }
	case reflect.Int8, reflect.Uint8:
		return func(p unsafe.Pointer) bool { return *(*uint8)(p) == 0 }
	case reflect.Int16, reflect.Uint16:
		return func(p unsafe.Pointer) bool { return *(*uint16)(p) == 0 }
	case reflect.Int32, reflect.Uint32:
		return func(p unsafe.Pointer) bool { return *(*uint32)(p) == 0 }
	case reflect.Int64, reflect.Uint64:
		return func(p unsafe.Pointer) bool { return *(*uint64)(p) == 0 }
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return func(p unsafe.Pointer) bool { return *(*uintptr)(p) == 0 }
	case reflect.String:
		return func(p unsafe.Pointer) bool { return len(*(*string)(p)) == 0 }
	case reflect.Pointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	}
	return nil
}
