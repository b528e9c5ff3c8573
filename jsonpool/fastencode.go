package jsonpool

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/bits"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
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

// encFn appends the JSON text of the value at p to b. ok is false when
// encoding/json would return an error for the value: b is then to be
// thrown away. html says whether <, > and & are escaped in strings.
type encFn func(b []byte, p unsafe.Pointer, html bool) (_ []byte, ok bool)

// encTopPlan is how a value stored in an interface is encoded: fn is nil
// when its type is unsupported; ptr says the interface holds a pointer,
// whose target fn encodes (nil is null).
type encTopPlan struct {
	fn  encFn
	ptr bool
}

// encPlans caches a *encTopPlan per reflect.Type (whose dynamic value is a
// pointer, so looking one up does not allocate).
var encPlans sync.Map

// encEface is the layout of an interface{} value.
type encEface struct {
	typ, data unsafe.Pointer
}

// encAppendFast appends the JSON encoding of v, as json.Encoder.Encode
// writes it without its newline, to b. handled is false when v's type has
// no plan or encoding/json would fail on v; b's appended bytes must then
// be discarded (b[:len(b) before the call]). It may write to b's spare
// capacity beyond what it appends (keys and strings are written as whole
// words), never past its capacity: b must be the encoder's own buffer, or
// memory nothing else reads.
func encAppendFast(b []byte, v any, html bool) (_ []byte, handled bool) {
	if v == nil {
		return b, false
	}
	t := reflect.TypeOf(v)
	var pl *encTopPlan
	if c, ok := encPlans.Load(t); ok {
		pl = c.(*encTopPlan)
	} else {
		pl = buildEncTopPlan(t)
		encPlans.Store(t, pl)
	}
	if pl.fn == nil {
		return b, false
	}
	p := (*encEface)(unsafe.Pointer(&v)).data
	if pl.ptr && p == nil {
		return append(b, "null"...), true
	}
	return pl.fn(b, p, html)
}

// encPtrSize is the size of a pointer, and of an interface's data word.
const encPtrSize = unsafe.Sizeof(uintptr(0))

func buildEncTopPlan(t reflect.Type) *encTopPlan {
	b := encPlanBuilder{visiting: map[reflect.Type]bool{}}
	if t.Kind() == reflect.Pointer {
		if fn := b.build(t.Elem()); fn != nil && !b.failed {
			return &encTopPlan{fn: fn, ptr: true}
		}
		return &encTopPlan{}
	}
	// A struct or array of pointer size may be stored in the interface's
	// data word itself rather than behind it (a struct of one pointer),
	// which the data word does not tell: leave those to encoding/json.
	// Every other kind the plan supports is stored behind the data word.
	if k := t.Kind(); (k == reflect.Struct || k == reflect.Array) && t.Size() == encPtrSize {
		return &encTopPlan{}
	}
	if fn := b.build(t); fn != nil && !b.failed {
		return &encTopPlan{fn: fn}
	}
	return &encTopPlan{}
}

// encPlanBuilder builds the encode functions of one top-level type.
type encPlanBuilder struct {
	visiting map[reflect.Type]bool // types being built: a recursive type is unsupported
	failed   bool
	plain    map[reflect.Type][]encPlainField // the fields of the plain structs built (see encPlainFields)
}

var (
	encTimeType    = reflect.TypeFor[time.Time]()
	encKitTimeType = reflect.TypeFor[Time]()
	encNumberType  = reflect.TypeFor[json.Number]() // a string encoding/json writes as a number
)

// encHasMethods reports whether t, or *t, has a method through which
// encoding/json (v1, or the v2 engine of GOEXPERIMENT=jsonv2) would
// encode it instead of by its kind: MarshalJSON, MarshalJSONTo,
// MarshalText, AppendText. The test is by name only, so that any method
// that might qualify sends the type to encoding/json.
func encHasMethods(t reflect.Type) bool {
	pt := reflect.PointerTo(t) // whose method set holds t's
	for _, name := range [...]string{"MarshalJSON", "MarshalJSONTo", "MarshalText", "AppendText"} {
		if _, ok := pt.MethodByName(name); ok {
			return true
		}
	}
	return false
}

