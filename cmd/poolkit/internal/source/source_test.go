package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	if err := os.WriteFile("go.mod", []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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

// TestSourceReadsOnlyTrustedGo checks that a profile's file names read
// nothing but Go files under the module, the module cache and GOROOT:
// not system files, not the process's environment, not a Go file outside
// them, and not through a symbolic link or "..".
func TestSourceReadsOnlyTrustedGo(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.go")
	if err := os.WriteFile(secret, []byte("SECRET-OUTSIDE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET-OUTSIDE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(t.TempDir(), "m")
	for _, d := range []string{"sub", "sub/deeper"} {
		if err := os.MkdirAll(filepath.Join(mod, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"go.mod":              "module example.com/m\n",
		"main.go":             "package main // main line\n",
		"sub/deeper/inner.go": "package deeper // inner line\n",
		"notes.txt":           "SECRET-NOTES\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"passwd.go":      "/etc/passwd",
		"outside.go":     secret,
		"notes.go":       filepath.Join(mod, "notes.txt"),
		"sub/away":       outside,
		"sub/environ.go": "/proc/self/environ",
	} {
		if err := os.Symlink(to, filepath.Join(mod, link)); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
	}
	t.Chdir(filepath.Join(mod, "sub"))
	rel, err := filepath.Rel(filepath.Join(mod, "sub"), secret)
	if err != nil {
		t.Fatal(err)
	}
	src := New(time.Time{})
	for _, file := range []string{
		"/etc/passwd", "../../../../../../../../etc/passwd", "/proc/self/environ",
		"/etc/passwd.go", secret, rel, filepath.Join(outside, "secret"),
		filepath.Join(mod, "passwd.go"), filepath.Join(mod, "outside.go"), filepath.Join(mod, "notes.go"),
		filepath.Join(mod, "notes.txt"), "../notes.txt", "away/secret.go", "sub/away/secret.go",
		"example.com/m/sub/away/secret.go", "environ.go", "/build/m/sub/environ.go",
		"example.com/x@v1.0.0/../../../../../../../../../../../../.." + secret,
		"net/../../../../../../../../../../../../../.." + secret,
		"/proc/self/cwd/../outside.go", "/proc/self/cwd/../passwd.go",
	} {
		for n := int64(1); n <= 3; n++ {
			if line, ok := src.Line(file, n); ok {
				t.Errorf("Line(%q, %d) = %q: read outside the Go files of the trusted roots", file, n, line)
			}
		}
	}
	// What it may read, it reads: by path, relative, and by tails.
	for file, want := range map[string]string{
		filepath.Join(mod, "main.go"):          "// main line",
		"../main.go":                           "// main line",
		"deeper/inner.go":                      "// inner line",
		"example.com/m/sub/deeper/inner.go":    "// inner line",
		"/home/ci/build/m/sub/deeper/inner.go": "// inner line",
		"/proc/self/cwd/deeper/inner.go":       "// inner line",
	} {
		if line, ok := src.Line(file, 1); !ok || !strings.Contains(line, want) {
			t.Errorf("Line(%q, 1) = %q, %v; want %q", file, line, ok, want)
		}
	}
}

// TestSourceTailsLinear checks that looking up files by their tails takes
// work in proportion to the length of the names, not its square: names
// thousands of directories deep, as a hostile profile can hold, are
// dropped at their first directory that does not exist here. The work is
// counted in steps, not timed.
func TestSourceTailsLinear(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("go.mod", []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("a", 0o755); err != nil { // the first directory of every tail exists
		t.Fatal(err)
	}
	for _, depth := range []int{500, 4000} {
		src := New(time.Time{})
		var size int64
		for i := range 50 {
			file := "example.com/" + strings.Repeat("a/", depth) + "f" + strconv.Itoa(i) + ".go"
			size += int64(len(file))
			if _, ok := src.Line(file, 1); ok {
				t.Fatalf("found %s", file)
			}
		}
		if src.work > 8*size {
			t.Errorf("depth %d: %d steps for %d bytes of file names, more than 8 a byte", depth, src.work, size)
		}
	}
}

// BenchmarkTailsDeep shows the time to look for 50 files named 4,000
// directories deep, none of them here.
func BenchmarkTailsDeep(b *testing.B) {
	b.Chdir(b.TempDir())
	if err := os.WriteFile("go.mod", []byte("module example.com/m\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Mkdir("a", 0o755); err != nil {
		b.Fatal(err)
	}
	var files []string
	for i := range 50 {
		files = append(files, "example.com/"+strings.Repeat("a/", 4000)+"f"+strconv.Itoa(i)+".go")
	}
	for range b.N {
		src := New(time.Time{})
		for _, f := range files {
			src.Line(f, 1)
		}
	}
}
