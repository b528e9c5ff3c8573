package logfmt

import (
	"strings"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// AppendValue and AppendKey write only within the length they return,
// whatever room dst has to spare, for values that need quoting, escapes
// and replaced bytes as well as plain ones.
func TestAppendWritesWithinLength(t *testing.T) {
	inputs := []string{"", "plain", "needs quote", `q"uote`, "tab\tnl\n", "\x00\x7f\xff", "ü€😀", "a=b", strings.Repeat("x ", 100)}
	for _, s := range inputs {
		for _, room := range []int{0, 1, 3, len(s), 2*len(s) + 8, 1024} {
			pooltest.WithinLength(t, "AppendValue "+s, []byte("k="), room, func(dst []byte) ([]byte, error) {
				return AppendValue(dst, s), nil
			})
			pooltest.WithinLength(t, "AppendKey "+s, []byte("a=1 "), room, func(dst []byte) ([]byte, error) {
				return AppendKey(dst, s), nil
			})
		}
	}
}
