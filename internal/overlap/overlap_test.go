package overlap

import "testing"

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
		{"nil dst", nil, buf, false},
	} {
		if got := Spare(tc.dst, tc.src); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
