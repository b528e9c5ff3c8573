package memprof

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof/proftest"
	"github.com/poolkit/poolkit/gzpool"
	"github.com/poolkit/poolkit/internal/pooltest"
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
	p, err := Parse(proftest.AllocsProfile(t, 0), DefaultLimit)
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
	if _, err := Parse([]byte("not a profile"), DefaultLimit); !errors.Is(err, ErrNotProfile) {
		t.Errorf("text: %v", err)
	}
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(buf.Bytes(), DefaultLimit); !errors.Is(err, ErrNotMemory) || !strings.Contains(err.Error(), "goroutine profile") {
		t.Errorf("goroutine profile: %v", err)
	}
}

// TestParseLimit checks that Parse refuses a profile that inflates past
// its limit before it holds the inflated bytes: a 1 MiB file of 16 gzip
// members of 64 MiB of zeros, 1 GiB decompressed, costs about the limit.
func TestParseLimit(t *testing.T) {
	pooltest.SkipIfRace(t) // the race detector's shadow memory would blur the figure
	bomb := proftest.GzipBomb(t, 16, 64<<20)
	for _, limit := range []int64{1 << 20, DefaultLimit} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse(bomb, limit)
		runtime.ReadMemStats(&after)
		want := fmt.Sprintf("decompresses to more than %d MiB", limit>>20)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), want) {
			t.Errorf("limit %d: %v, want ErrTooLarge saying %q", limit, err, want)
		}
		// The compressed input, the output up to the limit with the
		// copies its growth leaves behind, and the decompressor's state:
		// far under the bomb's 1 GiB.
		if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(3*limit+int64(len(bomb))+8<<20) {
			t.Errorf("limit %d MiB: parsing a bomb of %d MiB allocated %d MiB", limit>>20, 16*64, grew>>20)
		}
	}
	// Many tiny records, gzipped: 1 MiB of empty samples (2 bytes each)
	// is under a 2 MiB limit but would take pprof's parser about 90 MiB.
	tiny, err := gzpool.AppendCompress(nil, bytes.Repeat([]byte{0x12, 0x00}, 1<<19))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Parse(tiny, 2<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "parsing its 1 MiB of many small records would take about") {
		t.Errorf("1 MiB of empty samples under a 2 MiB limit: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("refusing 1 MiB of empty samples allocated %d MiB", grew>>20)
	}
	// Uncompressed input past the limit is refused as well.
	if _, err := Parse(make([]byte, 2<<20), 1<<20); !errors.Is(err, ErrTooLarge) ||
		!strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Errorf("2 MiB plain under a 1 MiB limit: %v", err)
	}
}

// TestParseLimitBoundary checks that a real profile exactly at the limit,
// decompressed, parses, and one byte under it does not; and that a
// profile gzipped twice, which pprof's parser would inflate again with no
// limit, is refused.
func TestParseLimitBoundary(t *testing.T) {
	gz := proftest.AllocsProfile(t, 0)
	plain, err := gzpool.AppendDecompress(nil, gz, -1)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(plain))
	if _, err := Parse(gz, n); err != nil {
		t.Errorf("limit = size: %v", err)
	}
	if _, err := Parse(plain, n); err != nil {
		t.Errorf("uncompressed, limit = size: %v", err)
	}
	if _, err := Parse(gz, n-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit = size-1: %v, want ErrTooLarge", err)
	}
	twice, err := gzpool.AppendCompress(nil, gz)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(twice, DefaultLimit); !errors.Is(err, ErrNotProfile) ||
		!strings.Contains(err.Error(), "gzipped twice") {
		t.Errorf("gzipped twice: %v", err)
	}
}

// TestParseUnsymbolized checks that samples whose locations carry
// addresses but no lines are counted, not taken for an empty profile.
func TestParseUnsymbolized(t *testing.T) {
	data, objs := proftest.UnsymbolizedProfile(t)
	got, err := Parse(data, DefaultLimit)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Samples) != 0 || got.Unsymbolized != objs || objs == 0 || got.Empty() {
		t.Errorf("%d samples, %d unsymbolized objects (want %d), empty %v", len(got.Samples), got.Unsymbolized, objs, got.Empty())
	}
}

var sampledSink []byte

//go:noinline
func allocForSampled() {
	for i := 0; i < 20000; i++ {
		sampledSink = make([]byte, 1000)
	}
}

// TestSampled checks the count of recorded allocations Parse recovers
// from the scaled profile against the runtime's own raw records
// (runtime.MemProfile), which are not scaled.
func TestSampled(t *testing.T) {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 4096
	defer func() { runtime.MemProfileRate = old }()
	allocForSampled()
	runtime.GC()
	runtime.GC()
	var raw int64
	recs := make([]runtime.MemProfileRecord, 4096)
	n, ok := runtime.MemProfile(recs, true)
	if !ok {
		t.Fatalf("%d records do not fit", n)
	}
	for _, r := range recs[:n] {
		for _, pc := range r.Stack() {
			if f := runtime.FuncForPC(pc); f != nil && strings.HasSuffix(f.Name(), ".allocForSampled") {
				raw += r.AllocObjects
				break
			}
		}
	}
	p, err := Parse(proftest.AllocsProfile(t, 0), DefaultLimit)
	if err != nil {
		t.Fatal(err)
	}
	var got float64
	var objs int64
	for _, s := range p.Samples {
		for _, f := range s.Stack {
			if strings.HasSuffix(f.Func, ".allocForSampled") {
				got += s.Sampled
				objs += s.Objects
				break
			}
		}
	}
	if raw < 100 || math.Abs(got-float64(raw)) > 1 {
		t.Errorf("Sampled %.2f, runtime.MemProfile recorded %d (scaled to %d objects)", got, raw, objs)
	}
}

