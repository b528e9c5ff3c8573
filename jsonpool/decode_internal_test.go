//go:build !poolkit_nounsafe

package jsonpool

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
)

type fiOrder struct {
	ID    int64     `json:"id"`
	Email string    `json:"email"`
	At    time.Time `json:"at"`
	Ship  fiAddr    `json:"ship"`
	Items []fiAddr  `json:"items"`
	P     *fiAddr   `json:"p"`
	F     float32   `json:"f"`
	U8    uint8     `json:"u8"`
}

type fiAddr struct {
	City string `json:"city"`
	Zip  string
}

type fiText string

func (t *fiText) UnmarshalText(b []byte) error { *t = fiText(b); return nil }

type fiJSON struct{ A int }

func (j fiJSON) UnmarshalJSON([]byte) error { return nil }

type fiEmbed struct {
	fiAddr
	X int
}

// fiNums has numeric arrays and slices.
type fiNums struct {
	A  [3]int     `json:"a"`
	B  [4]byte    `json:"b"`
	S  []int16    `json:"s"`
	U  []uint64   `json:"u"`
	F  [2]float64 `json:"f"`
	G  [][2]int8  `json:"g"`
	FS []float32  `json:"fs"`
}

// fiTextArray is an array with a method of decoding of its own.
type fiTextArray [2]int

func (a *fiTextArray) UnmarshalText([]byte) error { return nil }

type fiRec struct {
	V    int     `json:"v"`
	Next *fiRec  `json:"next"`
	Kids []fiRec `json:"kids"`
}

