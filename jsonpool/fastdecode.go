package jsonpool

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/poolkit/poolkit/pool"
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

// fastDecoder is the state of one fast decode.
type fastDecoder struct {
	data    []byte
	i       int
	nest    int    // the arrays and objects open around d.i
	scratch []byte // unescaped strings and keys
	// undo, when logging, holds each slice header the decode replaced,
	// as it was before, in order, so that a decode of invalid input can
	// put them back: see fastDecode.
	logging bool
	undo    []sliceUndo
}

// sliceUndo is a slice header as it was before the fast path replaced it.
type sliceUndo struct {
	at unsafe.Pointer // *sliceHeader
	h  sliceHeader
}

// save logs the header at h, which the caller is about to replace.
func (d *fastDecoder) save(h *sliceHeader) {
	if d.logging {
		d.undo = append(d.undo, sliceUndo{unsafe.Pointer(h), *h})
	}
}

// maxScratch is the largest scratch buffer a fastDecoder keeps in its pool,
// and maxUndo the longest undo log.
const (
	maxScratch = 64 << 10
	maxUndo    = 1 << 10
)

// fastResult is the outcome of fastDecode.
type fastResult uint8

const (
	fastDone    fastResult = iota // decoded; the document is valid
	fastValid                     // not decoded; isValid accepts the document
	fastInvalid                   // not decoded; isValid refuses the document
)

var fastDecoders = pool.New(func() *fastDecoder { return new(fastDecoder) })

// fastDecode decodes data into *v, which is zero or cleared by Clear, and
// returns fastDone if it did: data is then one JSON value with white space
// around it, which isValid accepts, and *v holds the value json.Unmarshal
// would produce. Otherwise it returns fastValid or fastInvalid, whether
// isValid accepts data, and *v may hold part of the value: it must be
// zeroed or cleared again before encoding/json decodes into it.
//
// With undo set, fastDecode returning fastInvalid first puts back every
// slice header in *v that it replaced (by growing, or setting to nil or to
// empty), so that clearing *v then gives what clearing it before the call
// gave, capacities and nil slices included: a syntax error leaves the
// target as if nothing had been decoded, as encoding/json, which checks
// the whole document first, leaves it. Values it wrote and pointers it set
// are erased by the clearing itself; with undo unset the caller zeroes *v,
// which erases everything.
func fastDecode[T any](data []byte, v *T, undo bool) fastResult {
	// Not reflect.TypeFor[T](), which on Go 1.24 boxes a zero T: an
	// allocation per call for a T larger than a pointer.
	p := decodePlanOf(reflect.TypeOf((*T)(nil)).Elem())
	if p == nil {
		return validity(data)
	}
	d := fastDecoders.Get()
	d.data, d.i, d.nest, d.logging = data, 0, 0, undo
	r := fastDone
	if !d.value(p, unsafe.Pointer(v), 0) || d.skipSpace() != len(data) {
		if r = validity(data); r == fastInvalid {
			for k := len(d.undo) - 1; k >= 0; k-- {
				*(*sliceHeader)(d.undo[k].at) = d.undo[k].h
			}
		}
	}
	d.data = nil // pin nothing of the caller's
	clear(d.undo)
	d.undo = d.undo[:0]
	if cap(d.scratch) <= maxScratch && cap(d.undo) <= maxUndo {
		fastDecoders.Put(d)
	}
	return r
}

// validity returns fastValid if isValid accepts data, else fastInvalid.
func validity(data []byte) fastResult {
	if isValid(data) {
		return fastValid
	}
	return fastInvalid
}

// maxFastDepth bounds the depth of the types the fast path follows (a
// pointer adds a level). The JSON nesting, d.nest, is bound by
// maxValidDepth, as in isValid, so that the fast path succeeds only on
// documents isValid accepts.
const maxFastDepth = 2 * maxValidDepth

