package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
}

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

// writeModule writes a small module with files to dir.
func writeModule(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	files["go.mod"] = "module example.com/allocsdemo\n\ngo 1.24\n"
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
