package pooltest

import (
	"os/exec"
	"testing"
)

// GoCommand returns the path of the go command on PATH, for a test that
// builds or runs programs with it. It skips the test in -short mode,
// saying why (what the test does with the command), and when there is no
// go command on PATH.
func GoCommand(t testing.TB, why string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	return goCmd
}
