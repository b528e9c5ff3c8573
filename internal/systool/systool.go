// Package systool finds the system tools that interoperability tests run
// as independent oracles (gzip, zstd, curl).
package systool

import (
	"os"
	"os/exec"
	"testing"
)

// Look returns the path of the system tool name, and skips the test when
// it is missing, unless the environment sets POOLKIT_REQUIRE_TOOLS (as CI
// does, having installed it): then a missing tool fails the test rather
// than hiding it.
func Look(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("POOLKIT_REQUIRE_TOOLS") != "" {
			t.Fatalf("%s is not installed, and POOLKIT_REQUIRE_TOOLS is set", name)
		}
		t.Skipf("%s is not installed (apt-get install %s)", name, name)
	}
	return path
}
