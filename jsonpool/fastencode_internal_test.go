package jsonpool

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestEncUnplain8 holds the word-at-a-time test to the byte-at-a-time
// rule: every byte value at every position among plain bytes, and random
// words. The mask must flag every byte that needs an escape and no other.
func TestEncUnplain8(t *testing.T) {
	plainByte := func(c byte, html bool) bool {
		if html {
			return c < 0x80 && encPlainASCII[c]
		}
		return c < 0x80 && encPlainASCIINoHTML[c]
	}
	check := func(w []byte) {
		for _, html := range []bool{false, true} {
			m := encUnplain8(string(w), html)
			first := -1
			for j, c := range w {
				flagged := m>>(8*j+7)&1 == 1
				if !plainByte(c, html) && !flagged {
					t.Fatalf("encUnplain8(%q, html %v) = %#x misses byte %d", w, html, m, j)
				}
				if flagged && first < 0 {
					first = j
				}
				if flagged && plainByte(c, html) {
					// encUnplain's mask is exact: encAppendString copies
					// a string whole only when nothing is flagged, and a
					// plain byte flagged would only cost time, but it
					// would show the arithmetic is not what its doc says.
					t.Fatalf("encUnplain8(%q, html %v) = %#x flags byte %d, which is plain", w, html, m, j)
				}
			}
			if m&^encHighs != 0 {
				t.Fatalf("encUnplain8(%q) = %#x sets bits other than high bits", w, m)
			}
		}
	}
	base := []byte(strings.Repeat("a", 8))
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			w := append([]byte(nil), base...)
			w[pos] = byte(c)
			check(w)
			for _, other := range []byte{0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, '<', '"'} {
				w2 := append([]byte(nil), w...)
				w2[(pos+3)%8] = other
				check(w2)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	w := make([]byte, 8)
	for i := 0; i < 200000; i++ {
		for j := range w {
			w[j] = byte(r.IntN(0x90))
		}
		check(w)
	}
}

// TestEncAppendFloat holds the float format to encoding/json's, through
// json.Marshal, and to strconv: short decimals (where the shortcut
// applies) near every power of ten and format switch, their neighbours
// one ulp away, and random bit patterns.
func TestEncAppendFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	var fs []float64
	for _, c := range []struct {
		f    float64
		want string
	}{{4.2, "4.2"}, {-1.234, "-1.234"}, {0.000001, "0.000001"}, {123456789.125, "123456789.125"}, {98, "98"}, {0.30000000000000004, ""}} {
		got, ok := encAppendShortDecimal(nil, c.f, math.Abs(c.f))
		if string(got) != c.want || ok != (c.want != "") {
			t.Errorf("encAppendShortDecimal(%v) = %q, %v; want %q", c.f, got, ok, c.want)
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
	for _, f := range fs {
		want, err := json.Marshal(f)
		var ok bool
		buf, ok = encAppendFloat(buf[:0], f, 64)
		if (err == nil) != ok || err == nil && string(buf) != string(want) {
			t.Fatalf("encAppendFloat(%v (%#x)) = %q, %v; encoding/json writes %q, %v", f, math.Float64bits(f), buf, ok, want, err)
		}
		if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
			if s := strconv.FormatFloat(f, 'f', -1, 64); string(buf) != s {
				t.Fatalf("encAppendFloat(%v) = %q, strconv writes %q", f, buf, s)
			}
		}
	}
}

// TestEncAppendStringPositions holds encAppendString to encoding/json on
// strings of every length from 0 to 20 made of plain bytes with one byte
// of every value at every position (and a second one further on), so
// that the short-string word, the eight-byte steps and the overlapping
// last word each see every byte that needs an escape at every place; and
// on two-byte and other UTF-8 sequences, whole and cut.
func TestEncAppendStringPositions(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	check := func(s string) {
		t.Helper()
		for _, html := range []bool{true, false} {
			buf.Reset()
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if got := encAppendString([]byte("x"), s, html); string(got[1:]) != string(want) || got[0] != 'x' {
				t.Fatalf("encAppendString(%q, html %v) = %q, encoding/json writes %q", s, html, got, want)
			}
		}
	}
	for n := 0; n <= 20; n++ {
		base := []byte(strings.Repeat("abcdefgh", 3)[:n])
		check(string(base))
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				w := append([]byte(nil), base...)
				w[pos] = byte(c)
				check(string(w))
				if pos+3 < n {
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
	}
}

// TestEncPlainStructKeys holds the plain-struct plan to encoding/json for
// keys of every length around the two-word store (pre of 8 to 16 bytes),
// as the first field and after others, with values of each kind it
// writes itself, in a buffer of any spare capacity.
func TestEncPlainStructKeys(t *testing.T) {
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
	)
	one := k1{"x<y", -12345, true, 2.5, 7}
	vs := []any{
		&one, &k2{"é", 1 << 40, false, -0.001, -9, "", "0123456789abcdefXYZ", []int{1, 22, 333}, one},
		&k3{-1, k2{}, []k1{one, {}}}, &k4{99}, &k5{"a", "bb"}, &[]k4{{1}, {22}},
	}
	for _, v := range vs {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, spare := range []int{0, 1, 7, 17, 47, 48, 100} {
			buf := make([]byte, 3, 3+spare)
			got, ok := encAppendFast(buf, v, true)
			if !ok || string(got[3:]) != string(want) {
				t.Fatalf("%T with %d spare bytes: %q, %v; encoding/json writes %q", v, spare, got[3:], ok, want)
			}
		}
	}
}
