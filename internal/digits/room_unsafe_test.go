//go:build !poolkit_nounsafe

package digits

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestPutAt checks PutAt against strconv: u's digits, exactly Len(u) of
// them, at the pointer it is given, and nothing before or after them, for
// 0, every power of ten and of two with their neighbours, the largest
// uint64 and random values.
func TestPutAt(t *testing.T) {
	var buf [8 + MaxLen + 8]byte
	for _, u := range edges() {
		for i := range buf {
			buf[i] = '#'
		}
		n := Len(u)
		PutAt(unsafe.Pointer(&buf[8]), n, u)
		if got, want := string(buf[8:8+n]), strconv.FormatUint(u, 10); got != want {
			t.Fatalf("PutAt(%d) wrote %q, want %q", u, got, want)
		}
		for i, c := range buf {
			if (i < 8 || i >= 8+n) && c != '#' {
				t.Fatalf("PutAt(%d) wrote byte %d, outside its %d digits", u, i, n)
			}
		}
	}
}