// build returns t's encode function, or nil if t is unsupported.
func (pb *encPlanBuilder) build(t reflect.Type) encFn {
	if pb.failed {
		return nil
	}
	switch t {
	case encTimeType:
		return encTime
	case encKitTimeType:
		return encKitTime
	case encNumberType:
		pb.failed = true
		return nil
	}
	// A pointer type has no methods but its target's, checked when its
	// target is built.
	if t.Kind() != reflect.Pointer && encHasMethods(t) {
		pb.failed = true
		return nil
	}
	if pb.visiting[t] {
		pb.failed = true
		return nil
	}
	pb.visiting[t] = true
	defer delete(pb.visiting, t)

	var fn encFn
	switch t.Kind() {
	case reflect.Bool:
		fn = encBool
	case reflect.Int:
		fn = encInt
	case reflect.Int8:
		fn = encInt8
	case reflect.Int16:
		fn = encInt16
	case reflect.Int32:
		fn = encInt32
	case reflect.Int64:
		fn = encInt64
	case reflect.Uint:
		fn = encUint
	case reflect.Uint8:
		fn = encUint8
	case reflect.Uint16:
		fn = encUint16
	case reflect.Uint32:
		fn = encUint32
	case reflect.Uint64:
		fn = encUint64
	case reflect.Uintptr:
		fn = encUintptr
	case reflect.Float32:
		fn = encFloat32
	case reflect.Float64:
		fn = encFloat64
	case reflect.String:
		fn = encString
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

func (pb *encPlanBuilder) buildPointer(t reflect.Type) encFn {
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

// encSlice is the layout of a slice.
type encSlice struct {
	data     unsafe.Pointer
	len, cap int
}

func (pb *encPlanBuilder) buildSlice(t reflect.Type) encFn {
	et := t.Elem()
	if et.Kind() == reflect.Uint8 {
		// []byte, and slices of any byte kind without methods of its
		// own (checked by build below), are base64 text in encoding/json.
		if pb.build(et) == nil {
			return nil
		}
		return encBytes
	}
	elem := pb.build(et)
	if elem == nil {
		return nil
	}
	size := et.Size()
	if et.Kind() == reflect.String {
		// Strings, and slices of plain structs below, are written by a
		// loop of their own, without an indirect call per element.
		return encStrings
	}
	if plain := pb.plain[et]; plain != nil {
		return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
			s := (*encSlice)(p)
			if s.data == nil {
				return append(b, "null"...), true
			}
			b = append(b, '[')
			for i := 0; i < s.len; i++ {
				if i > 0 {
					b = append(b, ',')
				}
				var ok bool
				if b, ok = encPlainStruct(b, unsafe.Add(s.data, uintptr(i)*size), plain, html); !ok {
					return b, false
				}
			}
			return append(b, ']'), true
		}
	}
	return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
		s := (*encSlice)(p)
		if s.data == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i := 0; i < s.len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = elem(b, unsafe.Add(s.data, uintptr(i)*size), html); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	}
}

// encStrings writes a slice of a string kind without methods (build
// refuses those with methods).
func encStrings(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
	s := *(*[]string)(p)
	if s == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, e := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = encAppendString(b, e, html)
	}
	return append(b, ']'), true
}

func encBytes(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	s := *(*[]byte)(p)
	if s == nil {
		return append(b, "null"...), true
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, s)
	return append(b, '"'), true
}

func (pb *encPlanBuilder) buildArray(t reflect.Type) encFn {
	elem := pb.build(t.Elem())
	if elem == nil {
		return nil
	}
	n, size := t.Len(), t.Elem().Size()
	return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
		b = append(b, '[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = elem(b, unsafe.Add(p, uintptr(i)*size), html); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	}
}

// encField is how one struct field is encoded, or, with ptr set, the
// fields of a struct embedded through a pointer at off.
type encField struct {
	off  uintptr
	key  string // `"name":`
	fn   encFn
	omit func(p unsafe.Pointer) bool // nil: never omitted
	sub  []encField                  // the embedded struct's fields, at offsets from the pointer's target
	ptr  bool                        // an embedded *struct, whose fields are sub
	kind encKind                     // how fn writes the field
}

func (pb *encPlanBuilder) buildStruct(t reflect.Type) encFn {
	var names []string
	fields, ok := pb.structFields(t, 0, &names)
	if !ok {
		return nil
	}
	if plain := encPlainFields(fields); plain != nil {
		if pb.plain == nil {
			pb.plain = map[reflect.Type][]encPlainField{}
		}
		pb.plain[t] = plain
		return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
			return encPlainStruct(b, p, plain, html)
		}
	}
	return func(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
		b = append(b, '{')
		b, _, ok := encFields(b, p, fields, html, true)
		if !ok {
			return b, false
		}
		return append(b, '}'), true
	}
}

