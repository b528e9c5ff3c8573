package jsonpool

import (
	"encoding/json"
	"reflect"
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
		{reflect.TypeFor[[2]int](), false},
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

// TestFastDecodeTaken checks that the fast path decodes the plain cases
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

// FuzzFastDecodeRaw feeds fastDecode any bytes, valid JSON or not: it must
// not panic, must accept nothing isValid refuses, and must report on
// failure whether isValid accepts the input.
//
//	go test -run '^$' -fuzz FuzzFastDecodeRaw -fuzztime 1m ./jsonpool
func FuzzFastDecodeRaw(f *testing.F) {
	for _, s := range []string{`{"id":1,"items":[{"city":"\u00e9"}]}`, `{"email":"\ud83d`, `{"p":{`, `[`, `{"x":[{]}`} {
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
