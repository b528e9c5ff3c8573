package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/jsonpool"
)

// The differential check of the fast encode path over Go types made at
// run time with reflect.StructOf from fuzz bytes: field names of 0 to 200
// bytes (around the lengths where the fixed struct's key words and
// in-place integers change: a key is the name and four bytes), escapes,
// Unicode and invalid UTF-8 in them, every field kind the fast path takes
// and some it leaves to encoding/json, nested and embedded structs,
// pointers, slices and arrays, with omitempty, omitzero, string and
// unknown options. Each value is encoded every way jsonpool has and held
// to encoding/json, output and error, with a canary past what each
// Append-style call returns; and the fast path is run into buffers of
// every small spare capacity with a canary past their capacity, which
// under -race (where checkptr checks every unsafe pointer made) also
// catches a pointer made past the end of its allocation.

// tgen makes random types and values of them from the bytes of s.
type tgen struct {
	s     *fzSource
	count int // fields made, which numbers their names apart
}

// tgenLeaves are the field types that are not made of others.
var tgenLeaves = []reflect.Type{
	reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](),
	reflect.TypeFor[int32](), reflect.TypeFor[int64](), reflect.TypeFor[uint](), reflect.TypeFor[uint8](),
	reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](), reflect.TypeFor[uintptr](),
	reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[string](), reflect.TypeFor[time.Time](),
	reflect.TypeFor[jsonpool.Time](), reflect.TypeFor[fzMyString](), reflect.TypeFor[fzMyInt](),
	reflect.TypeFor[fzMyByte](), reflect.TypeFor[[]byte](),
}

// tgenOthers are field types the fast path leaves to encoding/json.
var tgenOthers = []reflect.Type{reflect.TypeFor[json.Number](), reflect.TypeFor[any](), reflect.TypeFor[complex64]()}

// rare reports true for one byte in 32: how often a type, a name or a tag
// is one the fast path leaves to encoding/json, so that most random
// types are still the fast path's.
func (g *tgen) rare() bool { return g.s.byte() < 8 }

// tgenNameLens are the lengths of name most tried: a fixed struct's key
// (`,"name":`, four bytes more than the name) is written as words up to
// 24 bytes, and it makes 48 bytes of room before each field.
var tgenNameLens = []int{0, 1, 2, 7, 8, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
	36, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 56, 60, 64, 65, 100, 101, 127, 128, 200}

