package jsonpool

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEncPlain8 holds the word-at-a-time test to the byte-at-a-time rule:
// every byte value at every position among plain bytes, and random words.
func TestEncPlain8(t *testing.T) {
	plainByte := func(c byte, html bool) bool {
		if html {
			return c < 0x80 && encPlainASCII[c]
		}
		return c < 0x80 && encPlainASCIINoHTML[c]
	}
	check := func(w []byte) {
		for _, html := range []bool{false, true} {
			want := true
			for _, c := range w {
				want = want && plainByte(c, html)
			}
			if got := encPlain8(string(w), html); got != want {
				t.Fatalf("encPlain8(%q, html %v) = %v, want %v", w, html, got, want)
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
