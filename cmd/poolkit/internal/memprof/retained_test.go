package memprof

import (
	"bytes"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// kept holds what retainSlices allocates; dropped the last of what
// churnSlices allocates.
var (
	kept    [][]byte
	dropped []byte
)

//go:noinline
func retainSlices(n int) {
	for range n {
		kept = append(kept, make([]byte, 4096))
	}
}

//go:noinline
func churnSlices(n int) {
	for range n {
		dropped = make([]byte, 4096)
	}
}

// TestRetainedFromProfile checks the retention rule against the Go
// runtime's own accounting: a function that keeps every slice it makes
// is told it retains them, with no pool advised, and one that drops each
// slice at once gets slicepool, in a heap profile this process writes.
func TestRetainedFromProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("samples every allocation")
	}
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	retainSlices(500)
	churnSlices(500)
	// The heap profile is as of the last GC, and counts the frees of the
	// one before: two cycles settle it.
	runtime.GC()
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		t.Fatal(err)
	}
	kept = nil
	// The functions are poolkit's own, which the rules set apart: name
	// them as a user's package, keeping the runtime's figures.
	prof, err := profile.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	const self = "github.com/poolkit/poolkit/cmd/poolkit/internal/memprof."
	for _, f := range prof.Function {
		if rest, ok := strings.CutPrefix(f.Name, self); ok {
			f.Name = "example.com/svc." + rest
		}
	}
	buf.Reset()
	if err := prof.Write(&buf); err != nil {
		t.Fatal(err)
	}
	p, err := Parse(buf.Bytes(), DefaultLimit)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Inuse {
		t.Fatal("a heap profile without in-use values")
	}
	user := UserCode{Prefixes: []string{"example.com/svc"}}
	// The rules read the lines, as poolkit does with the source at hand:
	// the profile's stacks start at the function that allocates.
	src := func(file string, n int64) (string, bool) {
		b, err := os.ReadFile(file)
		lines := strings.Split(string(b), "\n")
		if err != nil || n < 1 || n > int64(len(lines)) {
			return "", false
		}
		return lines[n-1], true
	}
	found := 0
	for _, s := range p.Sites(user, src) {
		switch {
		case strings.HasSuffix(s.User.Func, ".retainSlices"):
			found++
			if !s.Advice.Retained || s.Advice.Package != "" || !strings.HasPrefix(s.Advice.Text, "no pool: retained, not churned:") {
				t.Errorf("retainSlices (in use %d of %d bytes): advice %+v", s.InuseBytes, s.Bytes, s.Advice)
			}
		case strings.HasSuffix(s.User.Func, ".churnSlices"):
			found++
			if s.Advice.Retained || s.Advice.Package != "slicepool" {
				t.Errorf("churnSlices (in use %d of %d bytes): advice %+v", s.InuseBytes, s.Bytes, s.Advice)
			}
		}
	}
	if found != 2 {
		t.Errorf("found %d of the two sites", found)
	}
}
