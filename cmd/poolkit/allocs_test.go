package main

import (
	"bytes"
	"strings"
	"testing"
)

// runIn runs poolkit with args in dir.
func runIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestAllocsFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-benchtime", "1s"}, "-benchtime must be an iteration count"},
		{[]string{"-top", "-1"}, "-top must not be negative"},
		{[]string{"-bench", "("}, "-bench: error parsing regexp"},
	} {
		code, _, errOut := runIn(t, t.TempDir(), append([]string{"allocs"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("allocs %q: exit %d, stderr %q; want %q", c.args, code, errOut, c.want)
		}
	}
}
