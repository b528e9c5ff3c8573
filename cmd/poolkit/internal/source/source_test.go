package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/cmdtest"
)

// TestSourceLinesTrimpath checks that the rules that read the source
// find it when the service was built with -trimpath, which names files by
// import path, and poolkit runs in the service's source tree.
func TestSourceLinesTrimpath(t *testing.T) {
	// The directory of cmd/poolkit, where the -trimpath names' tails are
	// found.
	t.Chdir("../..")
	src := New(time.Time{})
	want := cmdtest.HotLines(t, "testdata/hotpaths/main.go")
	for _, file := range []string{
		"github.com/poolkit/poolkit/cmd/poolkit/testdata/hotpaths/main.go", // -trimpath
		"testdata/hotpaths/main.go",
	} {
		for n := range want {
			if line, ok := src.Line(file, n); !ok || !strings.Contains(line, "// hot: ") {
				t.Errorf("line(%q, %d) = %q, %v", file, n, line, ok)
			}
		}
	}
	if _, ok := src.Line("example.com/elsewhere/main.go", 1); ok {
		t.Error("took this directory's main.go for another package's")
	}
	if line, ok := src.Line("github.com/poolkit/poolkit/cmd/poolkit/doc.go", 2); !ok || !strings.HasPrefix(line, "Command poolkit") {
		t.Errorf("cmd/poolkit's own doc.go by import path: %q, %v", line, ok)
	}
	if _, ok := src.Line("testdata/hotpaths/main.go", 100000); ok {
		t.Error("found a line past the end")
	}
}

// TestSourceLinesModuleCache checks that a file named as -trimpath names
// a module's files is read from the module cache, and that a file that
// changed after the profile was taken, or is shorter than its line
// numbers, is reported.
func TestSourceLinesModuleCache(t *testing.T) {
	cmdtest.NeedGo(t)
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}}@{{.Version}}", "github.com/google/pprof").Output()
	if err != nil {
		t.Fatal(err)
	}
	file := strings.TrimSpace(string(out)) + "/profile/profile.go"
	// A profile taken long before the module was downloaded here: the
	// module cache's files are the version's, whenever they came.
	src := New(time.Unix(0, 0))
	found := false
	for n := int64(1); n < 400; n++ {
		if line, ok := src.Line(file, n); ok && strings.HasPrefix(line, "func Parse(r io.Reader) (*Profile, error) {") {
			found = true
		}
	}
	if !found {
		t.Errorf("no func Parse in %s from the module cache", file)
	}
	if m := src.Mismatch(); len(m) != 0 {
		t.Errorf("mismatch %q for the module cache", m)
	}
	// The same file as another machine's module cache names it.
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := "/home/ci/go/pkg/mod/" + file
	if strings.HasPrefix(strings.TrimSpace(string(cache)), "/home/ci/") {
		t.Skip("the module cache is where the test pretends another machine's is")
	}
	if line, ok := src.Line(elsewhere, 1); !ok || line == "" {
		t.Errorf("%s: %q, %v", elsewhere, line, ok)
	}
	// The standard library, as -trimpath names it.
	if line, ok := src.Line("strings/strings.go", 1); !ok || !strings.Contains(line, "Copyright") {
		t.Errorf("strings/strings.go: %q, %v", line, ok)
	}
	// A working tree edited after the profile was taken.
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("main.go", []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src = New(time.Now().Add(-time.Hour))
	src.Line(filepath.Join(dir, "main.go"), 2)
	src.Line(filepath.Join(dir, "main.go"), 40)
	if m := src.Mismatch(); len(m) != 1 || !strings.Contains(m[0], "main.go (changed after the profile was taken)") {
		t.Errorf("mismatch %q", m)
	}
	src = New(time.Time{})
	src.Line(filepath.Join(dir, "main.go"), 40)
	if m := src.Mismatch(); len(m) != 1 || !strings.Contains(m[0], "main.go (shorter than the profile's line numbers)") {
		t.Errorf("mismatch %q", m)
	}
}
