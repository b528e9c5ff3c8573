package crosstalk

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestBodies(t *testing.T) {
	for _, n := range []int{200, 5000, 128 << 10, 1 << 20} {
		s := Secret(n)
		if len(s) > n || !json.Valid(s) || bytes.Count(s, []byte(Token)) < 2 {
			t.Errorf("Secret(%d): %d bytes, valid JSON %v, %d tokens", n, len(s), json.Valid(s), bytes.Count(s, []byte(Token)))
		}
		for seed := range uint64(3) {
			o := Other(n, seed)
			if len(o) > n || !json.Valid(o) {
				t.Errorf("Other(%d, %d): %d bytes, valid JSON %v", n, seed, len(o), json.Valid(o))
			}
			if i := bytes.IndexFunc(o, func(c rune) bool { return 'A' <= c && c <= 'Z' }); i >= 0 {
				t.Errorf("Other(%d, %d) holds the capital %q at %d", n, seed, o[i], i)
			}
		}
	}
	if bytes.Equal(Other(5000, 1), Other(5000, 2)) {
		t.Error("Other gives the same body for two seeds")
	}
}
