package digits

import (
	"strconv"
	"testing"
)

func TestPairs(t *testing.T) {
	if len(Pairs) != 200 {
		t.Fatalf("len(Pairs) = %d, want 200", len(Pairs))
	}
	for n := range 100 {
		want := strconv.Itoa(n)
		if n < 10 {
			want = "0" + want
		}
		if got := Pairs[2*n : 2*n+2]; got != want {
			t.Errorf("Pairs for %d = %q, want %q", n, got, want)
		}
	}
}
