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

	"github.com/poolkit/poolkit/internal/digits"
)

// TestAppendFloat holds the float format to encoding/json's, through
// json.Marshal, and to strconv: short decimals (where the shortcut
// applies) near every power of ten and format switch, their neighbours
// one ulp away, and random bit patterns.
func TestAppendFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	var fs []float64
	for _, c := range []struct {
		f    float64
		want string
	}{{4.2, "4.2"}, {-1.234, "-1.234"}, {0.000001, "0.000001"}, {123456789.125, "123456789.125"}, {98, "98"}, {0.30000000000000004, ""}} {
		got, ok := digits.AppendShortFloat(nil, c.f, digits.MaxPlaces)
		if string(got) != c.want || ok != (c.want != "") {
			t.Errorf("digits.AppendShortFloat(%v) = %q, %v; want %q", c.f, got, ok, c.want)
		}
	}
	for i := 0; i < 100000; i++ {
		k := r.IntN(14)
		n := r.Int64N(int64(math.Pow10(1 + r.IntN(16))))
		f := float64(n) / math.Pow10(k)
		fs = append(fs, f, -f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1)), math.Float64frombits(r.Uint64()))
	}
	for e := -8; e <= 22; e++ {
		p := math.Pow10(e)
		fs = append(fs, p, math.Nextafter(p, 0), math.Nextafter(p, 2*p), 9.5*p, 0.15*p, 0.99999999999999*p)
	}
	fs = append(fs, 999999999999999, 999999999999999.9, 1e15-0.5, 0.30000000000000004, 1.0/3, 2.0/3, 100.125, 0.000001, 0.0000015)
	// The edges encoding/json treats specially, zeros, subnormals, the
	// extremes and the errors (NaN and the infinities).
	fs = append(fs, 1e21, math.Nextafter(1e21, 0), math.Nextafter(1e21, 2e21), 1e-6, math.Nextafter(1e-6, 0),
		math.Nextafter(1e-6, 1), 1e-7, 0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		2.2250738585072014e-308, math.Nextafter(2.2250738585072014e-308, 0), math.MaxFloat64, -math.MaxFloat64,
		1e15, math.Nextafter(1e15, 0), 1e12+0.5, 4503599627370495.5, 4503599627370496, 9007199254740993,
		math.NaN(), math.Inf(1), math.Inf(-1))
	// Decimals that end in 5, whose scaled values are ties for the
	// rounding to even on the way to their length.
	for i := 0; i < 20000; i++ {
		k := r.IntN(13)
		n := 2*r.Int64N(int64(math.Pow10(1+r.IntN(14)))) + 1
		f := float64(n) / 2 / math.Pow10(k)
		fs = append(fs, f, -f, float64(n)/2)
	}
	var buf []byte
	canary := make([]byte, 2+17+8)
	shorts := 0
	for _, f := range fs {
		want, err := json.Marshal(f)
		var ok bool
		buf, ok = appendFloat(buf[:0], f, 64)
		if (err == nil) != ok || err == nil && string(buf) != string(want) {
			t.Fatalf("appendFloat(%v (%#x)) = %q, %v; encoding/json writes %q, %v", f, math.Float64bits(f), buf, ok, want, err)
		}
		if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
			if s := strconv.FormatFloat(f, 'f', -1, 64); string(buf) != s {
				t.Fatalf("appendFloat(%v) = %q, strconv writes %q", f, buf, s)
			}
		}
		if a := math.Abs(f); a >= 1e-6 && a < 1e15 {
			// The short decimal in exactly the 17 bytes of room it
			// makes, before a canary; and strconv's path, which must
			// agree with it.
			for i := range canary {
				canary[i] = 0xAA
			}
			if got, ok := digits.AppendShortFloat(canary[:2:2+17], f, digits.MaxPlaces); ok {
				if string(got[2:]) != string(want) {
					t.Fatalf("digits.AppendShortFloat(%v) in 17 bytes of room = %q, encoding/json writes %q", f, got[2:], want)
				}
				shorts++
			}
			for i, c := range canary[2+17:] {
				if c != 0xAA {
					t.Fatalf("digits.AppendShortFloat(%v) wrote byte %d past the room", f, i)
				}
			}
			if got, _ := appendFloatStrconv(nil, f, 64); string(got) != string(want) {
				t.Fatalf("appendFloatStrconv(%v) = %q, encoding/json writes %q", f, got, want)
			}
		}
	}
	if shorts < len(fs)/4 {
		t.Errorf("digits.AppendShortFloat took %d of %d floats: too few to test it", shorts, len(fs))
	}
}