// encKind says how encPlainStruct writes a field: by its encFn, or, for
// the commonest kinds, itself, without the indirect call.
type encKind uint8

const (
	encKindFn encKind = iota
	encKindString
	encKindInt64
	encKindInt
	encKindBool
	encKindFloat64
)

// encKindOf returns the encKind of a field of type t whose encFn build
// returned: named types of these kinds have no methods that encoding/json
// would call (build refuses them), so their kind says how they encode.
func encKindOf(t reflect.Type) encKind {
	if t == encTimeType || t == encKitTimeType || t == encNumberType {
		return encKindFn
	}
	switch t.Kind() {
	case reflect.String:
		return encKindString
	case reflect.Int64:
		return encKindInt64
	case reflect.Int:
		return encKindInt
	case reflect.Bool:
		return encKindBool
	case reflect.Float64:
		return encKindFloat64
	}
	return encKindFn
}

// encPlainField is a field of a struct whose fields are all written, none
// omitted, none through an embedded pointer: its key is written with the
// byte before it, { for the first field and a comma for the others.
type encPlainField struct {
	off   uintptr
	pre   string    // `{"name":` or `,"name":`
	words [3]uint64 // pre in three words, zero-padded, if len(pre) <= encKeyWords
	kind  encKind
	fn    encFn
}

// encKeyWords is the longest pre written as the three words of
// encPlainField.words; a longer one is appended.
const encKeyWords = 24

// encPlainFields returns fields as encPlainStruct takes them, or nil if
// one of them may be omitted or is an embedded pointer's (or there are
// none).
func encPlainFields(fields []encField) []encPlainField {
	if len(fields) == 0 {
		return nil
	}
	plain := make([]encPlainField, len(fields))
	for i, f := range fields {
		if f.ptr || f.omit != nil {
			return nil
		}
		pre := "," + f.key
		if i == 0 {
			pre = "{" + f.key
		}
		pf := encPlainField{off: f.off, pre: pre, kind: f.kind, fn: f.fn}
		if len(pre) <= encKeyWords {
			var w [encKeyWords]byte
			copy(w[:], pre)
			for j := range pf.words {
				pf.words[j] = binary.LittleEndian.Uint64(w[8*j:])
			}
		}
		plain[i] = pf
	}
	return plain
}

// encRoom is the spare capacity encPlainStruct makes before each field:
// enough for a key written as three words and, after the longest such
// key, any integer (encMaxInt bytes). A longer key makes room for itself
// and an integer (encAppendLongKey).
const encRoom = 48

// encMaxInt is the longest decimal text of an int64: a sign and 19
// digits.
const encMaxInt = 20

// The room encRoom leaves after a key written as words must hold any
// integer: if it did not, this constant would overflow uint, and the
// package would not compile.
const _ = uint(encRoom - encKeyWords - encMaxInt)

