//go:build !poolkit_nounsafe

package jsonpool

import (
	"reflect"
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/pool"
)

// decodeState is the state of one fast decode.
type decodeState struct {
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
func (d *decodeState) save(h *sliceHeader) {
	if d.logging {
		d.undo = append(d.undo, sliceUndo{unsafe.Pointer(h), *h})
	}
}

// maxScratch is the largest scratch buffer a decodeState keeps in its pool,
// and maxUndo the longest undo log.
const (
	maxScratch = 64 << 10
	maxUndo    = 1 << 10
)

var decodeStates = pool.New(func() *decodeState { return new(decodeState) })

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
	return fastDecodeType(data, reflect.TypeOf((*T)(nil)).Elem(), unsafe.Pointer(v), undo)
}

// fastDecodeType is fastDecode for a value of type t at ptr.
func fastDecodeType(data []byte, t reflect.Type, ptr unsafe.Pointer, undo bool) fastResult {
	p := decodePlanOf(t)
	if p == nil {
		return validity(data)
	}
	d := decodeStates.Get()
	d.data, d.i, d.nest, d.logging = data, 0, 0, undo
	r := fastDone
	if !d.value(p, ptr, 0) || d.skipSpace() != len(data) {
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
		decodeStates.Put(d)
	}
	return r
}

// maxFastDepth bounds the depth of the types the fast path follows (a
// pointer adds a level). The JSON nesting, d.nest, is bound by
// maxValidDepth, as in isValid, so that the fast path succeeds only on
// documents isValid accepts.
const maxFastDepth = 2 * maxValidDepth

// skipSpace moves d.i past white space and returns it.
func (d *decodeState) skipSpace() int {
	if i := d.i; i < len(d.data) && d.data[i] > ' ' {
		return i // no white space, the common case, inlined
	}
	d.i = skipSpace(d.data, d.i)
	return d.i
}

// emptyArray is where an empty, non-nil slice decoded from [] points, as
// reflect.MakeSlice's slices of capacity 0 point at the runtime's own.
var emptyArray [0]uint64

// value decodes the value at d.i into the value of p's type at ptr. Every
// store through ptr is of that type, as p.kind (and p.bits) say, so it
// lies within the value; the fields and elements below it are reached at
// their offsets in reflect's layout of the type, and a slice's elements
// only below its capacity (see array).
func (d *decodeState) value(p *decodePlan, ptr unsafe.Pointer, depth int) bool {
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
		case decodeSlice:
			if h := (*sliceHeader)(ptr); h.data != nil {
				d.save(h)
				*h = sliceHeader{}
			}
		case decodePtr:
			*(*unsafe.Pointer)(ptr) = nil
		}
		return true
	}
	switch p.kind {
	case decodeBool:
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
	case decodeInt, decodeUint:
		return d.integer(p, ptr, i)
	case decodeFloat32, decodeFloat64:
		if p.kind == decodeFloat64 {
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
	case decodeString:
		if c != '"' {
			return false
		}
		s, ok := d.str()
		if ok {
			*(*string)(ptr) = s
		}
		return ok
	case decodeTime:
		if c != '"' {
			return false
		}
		end := stringEnd(d.data, i)
		if end < 0 {
			return false
		}
		d.i = end
		return (*time.Time)(ptr).UnmarshalJSON(d.data[i:end]) == nil
	case decodePtr:
		if *(*unsafe.Pointer)(ptr) == nil {
			*(*unsafe.Pointer)(ptr) = reflect.New(p.typ.Elem()).UnsafePointer()
		}
		return d.value(p.elem, *(*unsafe.Pointer)(ptr), depth+1)
	case decodeStruct, decodeSlice, decodeArray:
		// An object for a struct, an array for a slice or an array,
		// nested no deeper than isValid allows.
		open := byte('[')
		if p.kind == decodeStruct {
			open = '{'
		}
		if c != open || d.nest >= maxValidDepth {
			return false
		}
		d.i = i + 1
		d.nest++
		var ok bool
		switch p.kind {
		case decodeStruct:
			ok = d.object(p, ptr, depth)
		case decodeSlice:
			ok = d.array(p, ptr, depth)
		default:
			ok = d.fixedArray(p, ptr, depth)
		}
		d.nest--
		return ok
	}
	return false
}