// TestAppendStringPositions holds appendString to encoding/json on
// strings of every length from 0 to 40 made of safe bytes with one byte
// of every value at every position (and, up to 24 bytes, a second one
// further on), so that the short-string words, the eight-byte steps and
// the overlapping last word each see every byte that needs an escape at
// every place; and on two-byte and other UTF-8 sequences, whole and cut.
// Each string is appended to a buffer without spare capacity (grow's
// path) and to one of exactly the room appendString makes, followed
// by a canary its word stores must leave alone.
func TestAppendStringPositions(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	backing := make([]byte, 64+stringRoom+1+16)
	check := func(s string) {
		t.Helper()
		for _, html := range []bool{true, false} {
			buf.Reset()
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if got := appendString([]byte("x"), s, html); string(got[1:]) != string(want) || got[0] != 'x' {
				t.Fatalf("appendString(%q, html %v) = %q, encoding/json writes %q", s, html, got, want)
			}
			room := 1 + len(s) + stringRoom
			for i := range backing {
				backing[i] = 0xAA
			}
			got := appendString(backing[:1:room], s, html)
			if string(got[1:]) != string(want) {
				t.Fatalf("appendString(%q, html %v) with no more room than it makes = %q, encoding/json writes %q", s, html, got[1:], want)
			}
			for i, c := range backing[room:] {
				if c != 0xAA {
					t.Fatalf("appendString(%q, html %v) wrote byte %d past the buffer's capacity", s, html, i)
				}
			}
		}
	}
	for n := 0; n <= 40; n++ {
		base := []byte(strings.Repeat("abcdefgh", 5)[:n])
		check(string(base))
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				w := append([]byte(nil), base...)
				w[pos] = byte(c)
				check(string(w))
				if pos+3 < n && n <= 24 {
					for _, other := range []byte{'"', '&', '<', 0x01, 0xc3, 0x80, 0xe2} {
						w[pos+3] = other
						check(string(w))
					}
				}
			}
		}
	}
	for _, s := range []string{"é", "Café crème", "\xc3", "\xc3(", "\xc2\x80", "\xdf\xbf", "\xc1\xbf", "\xe0\x80\x80",
		"a\u2028b\u2029c", "\xe2\x80", "Saint-Étienne, 12 Rue de l'Église", "日本語のテキスト", "\xf0\x9f\x98\x80!", "\xed\xa0\x80"} {
		check(s)
		check(s + "abcdefgh")
		check("abcdefg" + s)
		check(s + "abcdefghijklmnopqrstuvw")
	}
}

