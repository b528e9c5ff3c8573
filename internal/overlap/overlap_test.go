package overlap

import (
	"testing"
	"unsafe"
)

func TestSpare(t *testing.T) {
	buf := make([]byte, 100)
	other := make([]byte, 100)
	for _, tc := range []struct {
		name     string
		dst, src []byte
		want     bool
	}{
		{"in place", buf[:0], buf, true},
		{"separate arrays", buf[:0], other, false},
		{"spare ends where src starts", buf[:10:20], buf[20:30], false},
		{"spare reaches src's first byte", buf[:10:21], buf[20:30], true},
		{"spare starts where src ends", buf[:30], buf[20:30], false},
		{"spare starts at src's last byte", buf[:29], buf[20:30], true},
		{"src inside dst's length", buf[:50], buf[10:20], false},
		{"no spare capacity", buf[:10:10], buf[10:], false},
		{"empty src", buf[:0], buf[50:50], false},
		{"nil src", buf[:0], nil, false},
		{"nil dst", nil, buf, false},
	} {
		if got := Spare(tc.dst, tc.src); got != tc.want {
			t.Errorf("Spare, %s: %v, want %v", tc.name, got, tc.want)
		}
		s := unsafe.String(unsafe.SliceData(tc.src), len(tc.src))
		if got := SpareString(tc.dst, s); got != tc.want {
			t.Errorf("SpareString, %s: %v, want %v", tc.name, got, tc.want)
		}
		if got := SpareRegion(tc.dst).Holds(unsafe.SliceData(tc.src), len(tc.src)); got != tc.want {
			t.Errorf("SpareRegion.Holds, %s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if SpareString(buf[:0], "a constant") {
		t.Error("SpareString: a constant string lies in a heap slice's capacity")
	}
}

// TestRegionAcrossStackGrowth keeps a Region of an array on a goroutine's
// stack across calls deep enough to make the stack grow, which copies it
// elsewhere: the Region must still tell the array's spare bytes.
func TestRegionAcrossStackGrowth(t *testing.T) {
	done := make(chan string)
	go func() { // a new goroutine, whose stack starts small
		var buf [64]byte // stays on the stack: nothing it points to escapes
		r := SpareRegion(buf[:8])
		before := uintptr(unsafe.Pointer(&buf[0]))
		growStack(64)
		moved := uintptr(unsafe.Pointer(&buf[0])) != before
		switch {
		case !moved:
			done <- "" // nothing to check: the stack did not move
		case !r.Holds(&buf[10], 1):
			done <- "after the stack moved, the Region no longer holds dst's spare bytes"
		case r.Holds(&buf[0], 8):
			done <- "after the stack moved, the Region holds dst's contents"
		default:
			done <- ""
		}
	}()
	if msg := <-done; msg != "" {
		t.Error(msg)
	}
}

// growStack calls itself depth times with a 1 KiB frame each.
//
//go:noinline
func growStack(depth int) byte {
	var pad [1024]byte
	pad[depth%len(pad)] = byte(depth)
	if depth == 0 {
		return pad[0]
	}
	return growStack(depth-1) + pad[depth%len(pad)]
}