func (d *fastDecoder) skipSpace() int {
	if i := d.i; i < len(d.data) && d.data[i] > ' ' {
		return i // no white space, the common case
	}
	return d.skipSpaceSlow()
}

func (d *fastDecoder) skipSpaceSlow() int {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return d.i
		}
	}
	return d.i
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

// emptyArray is where an empty, non-nil slice decoded from [] points, as
// reflect.MakeSlice's slices of capacity 0 point at the runtime's own.
var emptyArray [0]uint64

// value decodes the value at d.i into the value of p's type at ptr. Every
// store through ptr is of that type, as p.kind (and p.bits) say, so it
// lies within the value; the fields and elements below it are reached at
// their offsets in reflect's layout of the type, and a slice's elements
// only below its capacity (see array).
func (d *fastDecoder) value(p *dplan, ptr unsafe.Pointer, depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	i := d.skipSpace()
	if i >= len(d.data) {
		return false
	}
	c := d.data[i]
	if c == 'n' {
		if literalEnd(d.data, i, "null") < 0 {
			return false
		}
		d.i = i + 4
		// null sets slices and pointers to nil, and leaves the rest
		// (time.Time's UnmarshalJSON included) as they are.
		switch p.kind {
		case dSlice:
			if h := (*sliceHeader)(ptr); h.data != nil {
				d.save(h)
				*h = sliceHeader{}
			}
		case dPtr:
			*(*unsafe.Pointer)(ptr) = nil
		}
		return true
	}
	switch p.kind {
	case dBool:
		switch c {
		case 't':
			if literalEnd(d.data, i, "true") < 0 {
				return false
			}
			*(*bool)(ptr) = true
			d.i = i + 4
		case 'f':
			if literalEnd(d.data, i, "false") < 0 {
				return false
			}
			*(*bool)(ptr) = false
			d.i = i + 5
		default:
			return false
		}
		return true
	case dInt, dUint:
		return d.integer(p, ptr, i)
	case dFloat32, dFloat64:
		if p.kind == dFloat64 {
			if f, end, ok := shortFloat64(d.data, i); ok {
				*(*float64)(ptr) = f
				d.i = end
				return true
			}
		}
		if c != '-' && !isDigit(c) {
			return false
		}
		end := numberEnd(d.data, i)
		if end < 0 {
			return false
		}
		d.i = end
		return storeNumber(p, ptr, d.data[i:end])
	case dString:
		if c != '"' {
			return false
		}
		s, ok := d.str()
		if ok {
			*(*string)(ptr) = s
		}
		return ok
	case dTime:
		if c != '"' {
			return false
		}
		end := stringEnd(d.data, i)
		if end < 0 {
			return false
		}
		d.i = end
		return (*time.Time)(ptr).UnmarshalJSON(d.data[i:end]) == nil
	case dPtr:
		if *(*unsafe.Pointer)(ptr) == nil {
			*(*unsafe.Pointer)(ptr) = reflect.New(p.typ.Elem()).UnsafePointer()
		}
		return d.value(p.elem, *(*unsafe.Pointer)(ptr), depth+1)
	case dStruct:
		if c != '{' || d.nest >= maxValidDepth {
			return false
		}
		d.i = i + 1
		d.nest++
		ok := d.object(p, ptr, depth)
		d.nest--
		return ok
	case dSlice:
		if c != '[' || d.nest >= maxValidDepth {
			return false
		}
		d.i = i + 1
		d.nest++
		ok := d.array(p, ptr, depth)
		d.nest--
		return ok
	}
	return false
}