// encPlainStruct writes the struct at p, of fields, with the closing
// brace. It writes keys as whole words, which may write bytes of b's
// spare capacity beyond what it appends: b is the encoder's own buffer,
// never a caller's.
func encPlainStruct(b []byte, p unsafe.Pointer, fields []encPlainField, html bool) (_ []byte, ok bool) {
	for i := range fields {
		f := &fields[i]
		if cap(b)-len(b) < encRoom {
			b = encGrow(b, encRoom)
		}
		if k := len(f.pre); k <= encKeyWords {
			// The three words are within b's spare capacity: encRoom >=
			// encKeyWords bytes, made just above.
			n := len(b)
			w := (*[encKeyWords]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n))
			binary.LittleEndian.PutUint64(w[0:8], f.words[0])
			binary.LittleEndian.PutUint64(w[8:16], f.words[1])
			binary.LittleEndian.PutUint64(w[16:24], f.words[2])
			b = b[:n+k]
		} else {
			b = encAppendLongKey(b, f.pre)
		}
		// Here b has encMaxInt bytes of spare capacity at least: after a
		// key of encKeyWords bytes or fewer, encRoom-encKeyWords >=
		// encMaxInt (checked when compiling, next to encMaxInt) of the
		// room made before it; after a longer key, made by
		// encAppendLongKey.
		fp := unsafe.Add(p, f.off)
		switch f.kind {
		case encKindString:
			b = encAppendString(b, *(*string)(fp), html)
		case encKindInt64, encKindInt:
			// Written here, not by a call (which would cost the loop's
			// state reloaded after it), in place, into the encMaxInt
			// bytes of spare capacity the key left (see above): the
			// sign and the digits are stored in b[n:n+encMaxInt] at
			// most.
			var v int64
			if f.kind == encKindInt64 {
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
			l := encDecimalLen(u)
			encPutDecimal(d, l, u)
			b = b[:n+l]
		case encKindBool:
			if *(*bool)(fp) {
				b = append(b, "true"...)
			} else {
				b = append(b, "false"...)
			}
		case encKindFloat64:
			v := *(*float64)(fp)
			if a := math.Abs(v); a >= 1e-6 && a < encMaxShort { // neither NaN nor infinite
				var short []byte
				if short, ok = encAppendShortDecimal(b, v, a); ok {
					b = short
					continue
				}
			}
			if b, ok = encAppendFloatStrconv(b, v, 64); !ok {
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

// encAppendLongKey appends pre, a key longer than encKeyWords bytes, to b,
// with encMaxInt bytes of spare capacity after it at least.
func encAppendLongKey(b []byte, pre string) []byte {
	if cap(b)-len(b) < len(pre)+encMaxInt {
		b = encGrow(b, len(pre)+encMaxInt)
	}
	return append(b, pre...)
}

// encFields appends fields of the struct at p, each after a comma unless
// it is the first written (first says whether none was before the call),
// and reports whether none was written yet after it.
func encFields(b []byte, p unsafe.Pointer, fields []encField, html, first bool) (_ []byte, stillFirst, ok bool) {
	for i := range fields {
		f := &fields[i]
		fp := unsafe.Add(p, f.off)
		if f.ptr {
			// Fields of a struct embedded through a pointer: none when
			// it is nil, as in encoding/json.
			if q := *(*unsafe.Pointer)(fp); q != nil {
				if b, first, ok = encFields(b, q, f.sub, html, first); !ok {
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
func (pb *encPlanBuilder) structFields(t reflect.Type, base uintptr, names *[]string) ([]encField, bool) {
	var fields []encField
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
				et == encTimeType || et == encKitTimeType || encHasMethods(et) || pb.visiting[et] {
				return nil, false
			}
			pb.visiting[et] = true
			if sf.Type.Kind() == reflect.Pointer {
				sub, ok := pb.structFields(et, 0, names)
				if !ok {
					return nil, false
				}
				fields = append(fields, encField{off: base + sf.Offset, sub: sub, ptr: true})
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
		if !encPlainName(name) {
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
		f := encField{off: base + sf.Offset, key: `"` + name + `":`, fn: fn, kind: encKindOf(sf.Type)}
		if omitEmpty {
			f.omit = encEmptyFunc(sf.Type)
			if f.omit == nil {
				return nil, false
			}
		}
		if omitZero {
			z := encZeroFunc(sf.Type)
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

// encPlainName reports whether a field name is one that encoding/json
// accepts as a tag name and writes as it is, escaping nothing in any
// mode: letters, digits and punctuation other than quotes, backslashes
// and the HTML characters <, > and &.
func encPlainName(name string) bool {
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

// encEmptyFunc returns the test of encoding/json's omitempty for a field of
// type t: false, 0, a nil pointer, an empty string or slice, an array of
// length 0. Structs are never empty. nil means t is not handled.
func encEmptyFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Struct:
		return func(unsafe.Pointer) bool { return false }
	case reflect.Array:
		empty := t.Len() == 0
		return func(unsafe.Pointer) bool { return empty }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*encSlice)(p).len == 0 }
	case reflect.Float32:
		return func(p unsafe.Pointer) bool { return *(*float32)(p) == 0 }
	case reflect.Float64:
		return func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	}
	return encZeroKindFunc(t)
}

// encZeroFunc returns the test of encoding/json's omitzero for a field of
// type t: its IsZero method for the two time types, reflect.Value.IsZero
// (floats compare equal to 0, so -0 is zero) for the rest. nil means t is
// not handled: another type with an IsZero method.
func encZeroFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t {
	case encTimeType:
		return func(p unsafe.Pointer) bool { return (*time.Time)(p).IsZero() }
	case encKitTimeType:
		return func(p unsafe.Pointer) bool { return (*Time)(p).IsZero() }
	}
	if _, ok := reflect.PointerTo(t).MethodByName("IsZero"); ok {
		return nil
	}
	if _, ok := t.MethodByName("IsZero"); ok {
		return nil
	}
	return encValueZeroFunc(t)
}

// encValueZeroFunc returns reflect.Value.IsZero for a value of type t, of
// any kind, read in place: floats and complex numbers compare equal to 0
// (so -0 is zero), strings are empty, slices, pointers, maps, channels,
// functions and interfaces nil, arrays and structs zero in every element
// and field, blank (_) fields aside. Methods play no part: a time.Time
// inside a struct is zero only with no location either, as in reflect.
func encValueZeroFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*encSlice)(p).data == nil }
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
		return func(p unsafe.Pointer) bool { return (*encEface)(p).typ == nil }
	case reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Array:
		n, size := t.Len(), t.Elem().Size()
		elem := encValueZeroFunc(t.Elem())
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
			parts = append(parts, part{sf.Offset, encValueZeroFunc(sf.Type)})
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
	return encZeroKindFunc(t) // booleans, integers, strings, pointers
}

// encZeroKindFunc returns a test for the zero value of a bool, integer,
// string or pointer type, nil for any other kind.
func encZeroKindFunc(t reflect.Type) func(unsafe.Pointer) bool {
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

// ---- scalars ----

func encBool(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	if *(*bool)(p) {
		return append(b, "true"...), true
	}
	return append(b, "false"...), true
}

func encInt(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int)(p))), true
}

func encInt8(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int8)(p))), true
}

func encInt16(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int16)(p))), true
}