// TestAppendTime holds appendTimeJSON, which writes both time types, to
// time.Time's MarshalJSON and to json.Marshal: every year's first and last
// nanosecond at the edges 0 and 9999 and beyond, in UTC and in zones that
// move the year across an edge, fractions with every number of trailing
// zeros, random instants, times with a monotonic reading, zone offsets
// with seconds and of a day or more; in a buffer of exactly the room it
// may use, before a canary.
func TestAppendTime(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	zones := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("", -2*3600),
		time.FixedZone("", 5*3600+30*60+17), time.FixedZone("", -23*3600-59*60)}
	var ts []time.Time
	for _, y := range []int{-1, 0, 1, 999, 1000, 1969, 1970, 2000, 2026, 9998, 9999, 10000} {
		for _, z := range zones {
			ts = append(ts, time.Date(y, 1, 1, 0, 0, 0, 0, z), time.Date(y, 12, 31, 23, 59, 59, 999999999, z),
				time.Date(y, 1, 1, 0, 0, 0, 0, z).Add(-1), time.Date(y, 2, 29, 12, 0, 0, 1, z))
		}
	}
	for z := 0; z <= 9; z++ {
		ns := 123456789 / int(math.Pow10(z)) * int(math.Pow10(z))
		ts = append(ts, time.Date(2026, 11, 22, 10, 31, 7, ns, time.UTC), time.Date(2026, 11, 22, 10, 31, 7, int(math.Pow10(z)), time.UTC))
	}
	for i := 0; i < 20000; i++ {
		tm := time.Date(r.IntN(10000), time.Month(1+r.IntN(12)), 1+r.IntN(31), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1e9), zones[r.IntN(len(zones))])
		if i%3 == 0 {
			tm = tm.Truncate(time.Duration(math.Pow10(r.IntN(10))))
		}
		ts = append(ts, tm)
	}
	now := time.Now()
	ts = append(ts, now, now.UTC(), now.In(time.FixedZone("UTC", 0)), now.In(time.FixedZone("", 3600)),
		time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("z", 24*3600)), time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("z", -24*3600)))
	const room = 37 // "2006-01-02T15:04:05.999999999-07:00" and its quotes
	backing := make([]byte, 3+room+16)
	for _, tm := range ts {
		want, err := tm.MarshalJSON()
		if m, jerr := json.Marshal(tm); (jerr == nil) != (err == nil) || err == nil && string(m) != string(want) {
			t.Fatalf("json.Marshal(%v) = %s, %v; MarshalJSON %s, %v", tm, m, jerr, want, err)
		}
		got, ok := appendTimeJSON(nil, tm)
		if ok != (err == nil) || ok && string(got) != string(want) {
			t.Fatalf("appendTimeJSON(%v) = %s, %v; MarshalJSON %s, %v", tm, got, ok, want, err)
		}
		for i := range backing {
			backing[i] = 0xAA
		}
		got, ok = appendTimeJSON(backing[:3:3+room], tm)
		if ok != (err == nil) || ok && string(got[3:]) != string(want) {
			t.Fatalf("appendTimeJSON(%v) in %d bytes of room = %s, %v; MarshalJSON %s, %v", tm, room, got[3:], ok, want, err)
		}
		for i, c := range backing[3+room:] {
			if c != 0xAA {
				t.Fatalf("appendTimeJSON(%v) wrote byte %d past the buffer's capacity", tm, i)
			}
		}
	}
}

// TestSliceEncoderLoops holds the loops of slices of strings and of fixed
// structs to encoding/json: nil, empty, one and several elements, in
// both modes.
func TestSliceEncoderLoops(t *testing.T) {
	type plain struct {
		A string `json:"a"`
		B int    `json:"b"`
	}
	type outer struct {
		S []string `json:"s"`
		P []plain  `json:"p"`
	}
	vs := []any{
		&[]string{}, &[]string{"<a&b>"}, &[]string{"x", "", "Café \"q\"", strings.Repeat("z", 30)},
		&[]plain{}, &[]plain{{"a", 1}}, &[]plain{{"<", -1}, {}, {"é\n", math.MaxInt}},
		&outer{}, &outer{S: []string{}, P: []plain{}}, &outer{S: []string{"a", "b"}, P: []plain{{"c", 2}, {"d", 3}}},
	}
	var buf bytes.Buffer
	for _, v := range vs {
		for _, html := range []bool{true, false} {
			buf.Reset()
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			got, ok := appendFast(nil, v, html)
			if !ok || string(got) != string(want) {
				t.Fatalf("%T %v, html %v: %q, %v; encoding/json writes %q", v, v, html, got, ok, want)
			}
		}
	}
}