// integer decodes the number at i into the integer of p's type at ptr, in
// one pass over its digits, and reports false, leaving the decision to
// encoding/json, for anything but an integer in the type's range in JSON's
// syntax: a fraction or exponent, a leading zero, a sign on an unsigned
// type (-0 too, which strconv.ParseUint refuses), more than 19 digits.
func (d *fastDecoder) integer(p *dplan, ptr unsafe.Pointer, i int) bool {
	data := d.data
	neg := data[i] == '-'
	if neg {
		if p.kind == dUint {
			return false
		}
		i++
	}
	start := i
	var u uint64
	for ; i < len(data) && isDigit(data[i]); i++ {
		u = u*10 + uint64(data[i]-'0') // wraps past 19 digits, refused below
	}
	n := i - start
	if n == 0 || n > 19 || n > 1 && data[start] == '0' {
		return false
	}
	if i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E') {
		return false
	}
	d.i = i
	return storeInteger(p, ptr, u, neg)
}

// storeInteger stores u, negated if neg, into the integer of p's type at
// ptr, and reports false if it is out of the type's range.
func storeInteger(p *dplan, ptr unsafe.Pointer, u uint64, neg bool) bool {
	if p.kind == dUint {
		if p.bits < 64 && u>>p.bits != 0 {
			return false
		}
		switch p.bits {
		case 8:
			*(*uint8)(ptr) = uint8(u)
		case 16:
			*(*uint16)(ptr) = uint16(u)
		case 32:
			*(*uint32)(ptr) = uint32(u)
		default:
			*(*uint64)(ptr) = u
		}
		return true
	}
	limit := uint64(1) << (p.bits - 1) // |min| of the type
	if !neg && u >= limit || neg && u > limit {
		return false
	}
	n := int64(u)
	if neg {
		n = -n
	}
	switch p.bits {
	case 8:
		*(*int8)(ptr) = int8(n)
	case 16:
		*(*int16)(ptr) = int16(n)
	case 32:
		*(*int32)(ptr) = int32(n)
	default:
		*(*int64)(ptr) = n
	}
	return true
}

// storeNumber stores the number num, which has JSON's number syntax, into
// the float of p's type at ptr, as encoding/json does, and reports false
// where encoding/json reports an error: a number out of range.
func storeNumber(p *dplan, ptr unsafe.Pointer, num []byte) bool {
	switch p.kind {
	case dFloat32:
		f, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 32)
		if err != nil {
			return false
		}
		*(*float32)(ptr) = float32(f)
		return true
	case dFloat64:
		f, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64)
		if err != nil {
			return false
		}
		*(*float64)(ptr) = f
		return true
	}
	return false
}

// float64Pow10 holds the powers of ten that a float64 holds exactly.
var float64Pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// shortFloat64 reads the number at data[i] in one pass, if it is a JSON
// number without an exponent and of at most 15 digits, and returns the
// float64 nearest to it, the index after it, and true; for anything else
// (an exponent, more digits, or bytes that are not a JSON number, such as a
// leading zero before a digit or a point without digits) it returns false
// and leaves the number to numberEnd and strconv.ParseFloat. Its digits as
// an integer m are below 2^53 and its fraction has k <= 15 digits, so m and
// 10^k are exact float64s and m / 10^k, one IEEE division, is the nearest
// float64 to the number, as strconv.ParseFloat returns (whose own fast path
// is the same), without the cost of its general parse.
func shortFloat64(data []byte, i int) (float64, int, bool) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	var m uint64
	for ; i < len(data) && isDigit(data[i]); i++ {
		m = m*10 + uint64(data[i]-'0') // wraps past 19 digits, refused below
	}
	digits := i - start
	if digits == 0 || digits > 1 && data[start] == '0' {
		return 0, 0, false
	}
	frac := 0
	if i < len(data) && data[i] == '.' {
		i++
		fstart := i
		for ; i < len(data) && isDigit(data[i]); i++ {
			m = m*10 + uint64(data[i]-'0')
		}
		if frac = i - fstart; frac == 0 {
			return 0, 0, false
		}
	}
	if digits+frac > 15 || i < len(data) && (data[i] == 'e' || data[i] == 'E' || data[i] == '.') {
		return 0, 0, false
	}
	f := float64(m)
	if frac > 0 {
		f /= float64Pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, i, true
}