// object decodes the members of the object whose '{' is before d.i into
// the struct of p's type at ptr. It keeps its place in a local i, and
// sets d.i only for the calls that read it.
func (d *decodeState) object(p *decodePlan, ptr unsafe.Pointer, depth int) bool {
	var seen uint64
	next := 0 // the field after the last one set: members tend to come in order
	data := d.data
	i := skipSpace(data, d.i)
	if i < len(data) && data[i] == '}' {
		d.i = i + 1
		return true
	}
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return false
		}
		f := -1
		if next < len(p.fields) {
			// The next field's name, then a quote, is the whole key:
			// a name holds no quote, backslash or control byte. Its
			// words are compared where sixteen bytes remain.
			fp, j, e := &p.fields[next], i+1, 0
			if fp.keyLen > 0 && j+maxWordKey <= len(data) {
				if fp.keyWords(data[j : j+maxWordKey]) {
					e = j + fp.keyLen
				}
			} else {
				e = fp.matchKeyString(data, j)
			}
			if e > 0 {
				f = next
				i = e
			}
		}
		if f < 0 {
			d.i = i
			var ok bool
			if f, ok = d.member(p); !ok {
				return false
			}
			i = d.i
		}
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ':' {
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
			// A string or an integer right after the colon goes to
			// value's case for it, without value's dispatch.
			fv, c := unsafe.Add(ptr, fp.off), byte(0)
			if i+1 < len(data) && depth < maxFastDepth {
				c = data[i+1]
			}
			var ok bool
			switch kind := fp.plan.kind; {
			case kind == decodeString && c == '"':
				var s string
				if s, ok = d.str(); ok {
					*(*string)(fv) = s
				}
			case kind == decodeInt && (isDigit(c) || c == '-'):
				ok = d.integer(fp.plan, fv, i+1)
			default:
				ok = d.value(fp.plan, fv, depth+1)
			}
			if !ok {
				return false
			}
			next = f + 1
		}
		i = skipSpace(data, d.i)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i++
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
func (d *decodeState) member(p *decodePlan) (int, bool) {
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

// keyWords reports whether w, of maxWordKey bytes, starts with f's key:
// f's name and its closing quote, which f.keyLen > 0 says are at most
// maxWordKey bytes. The key is compared as one or two words.
func (f *decodeField) keyWords(w []byte) bool {
	n := f.keyLen
	return load8(w)&f.keyMask == f.key[0] && (n <= 8 || load8(w[n-8:]) == f.key[1])
}

// matchKeyString returns the index after f's name and a quote if data[j:]
// starts with them, else 0: keyWords for any name, comparing strings.
//
//go:noinline
func (f *decodeField) matchKeyString(data []byte, j int) int {
	if e := j + len(f.name); e < len(data) && data[e] == '"' && string(data[j:e]) == f.name {
		return e + 1
	}
	return 0
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
func (d *decodeState) array(p *decodePlan, ptr unsafe.Pointer, depth int) bool {
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
	ints := p.elem.isInteger() && depth < maxFastDepth
	for {
		if n == h.cap {
			// Grow keeps the elements and zeroes the new room.
			d.save(h)
			reflect.NewAt(p.typ, ptr).Elem().Grow(1)
		}
		if ints {
			// Plain integers, as many as the capacity holds, without
			// the general loop's calls.
			k, end := d.integers(p.elem, unsafe.Add(h.data, uintptr(n)*p.size), h.cap-n)
			n += k
			h.len = n
			if end {
				return true
			}
			if n == h.cap {
				continue // the next element, after a comma, needs room
			}
		}
		h.len = n + 1
		if !d.element(p.elem, unsafe.Add(h.data, uintptr(n)*p.size), depth) {
			return false
		}
		n++
		i := skipSpace(d.data, d.i)
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

// element decodes the element at d.i of an array at depth into the value
// of e's type at ptr, as value does, but reads a number into an integer or
// a float64 without value's dispatch.
func (d *decodeState) element(e *decodePlan, ptr unsafe.Pointer, depth int) bool {
	i := d.skipSpace()
	if i < len(d.data) && depth < maxFastDepth {
		if c := d.data[i]; isDigit(c) || c == '-' {
			switch e.kind {
			case decodeInt, decodeUint:
				return d.integer(e, ptr, i)
			case decodeFloat64:
				if f, end, ok := shortFloat64(d.data, i); ok {
					*(*float64)(ptr) = f
					d.i = end
					return true
				}
			}
		}
	}
	return d.value(e, ptr, depth+1)
}

// fixedArray decodes the elements of the array whose '[' is before d.i
// into the Go array of p's type at ptr, whose elements are zero, as Clear
// and zeroing leave them, and decoded into by nothing before. Like
// encoding/json it decodes the first p.n elements and skips the rest,
// which must still be valid JSON; elements the JSON array does not have
// stay zero, as encoding/json sets them. Every store is at an element
// index below p.n.
func (d *decodeState) fixedArray(p *decodePlan, ptr unsafe.Pointer, depth int) bool {
	i := d.skipSpace()
	if i < len(d.data) && d.data[i] == ']' {
		d.i = i + 1
		return true
	}
	ints := p.elem.isInteger() && depth < maxFastDepth
	for n := 0; ; n++ {
		if ints && n < p.n {
			// Plain integers, up to the array's length, without the
			// general loop's calls.
			k, end := d.integers(p.elem, unsafe.Add(ptr, uintptr(n)*p.size), p.n-n)
			if end {
				return true
			}
			n += k // the next element, after a comma, if k > 0
		}
		if n < p.n {
			if !d.element(p.elem, unsafe.Add(ptr, uintptr(n)*p.size), depth) {
				return false
			}
		} else if !d.skipValue() {
			return false
		}
		i := skipSpace(d.data, d.i)
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
func (d *decodeState) skipValue() bool {
	i := validEnd(d.data, d.skipSpace(), maxValidDepth-d.nest)
	if i < 0 {
		return false
	}
	d.i = i
	return true
}
