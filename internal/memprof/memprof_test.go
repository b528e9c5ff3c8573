package memprof

import (
	"bytes"
	"errors"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
)

func TestFuncPackage(t *testing.T) {
	for fn, want := range map[string]string{
		"main.main":                                "main",
		"main.(*srv).handle.func1":                 "main",
		"compress/flate.NewWriter":                 "compress/flate",
		"compress/flate.(*compressor).init":        "compress/flate",
		"example.com/m/sub.(*T).Method.func1":      "example.com/m/sub",
		"example.com/m.F[go.shape.int]":            "example.com/m",
		"example.com/m.F[example.com/x/y.T]":       "example.com/m",
		"gopkg.in/yaml%2ev3.(*parser).node":        "gopkg.in/yaml.v3",
		"github.com/poolkit/poolkit/pool.New[...]": "github.com/poolkit/poolkit/pool",
	} {
		if got := FuncPackage(fn); got != want {
			t.Errorf("FuncPackage(%q) = %q, want %q", fn, got, want)
		}
	}
}

func TestUserCode(t *testing.T) {
	def := UserCode{}
	for fn, want := range map[string]bool{
		"main.handler":                                   true,
		"example.com/shop/api.(*Server).get":             true,
		"myapp/internal/db.Query":                        true, // a module path with no dot is not the standard library
		"runtime.mallocgc":                               false,
		"encoding/json.Marshal":                          false,
		"net/http.(*conn).serve":                         false,
		"vendor/golang.org/x/net/http2/hpack.encode":     false,
		"golang.org/x/net/http2.(*Framer).WriteData":     false,
		"github.com/klauspost/compress/flate.NewWriter":  false,
		"github.com/poolkit/poolkit/bytebuf.(*Pool).Get": false,
		"google.golang.org/grpc.(*Server).handleStream":  false,
		"github.com/someone/thing.Do":                    true,
	} {
		if got := def.Is(fn); got != want {
			t.Errorf("UserCode{}.Is(%q) = %v, want %v", fn, got, want)
		}
	}
	own := UserCode{Prefixes: []string{"example.com/shop", "main"}}
	for fn, want := range map[string]bool{
		"main.handler":                        true,
		"example.com/shop/api.get":            true,
		"example.com/shopping.get":            false,
		"github.com/someone/thing.Do":         false,
		"github.com/poolkit/poolkit/pool.New": false,
	} {
		if got := own.Is(fn); got != want {
			t.Errorf("%v.Is(%q) = %v, want %v", own.Prefixes, fn, got, want)
		}
	}
}

var sink [][]byte

// TestParseOwnHeapProfile reads this process's own allocs profile, as
// runtime/pprof writes it, and finds the allocation this test makes.
func TestParseOwnHeapProfile(t *testing.T) {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	for i := 0; i < 1000; i++ {
		sink = append(sink[:0], make([]byte, 100+i))
	}
	runtime.GC() // the profile publishes allocations as of the last GC
	var buf bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&buf, 0); err != nil {
		t.Fatal(err)
	}
	p, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rate != 1 || p.Empty() {
		t.Fatalf("rate %d, empty %v", p.Rate, p.Empty())
	}
	var objs int64
	for _, s := range p.Samples {
		for i, f := range s.Stack {
			if IsRuntime(f.Func) {
				continue
			}
			if strings.HasSuffix(f.Func, "memprof.TestParseOwnHeapProfile") && i == 0 {
				objs += s.Objects
			}
			break
		}
	}
	if objs < 1000 {
		t.Errorf("found %d allocations made by the test, want at least 1000", objs)
	}
}

func TestParseErrors(t *testing.T) {
	if _, err := Parse(strings.NewReader("not a profile")); !errors.Is(err, ErrNotProfile) {
		t.Errorf("text: %v", err)
	}
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(&buf); !errors.Is(err, ErrNotMemory) || !strings.Contains(err.Error(), "goroutine profile") {
		t.Errorf("goroutine profile: %v", err)
	}
}