// TestDecodePlanSupport checks which types the fast path takes: all of the
// supported ones, and none with anything it leaves to encoding/json.
func TestDecodePlanSupport(t *testing.T) {
	cases := []struct {
		typ  reflect.Type
		want bool
	}{
		{reflect.TypeFor[fiOrder](), true},
		{reflect.TypeFor[fiRec](), true},
		{reflect.TypeFor[[]string](), true},
		{reflect.TypeFor[struct {
			A int `json:"a,omitempty,omitzero"`
			b int
			C int `json:"-"`
		}](), true},
		{reflect.TypeFor[*int](), true},
		{reflect.TypeFor[[]byte](), false},
		{reflect.TypeFor[[]fiText](), false},
		{reflect.TypeFor[fiJSON](), false},
		{reflect.TypeFor[[]*fiJSON](), false},
		{reflect.TypeFor[fiEmbed](), false},
		{reflect.TypeFor[map[string]int](), false},
		{reflect.TypeFor[[2]int](), true},
		{reflect.TypeFor[[0]int](), true},
		{reflect.TypeFor[[1024]byte](), true},
		{reflect.TypeFor[[3][]float32](), true},
		{reflect.TypeFor[*[2]uint16](), true},
		{reflect.TypeFor[[2]fiAddr](), true},
		{reflect.TypeFor[fiNums](), true},
		{reflect.TypeFor[[2]fiText](), false},
		{reflect.TypeFor[[2]fiJSON](), false},
		{reflect.TypeFor[fiTextArray](), false},
		{reflect.TypeFor[[2]map[string]int](), false},
		{reflect.TypeFor[[2][]byte](), false},
		{reflect.TypeFor[[2]uintptr](), false},
		{reflect.TypeFor[[2]complex64](), false},
		{reflect.TypeFor[any](), false},
		{reflect.TypeFor[json.Number](), false},
		{reflect.TypeFor[json.RawMessage](), false},
		{reflect.TypeFor[time.Duration](), false},
		{reflect.TypeFor[**int](), false},
		{reflect.TypeFor[uintptr](), false},
		{reflect.TypeFor[struct {
			A int `json:"a,string"`
		}](), false},
		{reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"a,"`},
		}), false},
		{reflect.TypeFor[struct {
			A int `json:"a b"`
		}](), false},
		{reflect.StructOf([]reflect.StructField{ // vet refuses this as a literal
			{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
			{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
		}), false},
		{reflect.TypeFor[struct {
			A int `json:"a"`
			B int `json:"A"`
		}](), false},
		{reflect.TypeFor[struct {
			A int `json:"a_b"`
			B int `json:"ab"`
		}](), false},
		{reflect.StructOf([]reflect.StructField{
			{Name: "a", PkgPath: "jsonpool", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
		}), false},
		{reflect.TypeFor[struct{ Ä int }](), false},
	}
	for _, c := range cases {
		if got := decodePlanOf(c.typ) != nil; got != c.want {
			t.Errorf("fast path for %v: %v, want %v", c.typ, got, c.want)
		}
	}
}

// TestFastDecodeTaken checks that the fast path decodes the simple cases
// itself, and leaves to encoding/json those it must; the differential tests
// check that the results are right either way.
func TestFastDecodeTaken(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{`{"id":1,"email":"a\"\u00e9\ud83d\ude00\ud83d","at":"2024-01-02T03:04:05Z","ship":{"city":"x","ZIP":"1"},
			"items":[{"city":"a"},{}],"p":{"city":"p"},"f":1.5,"u8":255,"x":[{"y":"]"}]}`, true},
		{`null`, true},
		{`{"items":null,"p":null,"at":null,"ship":null}`, true},
		{`{"EMAIL":"a","Email":"b"}`, true}, // ASCII case folding, scalars repeated
		{`{"\u0065mail":"x"}`, true},
		{`{"items":[],"email":"` + "\xff" + `"}`, true},
		{`{"id":1.0}`, false},
		{`{"id":"1"}`, false},
		{`{"u8":256}`, false},
		{`{"u8":-0}`, false},
		{`{"f":1e39}`, false},
		{`{"at":"yesterday"}`, false},
		{`{"ship":{},"ship":{}}`, false},
		{`{"items":[],"items":[]}`, false},
		{"{\"\u212a\":1}", false}, // the Kelvin sign may fold to k
		{`{"ünknown":1}`, false},  // so may any non-ASCII key
		{`{"ship":[]}`, false},
		{`{"items":{}}`, false},
	}
	for _, c := range numbersTaken {
		var v fiNums
		if !isValid([]byte(c.in)) {
			t.Fatalf("invalid test input %s", c.in)
		}
		if got := fastDecode([]byte(c.in), &v, true) == fastDone; got != c.want {
			t.Errorf("fastDecode(%s) into fiNums = %v, want %v", c.in, got, c.want)
		}
	}
	for _, c := range cases {
		var v fiOrder
		if !isValid([]byte(c.in)) {
			t.Fatalf("invalid test input %s", c.in)
		}
		if got := fastDecode([]byte(c.in), &v, true) == fastDone; got != c.want {
			t.Errorf("fastDecode(%s) = %v, want %v", c.in, got, c.want)
		}
	}
}

// numbersTaken are the documents of numeric arrays that the fast path
// decodes itself, and those it leaves to encoding/json.
var numbersTaken = []struct {
	in   string
	want bool
}{
	{`{"a":[1,-2,3],"b":[0,255,7,8],"s":[-32768,32767],"u":[9999999999999999999,0],"f":[1.5,-0],"g":[[1,-128],[127]],"fs":[1e-3,3.4e38]}`, true},
	{`{"a":[],"b":[1],"s":[],"u":null,"f":null,"g":[null,[]],"fs":[]}`, true},
	{`{"a":[1,2,3,4,5,[6],{"x":"]"}],"b":[1,2,3,4,5,6]}`, true}, // extra elements, skipped
	{`{"a":[ 1 , 2 ],"s":[ -1 ,2 ], "u" : [ 3 ] }`, true},
	{`{"a":[null,2,null],"s":[1,null]}`, true},
	{`{"f":[1e400]}`, false},
	{`{"f":[1,2,1e-400]}`, true}, // 0, as strconv.ParseFloat and encoding/json give
	{`{"fs":[3.5e38]}`, false},
	{`{"a":[1.0]}`, false},
	{`{"a":[1e2]}`, false},
	{`{"a":[9223372036854775808]}`, false},
	{`{"a":[-9223372036854775808]}`, strconv.IntSize == 64}, // the least int on 64-bit ports, out of range on 32-bit
	{`{"a":[-9223372036854775809]}`, false},
	{`{"b":[256]}`, false},
	{`{"b":[-0]}`, false},
	{`{"s":[-0]}`, true},
	{`{"s":[32768]}`, false},
	{`{"g":[[1,2,128]]}`, true}, // the third element is extra, and skipped
	{`{"g":[[1,128]]}`, false},
	{`{"u":[18446744073709551615]}`, false}, // 20 digits: left to encoding/json
	{`{"u":[18446744073709551616]}`, false},
	{`{"a":["1"]}`, false},
	{`{"a":[true]}`, false},
	{`{"a":{}}`, false},
	{`{"a":"AQID"}`, false},
	{`{"b":"AQID"}`, false},
	{`{"a":[1],"a":[2]}`, false}, // a repeated array merges
	{`{"s":[1],"s":[2]}`, false},
}

// FuzzFastDecodeRaw feeds fastDecode any bytes, valid JSON or not: it must
// not panic, must accept nothing isValid refuses, and must report on
// failure whether isValid accepts the input.
//
//	go test -run '^$' -fuzz FuzzFastDecodeRaw -fuzztime 1m ./jsonpool
func FuzzFastDecodeRaw(f *testing.F) {
	for _, s := range []string{`{"id":1,"items":[{"city":"\u00e9"}]}`, `{"email":"\ud83d`, `{"p":{`, `[`, `{"x":[{]}`,
		numbersTaken[0].in, `[[1,2,3,4],[5,-0,01]]`, `{"a":[1,2,3,4,5`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := isValid(data)
		check := func(into string, r fastResult) {
			t.Helper()
			switch {
			case r == fastDone && !valid:
				t.Errorf("fastDecode(%q) into %s accepted invalid JSON", data, into)
			case r != fastDone && (r == fastValid) != valid:
				t.Errorf("fastDecode(%q) into %s = %d, isValid = %v", data, into, r, valid)
			}
		}
		var v fiOrder
		check("fiOrder", fastDecode(data, &v, true))
		var r fiRec
		check("fiRec", fastDecode(data, &r, false))
		var s []string
		check("[]string", fastDecode(data, &s, true))
		var n fiNums
		check("fiNums", fastDecode(data, &n, true))
		var a [2][3]uint8
		check("[2][3]uint8", fastDecode(data, &a, false))
	})
}

// TestFastDecodeNestingBound checks that the fast path, which checks the
// syntax itself, stops at isValid's nesting bound, in the containers it
// decodes and in those of an unknown member it skips: it succeeds exactly
// where isValid accepts.
func TestFastDecodeNestingBound(t *testing.T) {
	for _, n := range []int{maxValidDepth - 2, maxValidDepth - 1, maxValidDepth, maxValidDepth + 1} {
		// {"kids":[{"kids":[ ... {} ... ]}]}: n containers.
		var b strings.Builder
		for k := 0; k < n/2; k++ {
			b.WriteString(`{"kids":[`)
		}
		if n%2 == 1 {
			b.WriteString(`{}`)
		}
		for k := 0; k < n/2; k++ {
			b.WriteString(`]}`)
		}
		kids := b.String()
		// {"next":{"v":1,"x":[[ ... ]]}}: 2 objects and n-2 arrays.
		skipped := `{"next":{"v":1,"x":` + strings.Repeat("[", n-2) + strings.Repeat("]", n-2) + `}}`
		for _, doc := range []string{kids, skipped} {
			data := []byte(doc)
			valid := isValid(data)
			if valid != (n <= maxValidDepth) {
				t.Fatalf("isValid of %d levels = %v", n, valid)
			}
			var r fiRec
			got := fastDecode(data, &r, true)
			if want := map[bool]fastResult{true: fastDone, false: fastInvalid}[valid]; got != want {
				t.Errorf("fastDecode of %d levels (%.30s...) = %d, want %d", n, doc, got, want)
			}
		}
	}
}

// TestFastDecodeStringsEveryPosition holds the fast decoder's strings,
// whose scan goes eight bytes at a time, to json.Unmarshal: every byte
// value and escape at every position of strings of up to 24 bytes, in a
// []string and as a member's key and value.
func TestFastDecodeStringsEveryPosition(t *testing.T) {
	var specials []string
	for c := 0; c < 256; c++ {
		specials = append(specials, string([]byte{byte(c)}))
	}
	specials = append(specials, `\"`, `\\`, `\/`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\u00`, `\x`,
		"\xc3\xa9", "\xe2\x82", "\xed\xa0\x80", "\xef\xbf\xbd", "\xf0\x9f\x98\x80")
	for n := 0; n <= 24; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, sp := range specials {
				body := string(bytes.Repeat([]byte{'a'}, pos)) + sp + string(bytes.Repeat([]byte{'b'}, n-pos))
				for _, doc := range []string{`["` + body + `","` + body + `é"]`, `{"` + body + `":"` + body + `"}`} {
					if !json.Valid([]byte(doc)) {
						continue // fastDecode's callers check first
					}
					var want, got []string
					var wantM, gotM struct {
						A string `json:"a"`
					}
					if doc[0] == '[' {
						if err := json.Unmarshal([]byte(doc), &want); err != nil {
							t.Fatal(err)
						}
						if fastDecode([]byte(doc), &got, true) != fastDone || len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
							t.Fatalf("fastDecode(%q) = %q, want %q", doc, got, want)
						}
						continue
					}
					doc2 := `{"a":"` + body + `"}`
					if err := json.Unmarshal([]byte(doc2), &wantM); err != nil {
						t.Fatal(err)
					}
					if fastDecode([]byte(doc2), &gotM, true) != fastDone || gotM != wantM {
						t.Fatalf("fastDecode(%q) = %q, want %q", doc2, gotM.A, wantM.A)
					}
					_ = fastDecode([]byte(doc), &gotM, true) // an unknown key: no panic
				}
			}
		}
	}
}

// TestShortFloat64 holds shortFloat64 to strconv.ParseFloat, bit for bit
// (the sign of zero too), on numbers of 1 to 17 digits with the point at
// every place, signed and not, random and at the edges of 15 digits; checks
// that it leaves exponents and longer numbers to ParseFloat; and that it
// ends a number where numberEnd does, and takes nothing that is not a JSON
// number, followed by what may follow one.
func TestShortFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(num string) {
		t.Helper()
		for _, after := range []string{"", ",", "]", " ", "}x"} {
			data := []byte(num + after)
			got, end, ok := shortFloat64(data, 0)
			// The number numberEnd finds, which the decoder then
			// needs followed by a separator.
			ne := numberEnd(data, 0)
			if ne < 0 {
				if ok {
					t.Fatalf("shortFloat64(%s) = %v, %d, true; want false for no number", data, got, end)
				}
				continue
			}
			n := string(data[:ne])
			digits := strings.Count(n, "") - 1 - strings.Count(n, "-") - strings.Count(n, ".")
			if strings.ContainsAny(n, "eE") || digits > 15 {
				if ok {
					t.Fatalf("shortFloat64(%s) = %v, %d, true; want it left to ParseFloat", data, got, end)
				}
				continue
			}
			if !ok {
				if ne == len(num) {
					t.Fatalf("shortFloat64(%s) = false, want %s taken", data, n)
				}
				continue // 01, 1.5.5: left to numberEnd, which ends early
			}
			want, err := strconv.ParseFloat(n, 64)
			if err != nil {
				t.Fatal(err)
			}
			if end != ne || math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("shortFloat64(%s) = %v (%#x), %d; want %v (%#x), %d", data, got, math.Float64bits(got), end,
					want, math.Float64bits(want), ne)
			}
		}
	}
	for _, num := range []string{"0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.378", "1.001", "999999999999999",
		"-999999999999999", "9007199254740993", "0.000000000000001", "0.00000000000000000001", "123456789012345.6",
		"1e5", "1.5E-3", "-0e0", "0.30000000000000004", "4503599627370497.5", "99999999999999.99",
		// Not JSON numbers, or not only one.
		"", "-", "--1", "+1", "01", "-01", "00", "00.5", "1.", "-1.", ".5", "-.5", "1.e5", "1.5.5", "1..5", "0x1", "1-",
		"1.5e", "1e+", "12345678901234567890123", "1.2345678901234567890123"} {
		check(num)
	}
	for n := 1; n <= 17; n++ {
		for k := 0; k < 2000; k++ {
			b := make([]byte, n)
			for j := range b {
				b[j] = byte('0' + rng.IntN(10))
			}
			if k%5 == 0 {
				for j := range b {
					b[j] = '9'
				}
				b[rng.IntN(n)] = byte('0' + rng.IntN(10))
			}
			for point := 1; point <= n; point++ {
				if point > 1 && b[0] == '0' {
					break // JSON allows no leading zero
				}
				num := string(b[:point])
				if point < n {
					num += "." + string(b[point:])
				}
				check(num)
				check("-" + num)
			}
		}
	}
}

// TestFastDecodeKeyEveryLength holds the fast decoder's key matching to
// json.Unmarshal for field names of 1 to 20 bytes (one word, two words,
// and longer than maxWordKey), with the key equal to the name, changed in
// each byte (to another letter and to the other case, which encoding/json
// folds), cut short by one byte, one byte longer, with the document
// ending right after the value (fewer than sixteen bytes past the key)
// and padded with white space (more).
func TestFastDecodeKeyEveryLength(t *testing.T) {
	for n := 1; n <= 20; n++ {
		name := strings.Repeat("k", n-1) + "z"
		typ := reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + name + `"`)},
			{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"b"`},
		})
		keys := []string{name, name[:n-1], name + "z", "b"}
		for i := range n {
			for _, c := range []byte{'q', name[i] - 'a' + 'A'} {
				k := []byte(name)
				k[i] = c
				keys = append(keys, string(k))
			}
		}
		for _, key := range keys {
			for _, pad := range []string{"", strings.Repeat(" ", 20)} {
				// The key first, where the decoder expects name.
				doc := []byte(`{"` + key + `":2,"b":1` + pad + `}`)
				want := reflect.New(typ)
				if err := json.Unmarshal(doc, want.Interface()); err != nil {
					t.Fatal(err)
				}
				got := reflect.New(typ)
				if r := fastDecodeType(doc, typ, got.UnsafePointer(), true); r != fastDone {
					t.Fatalf("fastDecode(%s) = %v, want done", doc, r)
				}
				if !reflect.DeepEqual(got.Elem().Interface(), want.Elem().Interface()) {
					t.Fatalf("fastDecode(%s) = %+v, json.Unmarshal %+v", doc, got.Elem(), want.Elem())
				}
			}
		}
	}
}
