package jsonpool

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// stopByte is the definition of the bytes that end a run of verbatim
// string bytes, one byte at a time.
func stopByte(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// TestByteClass holds the word-at-a-time tests of scan.go to their
// byte-at-a-time definitions, flag by flag: every byte value at every
// position of words of other fillers (0x80 and above among them), alone
// and beside a second byte of the class, and random words. escapeMask
// must flag exactly the bytes of its class, none must agree with it, and
// stopMask's first flag must be the first stop byte.
func TestByteClass(t *testing.T) {
	escape := func(c byte, html bool) bool {
		return stopByte(c) || c >= 0x80 || html && (c == '<' || c == '>' || c == '&')
	}
	flagged := func(m uint64, j int) bool { return m>>(8*j+7)&1 == 1 }
	check := func(w []byte) {
		x := load8(w)
		if uint32(x) != load4(string(w)) {
			t.Fatalf("load4(% x) = %#x, want %#x", w, load4(string(w)), uint32(x))
		}
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
		// stopMask: the first flag is the first stop byte, exactly, and
		// there is none without one.
		m := stopMask(x)
		if m&^wordHighs != 0 {
			t.Fatalf("stopMask(% x) = %#x: a bit other than a byte's high bit", w, m)
		}
		first := -1
		for j, c := range w {
			if isStop(c) != stopByte(c) {
				t.Fatalf("isStop(%#x) = %v, want %v", c, isStop(c), stopByte(c))
			}
			if first < 0 && stopByte(c) {
				first = j
			}
		}
		if got := bits.TrailingZeros64(m) >> 3; first < 0 && m != 0 || first >= 0 && got != first {
			t.Fatalf("stopMask(% x) = %#x: first flag at byte %d, want %d", w, m, got, first)
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

// TestScanVerbatim checks scanVerbatim against a byte-by-byte scan, for every
// byte value at every position of inputs of 0 to 20 bytes, from every
// start, with a verbatim or stop byte last: a stop byte in a whole word, in the tail after the last whole
// word, at the end of the input, or none.
func TestScanVerbatim(t *testing.T) {
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
