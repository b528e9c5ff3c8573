package pool_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGetPutInline checks that the compiler inlines Get and Put of a
// pointer-shaped Pool, with the get and put they wrap, into their caller:
// that is what keeps a pool.Pool[*T] as cheap as a raw sync.Pool
// (benchmarks/core has the figures). It compiles testdata/inline and reads
// the assembly of its main function, which must call no function of
// package pool, so a change that pushes get or put over the inlining
// budget fails here rather than only in a benchmark table.
func TestGetPutInline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	out, err := exec.Command(goCmd, "build", "-gcflags=-S", "-o", os.DevNull, "./testdata/inline").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./testdata/inline: %v\n%s", err, out)
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
		t.Fatalf("no assembly for main.main in the output of go build -gcflags=-S:\n%s", out)
	}
	calls := 0
	for _, line := range mainAsm {
		if !strings.Contains(line, "\tCALL\t") {
			continue
		}
		calls++
		if strings.Contains(line, "poolkit/pool.") {
			t.Errorf("main.main calls into package pool, which Get and Put should have been inlined away:\n%s", line)
		}
	}
	// Get and Put each call sync.Pool (indirectly, through the function
	// passed to get and put) and have a slow path: at least four calls.
	if calls < 4 {
		t.Errorf("main.main makes %d calls, want at least 4 (sync.Pool's Get and Put, and the two slow paths); assembly:\n%s",
			calls, strings.Join(mainAsm, "\n"))
	}
}
