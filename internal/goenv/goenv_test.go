package goenv

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGOROOT checks the root is a Go installation: it holds the source of
// the runtime and of the builtin package.
func TestGOROOT(t *testing.T) {
	root, err := GOROOT()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"src/runtime/proc.go", "src/builtin/builtin.go"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("GOROOT %s has no %s: %v", root, f, err)
		}
	}
}