// TestParseFrameBomb checks that a profile whose samples name, many
// times over, a location of many lines is refused before its stacks are
// expanded: 2 MiB of protobuf that would make 4 billion frames here,
// though pprof's parser shares the location.
func TestParseFrameBomb(t *testing.T) {
	pooltest.SkipIfRace(t)
	fn := &profile.Function{ID: 1, Name: "main.f", Filename: "main.go"}
	loc := &profile.Location{ID: 1, Address: 0x1000}
	for i := 0; i < 2000; i++ {
		loc.Line = append(loc.Line, profile.Line{Function: fn, Line: int64(i + 1)})
	}
	stack := make([]*profile.Location, 100)
	for i := range stack {
		stack[i] = loc
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"}, Period: 4096,
		Function: []*profile.Function{fn}, Location: []*profile.Location{loc},
	}
	for i := 0; i < 20000; i++ {
		p.Sample = append(p.Sample, &profile.Sample{Location: stack, Value: []int64{1, 64}})
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Parse(buf.Bytes(), DefaultLimit)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "its stacks expand to more than") {
		t.Errorf("%d bytes of profile: %v", buf.Len(), err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
		t.Errorf("refusing it allocated %d MiB", grew>>20)
	}
}

// TestLongNamesReadOnce checks that the rules read a long function or file
// name a fixed number of times, however many stacks repeat it: a profile
// of a megabyte can name a function of 16 KB on a hundred thousand
// stacks, and reading the name on each would take time in proportion to
// their product. The bytes read are counted, not timed.
func TestLongNamesReadOnce(t *testing.T) {
	long := proftest.Frame{Func: "example.com/" + strings.Repeat("a/", 2000) + "x.F", File: "/" + strings.Repeat("a/", 4000) + "f.go"}
	names := int64(len(long.Func) + len(long.File))
	for _, n := range []int{100, 2000} {
		var stacks []proftest.Stack
		for i := range n {
			f := long
			f.Line = int64(i%50 + 1)
			stacks = append(stacks, proftest.Stack{Frames: []proftest.Frame{{Func: "runtime.mallocgc", File: "runtime/malloc.go", Line: 1}, f,
				{Func: "main.main", File: "/src/main.go", Line: 3}}, Objects: int64(i + 1), Bytes: 64 * int64(i+1)})
		}
		p, err := Parse(proftest.Build(t, stacks), DefaultLimit)
		if err != nil {
			t.Fatal(err)
		}
		before := nameWork.Load()
		u, _ := p.MainCode()
		p.Sites(u, nil)
		p.Sites(UserCode{}, nil)
		if read := nameWork.Load() - before; read > 64*names {
			t.Errorf("%d stacks: the rules read %d bytes of long names, %d times their %d bytes", n, read, read/names, names)
		}
	}
}

// BenchmarkSitesLongNames shows the time to advise on a profile whose
// stacks repeat a function of 4 KB and a file of 8 KB: the names are read
// once, so it is about the time of a profile of short names.
func BenchmarkSitesLongNames(b *testing.B) {
	for _, size := range []int{10, 4000} {
		b.Run(fmt.Sprintf("name=%d", size), func(b *testing.B) {
			long := proftest.Frame{Func: "example.com/" + strings.Repeat("a", size) + ".F", File: "/" + strings.Repeat("a/", size) + "f.go"}
			var stacks []proftest.Stack
			for i := range 20000 {
				f := long
				f.Line = int64(i%500 + 1)
				stacks = append(stacks, proftest.Stack{Frames: []proftest.Frame{{Func: "runtime.mallocgc", File: "runtime/malloc.go", Line: 1}, f,
					{Func: "main.main", File: "/src/main.go", Line: 3}}, Objects: int64(i + 1), Bytes: 64 * int64(i+1)})
			}
			p, err := Parse(proftest.Build(b, stacks), DefaultLimit)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				u, _ := p.MainCode()
				p.Sites(u, nil)
			}
		})
	}
}

// BenchmarkAdvice1MB shows the time from a profile's bytes to every
// site's advice (Parse, MainCode, Sites) for a profile of about 1 MB
// gzipped: 20,000 stacks of 8 to 40 frames through 6,000 functions of
// 60 packages, drawn with a fixed seed.
func BenchmarkAdvice1MB(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var funcs []proftest.Frame
	for i := range 6000 {
		pkg := fmt.Sprintf("example.com/org%d/svc/internal/pkg%d", i%60, i%13)
		funcs = append(funcs, proftest.Frame{Func: fmt.Sprintf("%s.(*handler%d).serveRequest%d", pkg, i%7, i),
			File: fmt.Sprintf("%s/file%d.go", pkg, i%31)})
	}
	allocs := []string{"runtime.makeslice", "runtime.newobject", "runtime.growslice", "runtime.concatstring2"}
	var stacks []proftest.Stack
	for range 5000 {
		st := proftest.Stack{Frames: []proftest.Frame{{Func: allocs[rng.IntN(len(allocs))], File: "runtime/malloc.go", Line: 1}},
			Objects: 1 + rng.Int64N(100000), Bytes: 1 + rng.Int64N(1<<24)}
		for range 8 + rng.IntN(33) {
			f := funcs[rng.IntN(len(funcs))]
			f.Line = 1 + rng.Int64N(20)
			st.Frames = append(st.Frames, f)
		}
		stacks = append(stacks, st)
	}
	data := proftest.Build(b, stacks)
	b.ResetTimer()
	for range b.N {
		p, err := Parse(data, DefaultLimit)
		if err != nil {
			b.Fatal(err)
		}
		u, _ := p.MainCode()
		p.Sites(u, nil)
	}
	b.ReportMetric(float64(len(data))/(1<<20), "MiB-gzipped")
}