func encInt32(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int32)(p))), true
}

func encInt64(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, *(*int64)(p)), true
}

func encUint(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint)(p))), true
}

func encUint8(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint8)(p))), true
}

func encUint16(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint16)(p))), true
}

func encUint32(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint32)(p))), true
}

func encUint64(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, *(*uint64)(p)), true
}

func encUintptr(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uintptr)(p))), true
}

func encFloat32(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendFloat(b, float64(*(*float32)(p)), 32)
}

func encFloat64(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendFloat(b, *(*float64)(p), 64)
}

// encAppendFloat formats f as encoding/json does: the shortest decimal that
// reads back as the same float of the given bit size, in plain notation
// from 1e-6 up to but excluding 1e21 (and for zero), in exponent notation
// outside that range with a one-digit negative exponent left unpadded
// (1e-7, not 1e-07). NaN and the infinities are errors in encoding/json:
// ok is false.
func encAppendFloat(b []byte, f float64, bits int) ([]byte, bool) {
	if bits == 64 {
		if a := math.Abs(f); a >= 1e-6 && a < encMaxShort { // neither NaN nor infinite
			if out, ok := encAppendShortDecimal(b, f, a); ok {
				return out, true
			}
		}
	}
	return encAppendFloatStrconv(b, f, bits)
}

// encAppendFloatStrconv is encAppendFloat through strconv alone, for a
// float encAppendShortDecimal does not take.
func encAppendFloatStrconv(b []byte, f float64, bits int) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 {
		if bits == 64 && (a < 1e-6 || a >= 1e21) ||
			bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// strconv pads the exponent to two digits: e-07 becomes e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// encMaxShort bounds the floats encAppendShortDecimal formats, and the
// integers n it tries: below 10^15, a float64's spacing is less than half
// of 10^-k at the magnitude of any n/10^k.
const encMaxShort = 1e15

// encPow10 are the powers of ten encAppendShortDecimal tries, all exact
// float64s.
var encPow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

var encPow10Int = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

// encAppendShortDecimal formats f (a = |f|, 1e-6 <= a < 10^15) as
// strconv.AppendFloat(b, f, 'f', -1, 64) does, without its shortest-digit
// search, when f is the float nearest to a decimal n/10^k with few digits
// (n < 10^15, k <= 12), as prices, weights and ratings are; ok is false
// otherwise, and b unchanged.
//
// Why the output is strconv's: for the smallest k such that
// float64(n)/10^k == a with n = round(a*10^k), the decimal n/10^k reads
// back as a (IEEE division and strconv's parsing both round correctly),
// and it is the only decimal of k places that does, since floats around
// a are less than 10^-k apart; a*10^k is computed within 0.5 of n, so
// the smallest such k is not missed, and n has no trailing zero (else a
// smaller k would have matched). The shortest round-tripping decimal is
// therefore n/10^k, which is what strconv writes. The rounding is to
// nearest, ties to even (one instruction where math.Round is a call): a
// tie, a*10^k computed exactly half-way between two integers, is never
// within 0.5 of an integer n that passes the test, and whichever
// neighbour it picks is checked by the division like any other.
func encAppendShortDecimal(b []byte, f, a float64) ([]byte, bool) {
	for k := 0; k < len(encPow10); k++ {
		p := encPow10[k]
		n := math.RoundToEven(a * p)
		if n >= encMaxShort {
			return b, false
		}
		if n/p != a {
			continue
		}
		u := uint64(n)
		// At most a sign, 15 digits and a point.
		if cap(b)-len(b) < 17 {
			b = encGrow(b, 17)
		}
		at := len(b)
		d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)
		if f < 0 {
			*(*byte)(d) = '-'
			d = unsafe.Add(d, 1)
			at++
		}
		if k == 0 {
			l := encDecimalLen(u)
			encPutDecimal(d, l, u)
			return b[:at+l], true
		}
		// The integer part's digits, then the k places as the last k
		// digits of u%10^k + 10^k, whose leading 1 the point replaces.
		// u < 10^15, so all of it fits in the 17 bytes made room for.
		pk := encPow10Int[k]
		ip, fp := u/pk, u%pk
		l := encDecimalLen(ip)
		encPutDecimal(unsafe.Add(d, l), 1+k, fp+pk)
		encPutDecimal(d, l, ip)
		*(*byte)(unsafe.Add(d, l)) = '.'
		return b[:at+l+1+k], true
	}
	return b, false
}