// TestFixedStructKeys holds the fixed-struct plan to encoding/json for
// keys of every length around the two-word store (pre of 8 to 16 bytes),
// as the first field and after others, with values of each kind it
// writes itself, in a buffer of any spare capacity.
func TestFixedStructKeys(t *testing.T) {
	type (
		k1 struct {
			A   string  `json:"a"`
			Bcd int64   `json:"bcd"`
			E   bool    `json:"abcd"`
			F   float64 `json:"abcde"`
			G   int     `json:"abcdef"`
		}
		k2 struct {
			A string  `json:"abcdefg"`
			B int64   `json:"abcdefgh"`
			C bool    `json:"abcdefghi"`
			D float64 `json:"abcdefghij"`
			E int     `json:"abcdefghijk"`
			F string  `json:"abcdefghijkl"`
			G string  `json:"abcdefghijklm"`
			H []int   `json:"abcdefghijklmn"`
			I k1      `json:"abcdefghijklmno"`
		}
		k3 struct {
			A int64 `json:"abcdefghijkl"`
			B k2    `json:"b"`
			C []k1  `json:"abcdefghijklmnopq"`
		}
		k4 struct {
			A int64 `json:"abcdefghijklm"`
		}
		k5 struct {
			A string `json:"abcdefghijklmn"`
			B string `json:"abcdefghijklmno"`
		}
		// Names of 19, 20, 21 and 26 bytes: pre (the name, its quotes,
		// the colon and the byte before) of 23, 24 (the longest written
		// as words), 25 and 30 bytes, before values of every kind.
		k6 struct {
			A int64   `json:"abcdefghijklmnopqrs"`
			B string  `json:"abcdefghijklmnopqrst"`
			C float64 `json:"abcdefghijklmnopqrstu"`
			D bool    `json:"abcdefghijklmnopqrstuvwxyz"`
			E int     `json:"abcdefghijklmnopqrst2"`
			F int64   `json:"abcdefghijklmnopqrs2"`
			G float64 `json:"abcdefghijklmnopqr2"`
		}
		k7 struct {
			A int64 `json:"abcdefghijklmnopqrst"`
		}
	)
	one := k1{"x<y", -12345, true, 2.5, 7}
	vs := []any{
		&one, &k2{"é", 1 << 40, false, -0.001, -9, "", "0123456789abcdefXYZ", []int{1, 22, 333}, one},
		&k3{-1, k2{}, []k1{one, {}}}, &k4{99}, &k5{"a", "bb"}, &[]k4{{1}, {22}},
		&k6{math.MinInt64, "<&>", 0.1, true, math.MaxInt, -1, 1e300}, &k6{}, &[]k7{{math.MinInt64}, {}},
		&[]k6{{1, "", -2.5, false, 0, math.MaxInt64, math.Inf(1) - math.Inf(1)}}, // NaN: encoding/json's error
	}
	for _, v := range vs {
		want, err := json.Marshal(v)
		for spare := 0; spare <= 100; spare++ {
			backing := make([]byte, 3+spare+16)
			for i := range backing {
				backing[i] = 0xAA
			}
			got, ok := appendFast(backing[:3:3+spare], v, true)
			if err != nil {
				if ok {
					t.Fatalf("%T: the fast path writes %q where encoding/json fails: %v", v, got[3:], err)
				}
			} else if !ok || string(got[3:]) != string(want) {
				t.Fatalf("%T with %d spare bytes: %q, %v; encoding/json writes %q", v, spare, got[3:], ok, want)
			}
			for i, c := range backing[3+spare:] {
				if c != 0xAA {
					t.Fatalf("%T with %d spare bytes: byte %d past the buffer's capacity written", v, spare, i)
				}
			}
		}
	}
}

// TestFixedStructLongKeyInteger holds an int or int64 field after a key
// of every length from 1 to 120 bytes, first or after another field, at
// the extremes of its range, to encoding/json, in a buffer of any spare
// capacity with a canary past it: the integer is written in place, in
// room that a long key must not have used up.
func TestFixedStructLongKeyInteger(t *testing.T) {
	for _, it := range []reflect.Type{reflect.TypeFor[int64](), reflect.TypeFor[int]()} {
		for n := 1; n <= 120; n++ {
			name := strings.Repeat("k", n)
			for _, first := range []bool{true, false} {
				var fields []reflect.StructField
				if !first {
					fields = append(fields, reflect.StructField{Name: "A", Type: reflect.TypeFor[bool](), Tag: `json:"a"`})
				}
				fields = append(fields, reflect.StructField{Name: "L", Type: it, Tag: reflect.StructTag(`json:"` + name + `"`)})
				typ := reflect.StructOf(fields)
				for _, x := range []int64{math.MinInt64, math.MaxInt64, -1, 0} {
					v := reflect.New(typ)
					v.Elem().Field(len(fields) - 1).SetInt(x)
					want, err := json.Marshal(v.Interface())
					if err != nil {
						t.Fatal(err)
					}
					for spare := 0; spare <= 64+n; spare++ {
						backing := bytes.Repeat([]byte{0xAA}, 3+spare+32)
						got, ok := appendFast(backing[:3:3+spare], v.Interface(), true)
						if !ok || string(got[3:]) != string(want) {
							t.Fatalf("%v = %d, %d spare bytes: %q, %v; encoding/json writes %q", typ, x, spare, got[3:], ok, want)
						}
						for i, c := range backing[3+spare:] {
							if c != 0xAA {
								t.Fatalf("%v = %d, %d spare bytes: byte %d past the buffer's capacity written", typ, x, spare, i)
							}
						}
					}
				}
			}
		}
	}
}
