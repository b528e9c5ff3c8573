// Package corpus gives the compression tests their inputs: the test data
// files every Go installation ships.
package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/poolkit/poolkit/internal/goenv"
)

// Files returns every file under GOROOT's src/compress/testdata and
// src/testdata, by its path below GOROOT, plus the empty input as
// "empty". It fails the test when it finds fewer than five.
func Files(t testing.TB) map[string][]byte {
	t.Helper()
	goroot, err := goenv.GOROOT()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"empty": {}}
	for _, dir := range []string{"src/compress/testdata", "src/testdata"} {
		root := filepath.Join(goroot, dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			files[filepath.Join(dir, d.Name())] = b
			return err
		})
		if err != nil {
			t.Fatalf("reading %s: %v", root, err)
		}
	}
	if len(files) < 5 {
		t.Fatalf("found only %d test files under GOROOT %s", len(files), goroot)
	}
	return files
}
