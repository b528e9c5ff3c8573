package benchallocs

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/cmdtest"
)

const demoSrc = `package allocsdemo

import "strings"

// Fields splits s at commas.
func Fields(s string) []string {
	return strings.Split(s, ",")
}

// Counter returns a pointer to a fresh counter.
func Counter() *int64 {
	var n [2]int64
	return &n[0]
}
`

const demoTest = `package allocsdemo

import "testing"

var sink []string
var sinkp *int64

func BenchmarkSplit(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Fields("a,b,c")
	}
}

func BenchmarkCounter(b *testing.B) {
	for b.Loop() {
		sinkp = Counter()
	}
}
`

// runIn runs the benchmarks of package "." in dir, 200 and 400
// iterations each, and returns what Write prints of them, at most 10
// sites each.
func runIn(t *testing.T, dir, bench string) (string, error) {
	t.Helper()
	t.Chdir(dir)
	res, err := Run(context.Background(), dir, Config{Bench: bench, N: 200, Pkgs: []string{"."}}, io.Discard)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	Write(&out, res, 10, false)
	return out.String(), nil
}

const gzipSrc = `package allocsdemo

import (
	"bytes"
	"compress/gzip"
)

// Compress gzips b into a new buffer.
func Compress(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
`

const gzipTest = `package allocsdemo

import "testing"

var gsink []byte

func BenchmarkCompress(b *testing.B) {
	for b.Loop() {
		gsink = Compress([]byte("hello, hello, hello"))
	}
}
`

// TestRun checks that Run finds a known allocation in another
// module: strings.Split's slice, once per operation, called from the
// module's Fields, and a variable the compiler moved to the heap, with the
// compiler's reason.
func TestRun(t *testing.T) {
	wantAllocs(t, map[string]string{"demo.go": demoSrc, "demo_test.go": demoTest, "gzip.go": gzipSrc, "gzip_test.go": gzipTest},
		`(?m)^ +[\d.]+ +\d+  compress/flate.NewWriter  \$GOROOT/src/compress/flate/deflate.go:\d+\n`+
			` +called from example.com/allocsdemo.Compress  gzip.go:\d+\n +advice: gzpool: a gzip/flate writer is made per call`,
		`(?m)^BenchmarkSplit  example.com/allocsdemo: 1 allocs/op, 48 B/op \(steady state, over 200 ops; go test -benchmem: 48 B/op, 1 allocs/op\)$`,
		`(?m)^ +1 +48  strings.genSplit  \$GOROOT/src/strings/strings.go:\d+$`,
		`(?m)^ +called from example.com/allocsdemo.Fields  demo.go:7\n +advice: no rule: strings.Split makes a new \[\]string per call; strings.Cut`,
		`(?m)^BenchmarkCounter  example.com/allocsdemo: 1 allocs/op, 16 B/op`,
		`(?m)^ +1 +16  example.com/allocsdemo.Counter  demo.go:12$`,
		`(?m)^ +compiler: moved to heap: n\n +advice: no rule: the line itself allocates`,
	)
}

// wantAllocs runs the benchmarks of a module of files, 200 and 400
// iterations each, and checks that the report matches each of wants.
func wantAllocs(t *testing.T, files map[string]string, wants ...string) {
	t.Helper()
	cmdtest.NeedGo(t)
	dir := t.TempDir()
	cmdtest.WriteModule(t, dir, files)
	out, err := runIn(t, dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		t.Log(out)
	}
	for _, want := range wants {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %s\n%s", want, out)
		}
	}
}

func TestRunErrors(t *testing.T) {
	cmdtest.NeedGo(t)
	t.Run("not in a module", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("GOFLAGS", "")
		_, err := runIn(t, dir, ".")
		if err == nil || !strings.Contains(err.Error(), "not in a module") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("no benchmark matched", func(t *testing.T) {
		dir := t.TempDir()
		cmdtest.WriteModule(t, dir, map[string]string{"demo.go": demoSrc, "demo_test.go": demoTest})
		_, err := runIn(t, dir, "NoSuch")
		if err == nil || !strings.Contains(err.Error(), `no benchmark matched -bench "NoSuch"`) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("does not compile", func(t *testing.T) {
		dir := t.TempDir()
		cmdtest.WriteModule(t, dir, map[string]string{"demo.go": "package allocsdemo\n\nfunc F() int { return undefinedThing }\n",
			"demo_test.go": demoTest})
		_, err := runIn(t, dir, ".")
		if err == nil || !strings.Contains(err.Error(), "does not compile") || !strings.Contains(err.Error(), "undefined: undefinedThing") {
			t.Errorf("error %v", err)
		}
	})
}

const parallelTest = `package allocsdemo

import "testing"

var psink [][]string

// BenchmarkParallelSplit runs splitOnce in b.RunParallel through a helper.
func BenchmarkParallelSplit(b *testing.B) {
	runParallel(b, splitOnce)
}

func splitOnce(keep *[]string) { *keep = Fields("a,b,c") }

// runParallel runs f in b.RunParallel's goroutines. The body is a
// closure written here, so no frame of the benchmark is on their stacks
// (a helper of any size is not inlined; this one is kept from it).
//
//go:noinline
func runParallel(b *testing.B, f func(*[]string)) {
	b.RunParallel(func(pb *testing.PB) {
		var keep []string
		for pb.Next() {
			f(&keep)
		}
		psink = append(psink, keep)
	})
}
`

// TestRunParallelHelper checks that the allocations of a
// b.RunParallel body written in a helper, with no frame of the benchmark
// on its goroutines' stacks, are counted, as -benchmem counts them.
func TestRunParallelHelper(t *testing.T) {
	// strings.Split's slice, once per op.
	wantAllocs(t, map[string]string{"demo.go": demoSrc, "demo_test.go": parallelTest},
		`(?m)^BenchmarkParallelSplit  example.com/allocsdemo: 1 allocs/op, 48 B/op \(steady state, over 200 ops; go test -benchmem: 48 B/op, 1 allocs/op\)$`,
		`(?m)^ +1 +48  strings.genSplit  \$GOROOT/src/strings/strings.go:\d+$`,
		`(?m)^ +called from example.com/allocsdemo.Fields  demo.go:7$`,
	)
}