// ---- strings ----

// Bytes below utf8.RuneSelf that need no escape: encPlainASCII in either
// mode, plus <, > and & when html is false.
var encPlainASCII, encPlainASCIINoHTML [utf8.RuneSelf]bool

func init() {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain := c != '"' && c != '\\'
		encPlainASCIINoHTML[c] = plain
		encPlainASCII[c] = plain && c != '<' && c != '>' && c != '&'
	}
}

const encHex = "0123456789abcdef"

func encString(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
	return encAppendString(b, *(*string)(p), html), true
}

// encAppendString appends s as a JSON string the way encoding/json writes it:
// quotes and backslashes escaped, \b \f \n \r \t in their short forms,
// other bytes below 0x20 as \u00XX, <, > and & as \u003c, \u003e and
// \u0026 when html is set, U+2028 and U+2029 always escaped, and each byte
// of invalid UTF-8 replaced by \ufffd.
//
// Most strings need no escape at all. encAppendString makes room for the
// whole string and its quotes once, then copies it eight bytes at a time,
// testing each word as it goes (a string shorter than eight in one word
// of overlapping loads); the first word that needs an escape hands over
// to encAppendStringFrom, which writes the string again from its opening
// quote. The words are stored whole, so it may write b's spare capacity
// beyond what it appends (never beyond its capacity): b is the encoder's
// own buffer, or memory nothing else reads.
func encAppendString(b []byte, s string, html bool) []byte {
	n := len(s)
	if cap(b)-len(b) < n+encStringRoom {
		b = encGrow(b, n+encStringRoom)
	}
	k := &encWordNoHTML
	if html {
		k = &encWordHTML
	}
	at := len(b)
	// Every store below is within b[at:at+n+2], which the room made
	// above holds: the opening quote at at, the words of s at
	// at+1+i for i+8 <= n, the closing quote at at+1+n.
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)
	*(*byte)(d) = '"'
	if n >= 8 {
		// The words at 0, 8, ... before the last, then the last eight
		// bytes, overlapping the word before unless n is a multiple of 8.
		p := unsafe.Pointer(unsafe.StringData(s))
		for i := 0; i < n-8; i += 8 {
			x := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
			binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(d, 1+i))[:], x)
			if !k.plain(x) {
				return encAppendStringFrom(b[:at+1], s, i, html)
			}
		}
		x := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, n-8))[:])
		binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(d, n-7))[:], x)
		if !k.plain(x) {
			return encAppendStringFrom(b[:at+1], s, n-8, html)
		}
	} else if n >= 4 {
		lo, hi := encLoad4(s[:4]), encLoad4(s[n-4:])
		if !k.plain(uint64(lo) | uint64(hi)<<32) {
			return encAppendStringFrom(b[:at+1], s, 0, html)
		}
		binary.LittleEndian.PutUint32((*[4]byte)(unsafe.Add(d, 1))[:], lo)
		binary.LittleEndian.PutUint32((*[4]byte)(unsafe.Add(d, n-3))[:], hi)
	} else if n > 0 {
		c0, c1, c2 := s[0], s[n>>1], s[n-1]
		if !k.plain(uint64(c0) | uint64(c1)<<8 | uint64(c2)<<16 | 0x6161616161<<24) {
			return encAppendStringFrom(b[:at+1], s, 0, html)
		}
		*(*byte)(unsafe.Add(d, 1)) = c0
		*(*byte)(unsafe.Add(d, 1+n>>1)) = c1
		*(*byte)(unsafe.Add(d, n)) = c2
	}
	*(*byte)(unsafe.Add(d, n+1)) = '"'
	return b[:at+n+2]
}