// tgenNamePieces are what names are made of besides ASCII letters and
// digits: the punctuation encoding/json accepts in a tag name, and, in
// the last ten, what the fast path leaves to encoding/json: what it does
// not accept (quotes, backslashes, control bytes, invalid UTF-8, a comma
// that ends the name) or escapes (<, > and &, U+2028).
var tgenNamePieces = []string{"é", "日本", "Ω", "_", "-", " ", "!", "#", "$", "%", "(", ")", "*", "+", ".", "/", ":",
	";", "=", "?", "@", "[", "]", "^", "{", "|", "}", "~", "<", ">", "&", `"`, `\`, "\n", "\x01", "\u2028", "\xff", ","}

// name returns a name about n bytes long, n mostly one of tgenNameLens,
// ending with a number that sets it apart from the other fields' when it
// has room for it.
func (g *tgen) name() string {
	var n int
	if k := g.s.byte(); k < 200 {
		n = tgenNameLens[int(k)%len(tgenNameLens)]
	} else {
		n = int(g.s.byte())
	}
	g.count++
	id := strconv.Itoa(g.count)
	if n <= len(id) {
		return id[:n]
	}
	pieces := tgenNamePieces[:len(tgenNamePieces)-10] // those of a name the fast path writes
	if g.rare() {
		pieces = tgenNamePieces // and those it leaves to encoding/json
	}
	var b strings.Builder
	for b.Len() < n-len(id) {
		switch k := g.s.byte(); {
		case k < 224:
			b.WriteByte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[int(k)%62])
		default:
			b.WriteString(pieces[int(k)%len(pieces)])
		}
	}
	return b.String() + id
}

// goName returns a Go field name, exported and set apart from the other
// fields' by its number, sometimes long and with letters beyond ASCII.
func (g *tgen) goName() string {
	g.count++
	name := "F" + strconv.Itoa(g.count)
	for n := int(g.s.byte()) % 4 * 16; len(name) < n; {
		name += []string{"x", "Y", "é", "Ω", "_", "9"}[g.s.byte()%6]
	}
	return name
}

// typ returns a random type, made of others up to depth levels down.
func (g *tgen) typ(depth int) reflect.Type {
	if g.rare() {
		if depth > 0 && g.s.bool() {
			return reflect.MapOf(reflect.TypeFor[string](), g.typ(depth-1))
		}
		return tgenOthers[int(g.s.byte())%len(tgenOthers)]
	}
	k := g.s.byte()
	if depth <= 0 || k < 128 {
		return tgenLeaves[int(g.s.byte())%len(tgenLeaves)]
	}
	switch k % 8 {
	case 0, 1:
		return reflect.SliceOf(g.typ(depth - 1))
	case 2:
		return reflect.ArrayOf(int(g.s.byte()%4), g.typ(depth-1))
	case 3, 4, 5:
		return reflect.PointerTo(g.typ(depth - 1))
	default:
		return g.structType(depth - 1)
	}
}

// structType returns a struct of up to seven fields of random types,
// names, tags and options, some of them embedded structs of named types.
func (g *tgen) structType(depth int) reflect.Type {
	var fields []reflect.StructField
	embedded := map[reflect.Type]bool{}
	for i, n := 0, int(g.s.byte()%8); i < n; i++ {
		if k := g.s.byte(); k < 16 {
			et := []reflect.Type{reflect.TypeFor[FzBase](), reflect.TypeFor[*FzExtra](), reflect.TypeFor[FzEmpty]()}[k%3]
			if !embedded[et] {
				embedded[et] = true
				name := et.Name()
				if et.Kind() == reflect.Pointer {
					name = et.Elem().Name()
				}
				fields = append(fields, reflect.StructField{Name: name, Type: et, Anonymous: true})
			}
			continue
		}
		f := reflect.StructField{Name: g.goName(), Type: g.typ(depth)}
		var tag string
		switch k := g.s.byte(); k % 16 {
		case 0, 1, 2:
			// No tag: the Go name is the key.
			fields = append(fields, f)
			continue
		case 3, 4, 5, 6, 7:
			tag = g.name()
		case 8, 9:
			tag = g.name() + ",omitempty"
		case 10:
			tag = g.name() + ",omitzero"
		case 11:
			tag = g.name() + ",omitempty,omitzero"
		case 12:
			tag = ",omitempty"
		case 13:
			tag = "-"
		case 14:
			tag = "-,"
		default:
			tag = g.name() + ",omitzero,omitempty"
		}
		if g.rare() {
			// Options the fast path leaves to encoding/json.
			tag += []string{",string", ",unknown"}[g.s.byte()%2]
		}
		f.Tag = reflect.StructTag(`json:` + strconv.Quote(tag))
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}

// tgenInts are integers at the edges of each width and of each count of
// decimal digits.
var tgenInts = []int64{0, 1, -1, 9, 10, -10, 99, 100, 127, -128, 255, 32767, -32768, 65535, math.MaxInt32,
	math.MinInt32, math.MaxUint32, 999999999999, 1e18, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}

func (g *tgen) int() int64 {
	if k := g.s.byte(); k < 128 {
		return tgenInts[int(k)%len(tgenInts)]
	}
	return int64(g.s.u64())
}

// fill sets v, settable, to a random value of its type; zero, often, for
// the fields omitempty and omitzero test.
func (g *tgen) fill(v reflect.Value) {
	if g.s.byte() < 40 {
		return // zero
	}
	switch v.Type() {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(g.s.time()))
		return
	case reflect.TypeFor[jsonpool.Time]():
		v.Set(reflect.ValueOf(jsonpool.Time{Time: g.s.time()}))
		return
	case reflect.TypeFor[json.Number]():
		v.SetString([]string{"12.50", "-0", "1e400", "x", "", "007", "123456789012345678901234567890"}[g.s.byte()%7])
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(g.s.bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(g.int()) // truncated to the width
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(g.int()))
	case reflect.Float32:
		v.SetFloat(float64(g.s.f32()))
	case reflect.Float64:
		v.SetFloat(g.s.f64())
	case reflect.Complex64:
		v.SetComplex(complex(g.s.f64(), 0))
	case reflect.String:
		s := g.s.str()
		if g.s.byte() < 16 {
			s = strings.Repeat(s+"x", int(g.s.byte()))
		}
		v.SetString(s)
	case reflect.Interface:
		if x := []any{g.int(), g.s.str(), g.s.f64(), nil}[g.s.byte()%4]; x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		g.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		n := int(g.s.byte() % 4)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			g.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			g.fill(v.Index(i))
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		if g.s.bool() {
			e := reflect.New(v.Type().Elem()).Elem()
			g.fill(e)
			m.SetMapIndex(reflect.ValueOf(g.s.str()), e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			g.fill(v.Field(i))
		}
	}
}

// fastIntoTightBuffers runs the fast path on v into buffers of the given
// spare capacities after a prefix, with a canary past their capacity, and
// holds its output to want (json.Encoder's without the newline, or nil
// where encoding/json fails). It reports whether the fast path took v.
func fastIntoTightBuffers(t *testing.T, v any, html bool, want []byte, spares []int) bool {
	t.Helper()
	taken := false
	for _, spare := range spares {
		backing := bytes.Repeat([]byte{canaryByte}, 3+spare+32)
		copy(backing, "pre")
		got, ok := jsonpool.FastAppend(backing[:3:3+spare], v, html)
		for i, c := range backing[3+spare:] {
			if c != canaryByte {
				t.Fatalf("fast path on %T (html %v) with %d spare bytes wrote byte %d past the buffer's capacity", v, html, spare, i)
			}
		}
		if ok && (want == nil || string(got[:3]) != "pre" || !bytes.Equal(got[3:], want)) {
			t.Fatalf("fast path on %T (html %v) with %d spare bytes:\n got %q\nwant %q", v, html, spare, got, want)
		}
		taken = ok
	}
	return taken
}

var (
	tgenEverySpare = func() (s []int) {
		for i := 0; i <= 64; i++ {
			s = append(s, i)
		}
		return append(s, 200)
	}()
	tgenSomeSpares = []int{0, 1, 7, 24, 47, 200}
)

// randomTypeOnce makes a type and two values of it from data and checks
// them every way. It reports whether the fast path took a value.
func randomTypeOnce(t *testing.T, data []byte) (fast bool) {
	g := &tgen{s: &fzSource{b: data}}
	typ := g.structType(3)
	for i := 0; i < 2; i++ {
		p := reflect.New(typ)
		g.fill(p.Elem())
		for _, v := range []any{p.Interface(), p.Elem().Interface()} {
			failed := checkEncodes(t, jsonpool.Options{}, v)
			checkEncodes(t, jsonpool.Options{NoHTMLEscape: true}, v)
			if g.s.byte() < 32 {
				checkEncodes(t, jsonpool.Options{Prefix: "\t", Indent: " "}, v)
			}
			for _, html := range []bool{true, false} {
				var want []byte
				if !failed {
					var buf bytes.Buffer
					enc := json.NewEncoder(&buf)
					enc.SetEscapeHTML(html)
					if err := enc.Encode(v); err != nil {
						t.Fatalf("encoding/json fails on %T only with html %v: %v", v, html, err)
					}
					want = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
				}
				// Every spare capacity up to more than the room the
				// fixed struct makes before a field, in one mode.
				spares := tgenSomeSpares
				if html {
					spares = tgenEverySpare
				}
				if fastIntoTightBuffers(t, v, html, want, spares) {
					fast = true
				}
			}
		}
	}
	return fast
}

// FuzzFastEncodeTypes is the check of random types on fuzz input.
//
//	go test -run '^$' -fuzz FuzzFastEncodeTypes -fuzztime 1m ./jsonpool
//	go test -race -run '^$' -fuzz FuzzFastEncodeTypes -fuzztime 1m ./jsonpool
func FuzzFastEncodeTypes(f *testing.F) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 16; i++ {
		f.Add(randomBytes(r, 64+r.IntN(1024)))
	}
	f.Fuzz(func(t *testing.T, data []byte) { randomTypeOnce(t, data) })
}

// TestFastEncodeRandomTypes is FuzzFastEncodeTypes over random inputs, run
// by every go test, and under -race in CI. A quarter of the types, at
// least, must take the fast path, or the check would prove little about
// it.
func TestFastEncodeRandomTypes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 1500
	if testing.Short() {
		n = 200
	}
	fast := 0
	for i := 0; i < n; i++ {
		if randomTypeOnce(t, randomBytes(r, 256+r.IntN(2048))) {
			fast++
		}
	}
	if !jsonpool.FastPaths && fast != 0 {
		t.Errorf("built without the fast paths, the fast path took %d of %d random types", fast, n)
	}
	if jsonpool.FastPaths && fast < n/4 {
		t.Errorf("the fast path took %d of %d random types, want a quarter at least", fast, n)
	}
	t.Logf("the fast path took %d of %d random types", fast, n)
}