// object decodes the members of the object whose '{' is before d.i into
// the struct of p's type at ptr.
func (d *fastDecoder) object(p *dplan, ptr unsafe.Pointer, depth int) bool {
	var seen uint64
	next := 0 // the field after the last one set: members tend to come in order
	i := d.skipSpace()
	if i < len(d.data) && d.data[i] == '}' {
		d.i = i + 1
		return true
	}
	for {
		i := d.skipSpace()
		if i >= len(d.data) || d.data[i] != '"' {
			return false
		}
		f := -1
		if next < len(p.fields) {
			// The next field's name, then a quote, is the whole key:
			// a name holds no quote, backslash or control byte.
			name := p.fields[next].name
			if e := i + 1 + len(name); e < len(d.data) && d.data[e] == '"' && string(d.data[i+1:e]) == name {
				f = next
				d.i = e + 1
			}
		}
		if f < 0 {
			var ok bool
			if f, ok = d.member(p); !ok {
				return false
			}
		}
		i = d.skipSpace()
		if i >= len(d.data) || d.data[i] != ':' {
			return false
		}
		d.i = i + 1
		if f < 0 {
			if !d.skipValue() {
				return false
			}
		} else {
			fp := &p.fields[f]
			if seen&fp.once != 0 {
				return false // a repeated key would merge into the field
			}
			seen |= fp.once
			if !d.value(fp.plan, unsafe.Add(ptr, fp.off), depth+1) {
				return false
			}
			next = f + 1
		}
		i = d.skipSpace()
		if i >= len(d.data) {
			return false
		}
		switch d.data[i] {
		case ',':
			d.i = i + 1
		case '}':
			d.i = i + 1
			return true
		default:
			return false
		}
	}
}

// member reads the key at d.i, one that is not simply the name of the field
// expected next, and returns the index of the field it names, or -1 for
// none.
func (d *fastDecoder) member(p *dplan) (int, bool) {
	key, ascii, ok := d.key()
	if !ok {
		return -1, false
	}
	for j := range p.fields {
		if p.fields[j].name == string(key) {
			return j, true
		}
	}
	if !ascii {
		// encoding/json folds the cases of Unicode runes, which may turn
		// the key into one of the names (the Kelvin sign into K, a long s
		// into S), v1 and v2 by rules that differ.
		return -1, false
	}
	for j := range p.fields {
		if equalFoldASCII(p.fields[j].name, key) {
			return j, true
		}
	}
	return -1, true
}