// encStringRoom is the spare capacity encAppendString makes beyond the
// string's length: its two quotes.
const encStringRoom = 2

// encWord holds the constants of encWord.plain for one mode. They are
// read from memory, not written as constants: on amd64 a 64-bit
// immediate costs an instruction of its own at every use, where a load
// folds into the operation that uses it; and the mode is then a choice
// of constants, not a branch per word.
type encWord struct {
	lo7, c60, bs, q, qm, lt, ltm uint64
}

// encWordHTML tests for ", &, < and > (and the rest) in html mode;
// encWordNoHTML tests for the quote alone, twice.
var (
	encWordHTML   = encWord{0x7f * encOnes, 0x60 * encOnes, '\\' * encOnes, '"' * encOnes, 0x7b * encOnes, '<' * encOnes, 0x7d * encOnes}
	encWordNoHTML = encWord{0x7f * encOnes, 0x60 * encOnes, '\\' * encOnes, '"' * encOnes, 0x7f * encOnes, '"' * encOnes, 0x7f * encOnes}
)

// plain reports whether the eight bytes of x (the first in the low byte)
// all need no escape: each is ASCII from 0x20 up, not a quote or a
// backslash, nor <, > or & in html mode.
//
// When every byte is below 0x80 no byte of the sums carries into the
// next: x+0x60 has its high bit set for a byte of 0x20 and above, and
// y+0x7f for y (of seven bits) other than 0, so the AND of the tests
// has the high bit of every plain byte set and of no other. The quote
// (0x22) and & (0x26) differ in bit 2 only, < (0x3c) and > (0x3e) in
// bit 1 only: masking that bit out after the XOR (qm, ltm) makes both
// bytes of each pair zero at once; without html the quote is tested
// twice, so that & is not flagged. A byte of 0x80 and above clears its
// own high bit through &^x, whatever the carries into it: the word is
// then not plain, as it should be.
func (k *encWord) plain(x uint64) bool {
	lo7 := k.lo7
	ok := (x + k.c60) & ((x ^ k.bs) + lo7) & (((x ^ k.q) & k.qm) + lo7) & (((x ^ k.lt) & k.ltm) + lo7)
	return ok&^x|lo7 == ^uint64(0)
}

