// Package cmdtest holds the test helpers that poolkit's command and its
// internal packages share.
//
// They are modules written for a test to build, and the testdata/hotpaths
// program's marked lines.
package cmdtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// NeedGo skips the test when the go command is missing or under -short:
// the test builds and runs programs.
func NeedGo(t testing.TB) {
	t.Helper()
	pooltest.GoCommand(t, "builds and runs a test binary")
}

// WriteModule writes a module named example.com/allocsdemo with files
// (name to content) to dir.
func WriteModule(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	files["go.mod"] = "module example.com/allocsdemo\n\ngo 1.24\n"
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// HotLines reads the lines marked "// hot: pkg" in the source file src
// (testdata/hotpaths/main.go): the sites poolkit must find, each with the
// package its advice must name.
func HotLines(t testing.TB, src string) map[int64]string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{}
	for i, l := range strings.Split(string(b), "\n") {
		if _, pkg, ok := strings.Cut(l, "// hot: "); ok {
			want[int64(i+1)] = strings.TrimSpace(pkg)
		}
	}
	if len(want) < 8 {
		t.Fatalf("only %d hot lines in %s", len(want), src)
	}
	return want
}