// equalFoldASCII reports whether the ASCII strings name and key are equal
// but for the case of their letters.
func equalFoldASCII(name string, key []byte) bool {
	if len(name) != len(key) {
		return false
	}
	for i := 0; i < len(key); i++ {
		a, b := name[i], key[i]
		if a == b {
			continue
		}
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// array decodes the elements of the array whose '[' is before d.i into the
// slice of p's type at ptr, which has length 0 and whose elements up to its
// capacity are zero, as Clear and zeroing leave it.
func (d *fastDecoder) array(p *dplan, ptr unsafe.Pointer, depth int) bool {
	h := (*sliceHeader)(ptr)
	i := d.skipSpace()
	if i < len(d.data) && d.data[i] == ']' {
		d.i = i + 1
		// [] is an empty slice, not nil.
		if h.data == nil {
			d.save(h)
			h.data = unsafe.Pointer(&emptyArray)
		}
		h.len = 0
		return true
	}
	n := 0
	h.len = 0
	for {
		if n == h.cap {
			// Grow keeps the elements and zeroes the new room.
			d.save(h)
			reflect.NewAt(p.typ, ptr).Elem().Grow(1)
		}
		h.len = n + 1
		if !d.value(p.elem, unsafe.Add(h.data, uintptr(n)*p.size), depth+1) {
			return false
		}
		n++
		i := d.skipSpace()
		if i >= len(d.data) {
			return false
		}
		switch d.data[i] {
		case ',':
			d.i = i + 1
		case ']':
			d.i = i + 1
			return true
		default:
			return false
		}
	}
}

// skipValue moves d.i past the value at d.i, and reports false if it is not
// valid JSON, or would nest containers deeper than isValid allows.
func (d *fastDecoder) skipValue() bool {
	i := validEnd(d.data, d.skipSpace(), maxValidDepth-d.nest)
	if i < 0 {
		return false
	}
	d.i = i
	return true
}

// key reads the string at d.i, a member's name, and returns its bytes
// unescaped (in d.data or d.scratch, valid until the next string read),
// and whether they are all ASCII.
func (d *fastDecoder) key() (key []byte, ascii, ok bool) {
	start := d.i + 1
	j, high := scanPlain(d.data, start)
	if j < len(d.data) && d.data[j] == '"' && !high {
		d.i = j + 1
		return d.data[start:j], true, true
	}
	if !d.unescapeFrom(start, j, high) {
		return nil, false, false
	}
	for _, c := range d.scratch {
		if c >= utf8.RuneSelf {
			return d.scratch, false, true
		}
	}
	return d.scratch, true, true
}

// str reads the string at d.i and returns it as a new string, with one
// allocation if it is not empty.
func (d *fastDecoder) str() (string, bool) {
	start := d.i + 1
	j, high := scanPlain(d.data, start)
	if j < len(d.data) && d.data[j] == '"' && (!high || utf8.Valid(d.data[start:j])) {
		// No escapes, and valid UTF-8: the string is its bytes.
		d.i = j + 1
		if j == start {
			return "", true
		}
		return string(d.data[start:j]), true
	}
	if !d.unescapeFrom(start, j, high) {
		return "", false
	}
	if len(d.scratch) == 0 {
		return "", true
	}
	return string(d.scratch), true
}

// unescapeFrom reads the string at d.i into d.scratch as encoding/json
// decodes it: escapes replaced, \u escapes of UTF-16 surrogate pairs
// combined, and a lone surrogate and each byte that is not part of valid
// UTF-8 replaced by U+FFFD. The string's contents start at start, and
// scanPlain(d.data, start) returned stop and high.
func (d *fastDecoder) unescapeFrom(start, stop int, high bool) bool {
	b := d.scratch[:0]
	data := d.data
	for j := start; j < len(data); {
		if j < stop {
			// data[j:stop] holds no quote, backslash or control byte.
			if high && !utf8.Valid(data[j:stop]) {
				b = appendValidUTF8(b, data[j:stop])
			} else {
				b = append(b, data[j:stop]...)
			}
			j = stop
			continue
		}
		c := data[j]
		switch {
		case c == '"':
			d.i = j + 1
			d.scratch = b
			return true
		case c == '\\':
			if j+1 >= len(data) {
				return false
			}
			switch e := data[j+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(data, j+2)
				if r < 0 {
					return false
				}
				j += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if j+1 < len(data) && data[j] == '\\' && data[j+1] == 'u' {
						r2 = hex4(data, j+2)
					}
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r = pair
						j += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return false
			}
			j += 2
		case c < 0x20:
			return false
		default:
			stop, high = scanPlain(data, j)
		}
	}
	d.scratch = b
	return false
}

// appendValidUTF8 appends s to b with each byte that is not part of valid
// UTF-8 replaced by U+FFFD.
func appendValidUTF8(b, s []byte) []byte {
	for j := 0; j < len(s); {
		if c := s[j]; c < utf8.RuneSelf {
			b = append(b, c)
			j++
			continue
		}
		r, n := utf8.DecodeRune(s[j:])
		if r == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[j:j+n]...)
		}
		j += n
	}
	return b
}

// hex4 returns the value of the four hex digits at data[i:], or -1.
func hex4(data []byte, i int) rune {
	if i+4 > len(data) {
		return -1
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