// encLoad4 returns the first four bytes of s, the first in the low byte.
func encLoad4(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// encAppendStringFrom appends the rest of s's text, from an opening quote
// already written on: s[:i] needs no escape.
func encAppendStringFrom(b []byte, s string, i int, html bool) []byte {
	plain := &encPlainASCII
	if !html {
		plain = &encPlainASCIINoHTML
	}
	start := 0
	for i < len(s) {
		if len(s) >= 8 {
			// Find the next byte from i on that may need an escape, eight
			// bytes at a time: the window s[w:w+8] starts at i, or ends at
			// s's end when fewer than eight bytes are left, and the bytes
			// of it before i are shifted out. The mask may flag a plain
			// byte above one that truly needs an escape (a borrow), which
			// the byte test below passes over; it flags every byte that
			// needs an escape.
			w := min(i, len(s)-8)
			m := encUnplain(encLoad8(s[w:w+8]), html) >> (8 * uint(i-w) & 63)
			if m == 0 {
				i = w + 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', encHex[c>>4], encHex[c&0xf])
			}
			i++
			start = i
			continue
		}
		if c >= 0xc2 && c <= 0xdf && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
			// A valid two-byte sequence (U+0080 to U+07FF), written as
			// it is.
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, encInvalidUTF8...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', encHex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Word-at-a-time tests on eight bytes in a uint64: a byte of y is zero
// exactly when the corresponding high bit of (y-encOnes)&^y is set in
// the lowest such byte (above it, a byte of 1 may be flagged too, by the
// borrow), so the result is 0 exactly when no byte is zero.
const (
	encOnes  = 0x0101010101010101
	encHighs = 0x8080808080808080
)

// encUnplain8 returns, for the eight bytes of s (len(s) == 8), a mask
// with the high bit of each byte's position set for every byte that is
// not ASCII needing no escape: control bytes, quotes, backslashes, bytes of
// 0x80 and above, and <, > and & if html. The lowest set bit is exact;
// above it a plain byte may be flagged too (a borrow from the byte below).
func encUnplain8(s string, html bool) uint64 {
	return encUnplain(encLoad8(s), html)
}

// encUnplain is encUnplain8 on the eight bytes of x, the first in the low
// byte. Its mask is exact: it flags no plain byte.
//
// With x7 the low seven bits of each byte, no byte of the sums below
// carries into the next: x7+0x60 has its high bit set for x7 of 0x20 and
// above, and y+0x7f for y other than 0 (y of seven bits). The quote
// (0x22) and & (0x26) differ in bit 2 only, < (0x3c) and > (0x3e) in bit
// 1 only: masking that bit out after the XOR makes both bytes of each
// pair zero at once. Without html the quote is tested alone, so that &
// is not flagged. Bytes of 0x80 and above are flagged by their own high
// bit.
func encUnplain(x uint64, html bool) uint64 {
	const lo7 = 0x7f * encOnes
	x7 := x & lo7
	ok := (x7 + 0x60*encOnes) & ((x7 ^ '\\'*encOnes) + lo7)
	if html {
		ok &= ((x7^'"'*encOnes)&(0x7b*encOnes) + lo7) & ((x7^'<'*encOnes)&(0x7d*encOnes) + lo7)
	} else {
		ok &= (x7 ^ '"'*encOnes) + lo7
	}
	return (^ok | x) & encHighs
}

// encLoad8 returns the first eight bytes of s, the first in the low byte.
func encLoad8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// ---- times ----

func encTime(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendTime(b, (*time.Time)(p))
}

func encKitTime(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendTime(b, &(*Time)(p).Time)
}

// encAppendTime appends what t.MarshalJSON returns to b, as appendTimeJSON
// does. A time in UTC (the commonest in a response), of a year from 0 to
// 9999, it writes itself, as time.RFC3339Nano formats it: the date and
// the clock, a point and the nanoseconds with no trailing zero unless
// they are 0, and Z. The rest, other zones and the errors included, are
// appendTimeJSON's.
func encAppendTime(b []byte, t *time.Time) ([]byte, bool) {
	if t.Location() != time.UTC {
		return appendTimeJSON(b, *t)
	}
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return appendTimeJSON(b, *t)
	}
	h, mi, s := t.Clock()
	ns := t.Nanosecond()
	// "2006-01-02T15:04:05.999999999Z" and its quotes: 32 bytes.
	if cap(b)-len(b) < 32 {
		b = encGrow(b, 32)
	}
	at := len(b)
	w := (*[32]byte)(b[at : at+32])
	w[0] = '"'
	w[1], w[2] = encPairs[y/100][0], encPairs[y/100][1]
	w[3], w[4] = encPairs[y%100][0], encPairs[y%100][1]
	w[5] = '-'
	w[6], w[7] = encPairs[mo][0], encPairs[mo][1]
	w[8] = '-'
	w[9], w[10] = encPairs[d][0], encPairs[d][1]
	w[11] = 'T'
	w[12], w[13] = encPairs[h][0], encPairs[h][1]
	w[14] = ':'
	w[15], w[16] = encPairs[mi][0], encPairs[mi][1]
	w[17] = ':'
	w[18], w[19] = encPairs[s][0], encPairs[s][1]
	n := 20
	if ns != 0 {
		// The nine digits of ns, zero-padded, as the last nine of
		// ns+10^9, whose leading 1 the point replaces; then no
		// trailing zero (ns is not 0, so a digit other than 0 stays).
		encPutDecimal(unsafe.Pointer(&w[20]), 10, uint64(ns)+1e9)
		w[20] = '.'
		n = 30
		for w[n-1] == '0' {
			n--
		}
	}
	w[n] = 'Z'
	w[n+1] = '"'
	return b[:at+n+2], true
}

// encAppendIndent appends src, compact JSON as the fast path writes it
// (one value and a newline), to dst indented as json.Encoder's SetIndent
// does: a newline, prefix and one indent per level of nesting before each
// element and each closing bracket, a space after each colon, empty
// objects and arrays left as {} and [], no prefix before the first line,
// and the final newline kept.
func encAppendIndent(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	open := false // a { or [ was just written: indent before what follows unless it closes
	inString := false
	newline := func(dst []byte, depth int) []byte {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for i := 0; i < depth; i++ {
			dst = append(dst, indent...)
		}
		return dst
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			dst = append(dst, c)
			switch c {
			case '\\':
				i++
				dst = append(dst, src[i])
			case '"':
				inString = false
			}
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = newline(dst, depth)
		}
		switch c {
		case '"':
			inString = true
			dst = append(dst, c)
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = newline(dst, depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newline(dst, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
