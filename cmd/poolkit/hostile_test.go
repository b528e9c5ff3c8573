package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/cmdtest"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof/proftest"
)

// writeProfile writes a profile of stacks to a file of its own and
// returns its name.
func writeProfile(t *testing.T, stacks []proftest.Stack) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "hostile.pb.gz")
	if err := os.WriteFile(file, proftest.Build(t, stacks), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestAllocsProfileReadsNoLocalFile checks that a profile cannot make the
// report print a local file: the function's lines are read only from Go
// files under the module, the module cache and GOROOT, whatever the
// profile names, and nothing else reaches the text or the JSON.
func TestAllocsProfileReadsNoLocalFile(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.go")
	if err := os.WriteFile(secret, []byte("SECRET-LINE := 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	cmdtest.WriteModule(t, mod, map[string]string{"main.go": "package main\n\nfunc main() { _ = make([]byte, 64) }\n"})
	if err := os.Symlink("/etc/passwd", filepath.Join(mod, "passwd.go")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(mod, secret)
	if err != nil {
		t.Fatal(err)
	}
	var stacks []proftest.Stack
	for i, file := range []string{"/etc/passwd", "../../../../../../../../../etc/passwd", "/proc/self/environ",
		secret, rel, filepath.Join(mod, "passwd.go"), "example.com/x@v1.0.0/../../../../../../../../../../etc/passwd"} {
		stacks = append(stacks, proftest.Stack{Frames: []proftest.Frame{
			{Func: "runtime.makeslice", File: "runtime/slice.go", Line: 1},
			{Func: "main.f" + string(rune('a'+i)), File: file, Line: 1},
		}, Objects: 1000, Bytes: 64000})
	}
	// The module's own file is read, to show the check is not blind.
	stacks = append(stacks, proftest.Stack{Frames: []proftest.Frame{
		{Func: "runtime.makeslice", File: "runtime/slice.go", Line: 1},
		{Func: "main.main", File: filepath.Join(mod, "main.go"), Line: 3},
	}, Objects: 10, Bytes: 640})
	prof := writeProfile(t, stacks)
	for _, format := range []string{"text", "json"} {
		code, out, errOut := runIn(t, mod, "allocs", "-profile", prof, "-format", format, "-top", "0")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		for _, leak := range []string{"root:", "SECRET", "PATH=", "HOME="} {
			if strings.Contains(out, leak) {
				t.Errorf("%s report prints %q from a file it must not read:\n%s", format, leak, out)
			}
		}
		if !strings.Contains(out, "func main() { _ = make([]byte, 64) }") {
			t.Errorf("%s report lacks the module's own line:\n%s", format, out)
		}
		if format == "json" {
			rep := decodeReport(t, out)
			for _, s := range rep.Sites {
				if s.Code != "" && s.Func != "main.main" {
					t.Errorf("site %s at %s shows code %q", s.Func, s.File, s.Code)
				}
			}
		}
	}
}
