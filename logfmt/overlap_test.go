package logfmt

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// aliasAt returns dst (len n, holding prefix) and s, a string whose bytes
// are in dst's backing array at offset n+k: in dst's spare capacity for
// k >= 0, straddling the end of dst's bytes for k < 0. Only unsafe makes
// such a string; a caller that builds one in its own buffer gets it.
func aliasAt(prefix, s string, k, room int) (dst []byte, alias string) {
	n := len(prefix)
	arr := make([]byte, n+k+len(s)+room)
	copy(arr, prefix)
	copy(arr[n+k:], s)
	dst = arr[:n:len(arr)]
	if len(s) == 0 {
		return dst, ""
	}
	return dst, unsafe.String(&arr[n+k], len(s))
}

var overlapInputs = []string{
	"plain", "two words", `say "hi" \ there`, "line\nbreak\ttab", "nul\x00\x01\x02",
	"bad\xff\xfe utf8", "héllo wörld =", "\u2028日本語 ", "a=b", "x", "",
	"rep\uFFFDl key", "0123456789abcdef ghijklmnopqrstuvwxyz\"\"\"\"\"\"\"\"\"\"\"\"",
}

// TestAppendOverlap checks that AppendValue and AppendKey give the same
// bytes when s lies in dst's spare capacity, or straddles its end, as when
// it does not, and that go-logfmt reads the value back. Quoting once wrote
// its opening '"' over s's first byte.
func TestAppendOverlap(t *testing.T) {
	for _, s := range overlapInputs {
		for _, k := range []int{-4, -3, -1, 0, 1, 2, 5, 64} {
			if k < 0 && len(s) < -k {
				continue
			}
			for _, room := range []int{0, 8, 256} { // grows, or does not
				for _, fn := range []struct {
					name string
					f    func([]byte, string) []byte
				}{{"AppendValue", AppendValue}, {"AppendKey", AppendKey}} {
					const prefix = "k=12345"
					var dst, want []byte
					var alias string
					if k >= 0 {
						dst, alias = aliasAt(prefix, s, k, room)
						want = fn.f([]byte(prefix), s)
					} else {
						// s starts -k bytes before the end of dst.
						p := prefix[:len(prefix)+k] + s[:-k]
						arr := make([]byte, len(prefix)+len(s)+room+k)
						copy(arr, p)
						copy(arr[len(p):], s[-k:])
						dst = arr[:len(p):len(arr)]
						alias = unsafe.String(&arr[len(prefix)+k], len(s))
						want = fn.f([]byte(p), s)
					}
					got := fn.f(dst, alias)
					if !bytes.Equal(got, want) {
						t.Errorf("%s(dst, %q) with s at offset %d of dst's end, %d spare: %q, want %q", fn.name, s, k, room, got, want)
					}
				}
			}
		}
		// The oracle: go-logfmt reads the value back.
		dst, alias := aliasAt("k=", s, 0, 64)
		line := append(AppendValue(dst, alias), '\n')
		if recs := readBack(t, line); len(recs) != 1 || len(recs[0]) != 2 || recs[0][1] != wantRead(s) {
			t.Errorf("AppendValue with s in dst's spare capacity wrote %q; go-logfmt reads %q, want %q", line, recs, wantRead(s))
		}
	}
}

func TestAppendNoOverlapAllocatesNothing(t *testing.T) {
	dst := make([]byte, 0, 256)
	s := "two words\nand \"quotes\""
	pooltest.WantAllocs(t, 0, func() { dst = AppendValue(dst[:0], s); dst = AppendKey(dst, s) })
}
