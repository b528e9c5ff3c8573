package pooltest

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// NoCallsInto builds the program in dir (a path relative to the test's
// package, such as "./testdata/inline") with -gcflags=-S and fails the test
// if its main function calls a function of the package pkgPath, or makes
// fewer than minCalls calls in all. A pool whose Get and Put are inlined
// leaves only the calls into sync.Pool and the slow paths; a change that
// pushes them over the inliner's budget leaves calls into the pool's own
// package, and fails here rather than only in a benchmark table.
//
// The inliner's costs differ between ports (on 386 and arm, sync/atomic's
// loads are no intrinsics and cost it as much as a call), so the check
// holds only on the ports listed in holds, as GOARCH values; on any other
// it skips, saying so. The program is built for the test's own GOARCH.
//
// It skips in -short mode and when the go command is not in PATH.
func NoCallsInto(t *testing.T, dir, pkgPath string, minCalls int, holds ...string) {
	t.Helper()
	if !slices.Contains(holds, runtime.GOARCH) {
		t.Skipf("the inlining of %s's Get and Put is checked on %s only: on %s the compiler's inlining costs differ",
			pkgPath, strings.Join(holds, ", "), runtime.GOARCH)
	}
	goCmd := GoCommand(t, "builds a program with the go command")
	out, err := exec.Command(goCmd, "build", "-gcflags=-S", "-o", os.DevNull, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("go build %s: %v\n%s", dir, err, out)
	}
	var mainAsm []string
	in := false
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, " STEXT ") {
			in = strings.HasPrefix(line, "main.main STEXT")
			continue
		}
		if in {
			mainAsm = append(mainAsm, line)
		}
	}
	if len(mainAsm) == 0 {
		t.Fatalf("no assembly for main.main in the output of go build -gcflags=-S %s:\n%s", dir, out)
	}
	calls := 0
	for _, line := range mainAsm {
		if !strings.Contains(line, "\tCALL\t") {
			continue
		}
		calls++
		if strings.Contains(line, pkgPath+".") {
			t.Errorf("main.main in %s calls into %s, whose Get and Put should have been inlined:\n%s", dir, pkgPath, line)
		}
	}
	if calls < minCalls {
		t.Errorf("main.main in %s makes %d calls, want at least %d; assembly:\n%s",
			dir, calls, minCalls, strings.Join(mainAsm, "\n"))
	}
}
