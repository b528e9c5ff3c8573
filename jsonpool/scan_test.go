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

// stopByte is the definition of the bytes that end a run of verbatim
// string bytes, one byte at a time.
func stopByte(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// TestByteClass holds the word-at-a-time tests of scan.go to their
// byte-at-a-time definitions, flag by flag: every byte value at every
// position of words of other fillers (0x80 and above among them), alone
// and beside a second byte of the class, and random words. Each mask must
// flag exactly the bytes of its class, and none must agree with the
// encoder's mask.
func TestByteClass(t *testing.T) {
	escape := func(c byte, html bool) bool {
		return stopByte(c) || c >= 0x80 || html && (c == '<' || c == '>' || c == '&')
	}
	flagged := func(m uint64, j int) bool { return m>>(8*j+7)&1 == 1 }
	check := func(w []byte) {
		x := load8(w)
		if x != load8String(string(w)) {
			t.Fatalf("load8(% x) = %#x, load8String = %#x", w, x, load8String(string(w)))
		}
		for _, html := range []bool{false, true} {
			m := escapeMask(x, html)
			if m&^wordHighs != 0 {
				t.Fatalf("escapeMask(% x, html %v) = %#x: a bit other than a byte's high bit", w, html, m)
			}
			some := false
			for j, c := range w {
				some = some || escape(c, html)
				if flagged(m, j) != escape(c, html) {
					t.Fatalf("escapeMask(% x, html %v) = %#x: byte %d flagged %v, want %v", w, html, m, j, flagged(m, j), escape(c, html))
				}
			}
			k := &stringClass
			if html {
				k = &htmlClass
			}
			if k.none(x) == some {
				t.Fatalf("none(% x, html %v) = %v, want %v", w, html, k.none(x), !some)
			}
		}
		m := stopMask(x)
		if m&^wordHighs != 0 {
			t.Fatalf("stopMask(% x) = %#x: a bit other than a byte's high bit", w, m)
		}
		for j, c := range w {
			if flagged(m, j) != stopByte(c) || isStop(c) != stopByte(c) {
				t.Fatalf("stopMask(% x) = %#x: byte %d flagged %v, want %v", w, m, j, flagged(m, j), stopByte(c))
			}
		}
	}
	fillers := []byte{' ', 'a', '~', 0x7f, 0x80, 0xa0, 0xa2, 0xbc, 0xc3, 0xff, '!', '#', '[', ']'}
	for _, fill := range fillers {
		for pos := 0; pos < 8; pos++ {
			for c := 0; c < 256; c++ {
				for _, second := range []int{-1, '"', '\\', '<', '&', 0x00, 0x1f, 0x80} {
					var w [8]byte
					for k := range w {
						w[k] = fill
					}
					w[pos] = byte(c)
					if second >= 0 {
						w[(pos+3)%8] = byte(second)
					}
					check(w[:])
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	w := make([]byte, 8)
	for i := 0; i < 200000; i++ {
		for j := range w {
			w[j] = byte(r.IntN(0x90))
			if i%2 == 1 {
				w[j] = byte(r.IntN(256)) // bytes of 0x80 up, whose sums carry
			}
		}
		check(w)
	}
}

// TestScanPlain checks scanVerbatim against a byte-by-byte scan, for every
// byte value at every position of inputs of 0 to 20 bytes, from every
// start, with a plain or stop byte last: a stop byte in a whole word, in the tail after the last whole
// word, at the end of the input, or none.
func TestScanPlain(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for pos := -1; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				if pos < 0 && c > 0 {
					break
				}
				for _, last := range []byte{'x', '"', 0x01} {
					data := bytes.Repeat([]byte{'x'}, n)
					if n > 0 {
						data[n-1] = last
					}
					if pos >= 0 {
						data[pos] = byte(c)
					}
					for start := 0; start <= n; start++ {
						want, wantHigh := len(data), false
						for k := start; k < len(data); k++ {
							if stopByte(data[k]) {
								want = k
								break
							}
							if data[k] >= 0x80 {
								wantHigh = true
							}
						}
						got, high := scanVerbatim(data, start)
						if got != want || high != wantHigh {
							t.Fatalf("scanVerbatim(%q, %d) = %d, %v; want %d, %v", data, start, got, high, want, wantHigh)
						}
					}
				}
			}
		}
	}
}

// TestStringEndEveryPosition holds isValid, whose string scan goes eight
// bytes at a time, to json.Valid on strings of up to 24 bytes with every
// byte value, and every escape and its truncations, at every position,
// closed and cut off at the end.
func TestStringEndEveryPosition(t *testing.T) {
	var specials [][]byte
	for c := 0; c < 256; c++ {
		specials = append(specials, []byte{byte(c)})
	}
	for _, e := range []string{`\"`, `\\`, `\/`, `\b`, `\n`, `\u00e9`, `\u00`, `\uZZZZ`, `\x`, `\`, "\xc3\xa9", "\xe2\x82"} {
		specials = append(specials, []byte(e))
	}
	for n := 0; n <= 24; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, sp := range specials {
				body := append(append(bytes.Repeat([]byte{'a'}, pos), sp...), bytes.Repeat([]byte{'b'}, n-pos)...)
				doc := append(append([]byte{'"'}, body...), '"')
				checkIsValid(t, doc)
				checkIsValid(t, doc[:len(doc)-1])
				checkIsValid(t, append([]byte(`{"k":`), append(doc, '}')...))
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
