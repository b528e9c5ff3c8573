package profallocs

import (
	"strings"
	"testing"
)

func TestQuoteBody(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Unknown profile: nosuch\n", "Unknown profile: nosuch"}, // plain text as it is
		{"a\x1b[2Jb", `"a\x1b[2Jb"`},
		{"\xff", `"\xff"`},
		{strings.Repeat("é", 200), strings.Repeat("é", 150) + "…"}, // cut at 300 bytes, not inside a character
	} {
		if got := quoteBody(c.in); got != c.want {
			t.Errorf("quoteBody(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
