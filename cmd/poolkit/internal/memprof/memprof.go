// Package memprof reads Go memory profiles into allocation stacks, and
// sorts frames into the runtime, libraries and the user's own code.
//
// The profiles are the pprof format that runtime/pprof, go test
// -memprofile and net/http/pprof's allocs and heap endpoints write. poolkit allocs is built on
// it, both for benchmarks and for a running service.
package memprof

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/google/pprof/profile"

	"github.com/poolkit/poolkit/gzpool"
)

// DefaultRate is the Go runtime's default runtime.MemProfileRate: one
// sample per 512 KiB allocated, on average.
const DefaultRate = 512 * 1024

// Frame is one function on an allocating stack.
type Frame struct {
	Func string // as pprof names it: "compress/flate.NewWriter", "main.(*srv).handle.func1"
	File string
	Line int64
}

// Sample is one allocating stack and what it allocated, already scaled
// by the runtime from the sampled allocations to an estimate of all.
type Sample struct {
	Stack   []Frame // innermost first, inlined calls expanded
	Objects int64
	Bytes   int64
	// Sampled is about how many allocations the runtime recorded for
	// this stack, before it scaled them up to Objects: the evidence the
	// estimate rests on. 0 when the profile does not record its rate.
	Sampled float64
	// InuseObjects and InuseBytes are what of the stack's allocations
	// was still in use when the profile was taken (as of the last GC);
	// in a delta profile, the change over its span. 0 when the profile
	// has no in-use values (see Profile.Inuse).
	InuseObjects, InuseBytes int64
}

// Profile is a memory profile's allocation samples.
type Profile struct {
	Samples []Sample
	// Duration is the span the profile covers when it says so (a delta
	// profile from net/http/pprof's ?seconds=N), 0 when it holds totals
	// since the process started.
	Duration time.Duration
	// Rate is the sampling rate the profile was taken at
	// (runtime.MemProfileRate), 0 if the profile does not say.
	Rate int64
	Time time.Time // when the profile was taken, zero if unknown
	// Unsymbolized are the objects of samples whose stacks hold
	// addresses only, no function or line: Samples leaves them out.
	Unsymbolized int64
	// Inuse is whether the profile carries in-use values beside the
	// allocated ones, as Go's heap and allocs profiles do.
	Inuse bool
}

// ErrNotProfile is wrapped by Parse's error for input that is not a pprof
// profile at all.
var ErrNotProfile = errors.New("not a pprof profile")

// ErrNotMemory is wrapped by Parse's error for a valid profile of another
// kind (CPU, goroutine, mutex, block).
var ErrNotMemory = errors.New("not a memory profile")

// ErrTooLarge is wrapped by Parse's error when the profile, as read or
// once decompressed, is larger than the limit Parse was given.
var ErrTooLarge = errors.New("profile larger than the limit")

// DefaultLimit is a limit for Parse that holds any real memory profile:
// a service's profile is kilobytes to a few megabytes, decompressed.
const DefaultLimit = 16 << 20

// costFactor bounds the memory Parse lets pprof's parser take: at most
// costFactor times the limit, as parseCost estimates it. A real profile
// costs 6 to 14 times its size, and is estimated at 13 to 24 times.
const costFactor = 32

// Parse reads a memory profile, gzipped or not, in the protobuf format or
// the legacy text format (debug=1). Neither data nor the profile
// decompressed may exceed limit bytes: Parse decompresses data itself and
// stops past limit bytes, so a small file that inflates to gigabytes
// costs about limit bytes of memory before it is refused with an error
// wrapping ErrTooLarge. Nor may the parsing take more than 32 times the
// limit: a profile of many tiny records (empty samples cost 86 times
// their size) is refused the same way before it is parsed. Its
// error wraps ErrNotProfile when r does not hold a profile and
// ErrNotMemory when it holds another kind; a profile with no samples is
// not an error (see Profile.Empty).
func Parse(data []byte, limit int64) (*Profile, error) {
	data, err := decompress(data, limit)
	if err != nil {
		return nil, err
	}
	if err := checkCost(data, limit); err != nil {
		return nil, err
	}
	// data is not gzipped (decompress saw to it), so ParseData decodes
	// it as it is and decompresses nothing.
	prof, err := profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotProfile, err)
	}
	objIdx, byteIdx, inuseObjIdx, inuseByteIdx := -1, -1, -1, -1
	var kinds []string
	for i, st := range prof.SampleType {
		kinds = append(kinds, st.Type)
		switch st.Type {
		case "alloc_objects":
			objIdx = i
		case "alloc_space":
			byteIdx = i
		case "inuse_objects":
			inuseObjIdx = i
		case "inuse_space":
			inuseByteIdx = i
		}
	}
	if objIdx < 0 || byteIdx < 0 {
		return nil, fmt.Errorf("%w: it is %s, with no alloc_objects/alloc_space samples", ErrNotMemory, describe(prof, kinds))
	}
	p := &Profile{Duration: time.Duration(prof.DurationNanos), Inuse: inuseObjIdx >= 0 && inuseByteIdx >= 0}
	if prof.PeriodType != nil && prof.PeriodType.Type == "space" {
		p.Rate = prof.Period
	}
	if prof.TimeNanos != 0 {
		p.Time = time.Unix(0, prof.TimeNanos)
	}
	// Stacks share their locations in the profile, but not here: a
	// location of many lines, named by many samples, would expand into
	// more frames than memory holds. Count them before making any.
	maxFrames := costFactor * limit / int64(unsafe.Sizeof(Frame{}))
	frames := int64(0)
	for _, s := range prof.Sample {
		if s.Value[objIdx] == 0 && s.Value[byteIdx] == 0 {
			continue
		}
		for _, loc := range s.Location {
			frames += int64(len(loc.Line))
		}
		if frames > maxFrames {
			return nil, fmt.Errorf("%w: its stacks expand to more than %d frames, %d times the limit in memory",
				ErrTooLarge, maxFrames, costFactor)
		}
	}
	// Equal names get one address, for the rules' memos (see names.go).
	names := interner{}
	for _, fn := range prof.Function {
		fn.Name, fn.Filename = names.intern(fn.Name), names.intern(fn.Filename)
	}
	for _, s := range prof.Sample {
		if s.Value[objIdx] == 0 && s.Value[byteIdx] == 0 {
			continue
		}
		var stack []Frame
		for _, loc := range s.Location {
			for _, ln := range loc.Line {
				if ln.Function == nil {
					continue
				}
				stack = append(stack, Frame{ln.Function.Name, ln.Function.Filename, ln.Line})
			}
		}
		if len(stack) == 0 {
			p.Unsymbolized += s.Value[objIdx]
			continue
		}
		smp := Sample{Stack: stack, Objects: s.Value[objIdx], Bytes: s.Value[byteIdx],
			Sampled: sampled(s.Value[objIdx], s.Value[byteIdx], p.Rate)}
		if p.Inuse {
			smp.InuseObjects, smp.InuseBytes = s.Value[inuseObjIdx], s.Value[inuseByteIdx]
		}
		p.Samples = append(p.Samples, smp)
	}
	return p, nil
}

// sampled undoes the runtime's scaling of a heap profile's sample
// (runtime/pprof's scaleHeapSample): an allocation of size bytes is
// recorded with probability 1-exp(-size/rate), and its count divided by
// that. Multiplying back gives the allocations recorded.
func sampled(objects, bytes, rate int64) float64 {
	if rate <= 0 || objects <= 0 {
		return 0
	}
	if rate == 1 {
		return float64(objects)
	}
	size := float64(bytes) / float64(objects)
	return float64(objects) * -math.Expm1(-size/float64(rate))
}

// decompress returns data, decompressed when it is gzipped, or an error
// when data or what it inflates to is larger than limit.
func decompress(data []byte, limit int64) ([]byte, error) {
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: it is larger than %s", ErrTooLarge, fmtLimit(limit))
	}
	if !isGzip(data) {
		return data, nil
	}
	plain, err := gzpool.AppendDecompress(nil, data, limit)
	switch {
	case errors.Is(err, gzpool.ErrLimit):
		return nil, fmt.Errorf("%w: it decompresses to more than %s", ErrTooLarge, fmtLimit(limit))
	case err != nil:
		return nil, fmt.Errorf("%w: decompressing: %v", ErrNotProfile, err)
	}
	if isGzip(plain) {
		// pprof compresses a profile once; a second layer would be
		// decompressed again by the parser, without a limit.
		return nil, fmt.Errorf("%w: it is gzipped twice", ErrNotProfile)
	}
	return plain, nil
}

// checkCost returns an error when parsing data would take more than
// costFactor times limit.
func checkCost(data []byte, limit int64) error {
	if c := parseCost(data); c > costFactor*limit {
		return fmt.Errorf("%w: parsing its %s of many small records would take about %s of memory, more than %d times the limit",
			ErrTooLarge, fmtLimit(int64(len(data))), fmtLimit(c), costFactor)
	}
	return nil
}

// isGzip reports whether b starts with gzip's magic number, as pprof's
// parser tests it.
func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// fmtLimit prints a size in MiB, whole or to a tenth, or in bytes.
func fmtLimit(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// describe names the kind of a profile that is not a memory profile.
func describe(prof *profile.Profile, kinds []string) string {
	for _, k := range kinds {
		switch k {
		case "cpu":
			return "a CPU profile"
		case "goroutine":
			return "a goroutine profile"
		case "contentions", "delay":
			return "a mutex or block profile"
		}
	}
	if len(kinds) == 0 {
		return "a profile with no sample types"
	}
	return "a profile of " + strings.Join(kinds, ", ")
}

// Empty reports whether the profile holds no allocation at all.
func (p *Profile) Empty() bool {
	if p.Unsymbolized > 0 {
		return false
	}
	for _, s := range p.Samples {
		if s.Objects > 0 {
			return false
		}
	}
	return true
}

// FuncPackage returns the package path of a function symbol name such as
// "example.com/m/sub.(*T).Method.func1", "example.com/m.F[go.shape.int]"
// or "gopkg.in/yaml%2ev3.(*parser).node".
func FuncPackage(fn string) string { return funcPackages.get(fn, funcPackage) }

var funcPackages memo[string]

func funcPackage(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i] // type arguments may hold slashes and dots of their own
	}
	slash := strings.LastIndex(fn, "/")
	dot := strings.Index(fn[slash+1:], ".")
	if dot >= 0 {
		fn = fn[:slash+1+dot]
	}
	// The linker escapes dots in a path's last element ("yaml%2ev3").
	return strings.ReplaceAll(fn, "%2e", ".")
}

// IsRuntime reports whether fn is part of the allocator and the runtime's
// conversions rather than the code that asked for memory.
func IsRuntime(fn string) bool { return runtimeFuncs.get(fn, isRuntime) }

var runtimeFuncs memo[bool]

func isRuntime(fn string) bool {
	pkg := FuncPackage(fn)
	return pkg == "runtime" || strings.HasPrefix(pkg, "internal/runtime/") || pkg == "internal/abi"
}

// stdRoots are the first path elements of the standard library's
// packages (as of Go 1.26); a package path starting with one of them, and
// with no dot in its first element, is the standard library's.
var stdRoots = map[string]bool{
	"archive": true, "bufio": true, "bytes": true, "cmp": true, "compress": true, "container": true,
	"context": true, "crypto": true, "database": true, "debug": true, "embed": true, "encoding": true,
	"errors": true, "expvar": true, "flag": true, "fmt": true, "go": true, "hash": true, "html": true,
	"image": true, "index": true, "internal": true, "io": true, "iter": true, "log": true, "maps": true,
	"math": true, "mime": true, "net": true, "os": true, "path": true, "plugin": true, "reflect": true,
	"regexp": true, "runtime": true, "slices": true, "sort": true, "strconv": true, "strings": true,
	"structs": true, "sync": true, "syscall": true, "testing": true, "text": true, "time": true,
	"unicode": true, "unique": true, "unsafe": true, "vendor": true, "weak": true,
}

// IsStd reports whether pkg is a standard-library package path.
func IsStd(pkg string) bool { return stdPackages.get(pkg, isStd) }

var stdPackages memo[bool]

func isStd(pkg string) bool {
	first, _, _ := strings.Cut(pkg, "/")
	return !strings.Contains(first, ".") && stdRoots[first]
}

// libraryPrefixes are widely used third-party module paths: frames in
// them are libraries the user calls, not the user's own code, so the
// first user frame is looked for above them. The list is short on
// purpose; UserCode's prefixes override it.
var libraryPrefixes = []string{
	"golang.org/x/", "google.golang.org/", "github.com/golang/protobuf/", "github.com/google/",
	"github.com/poolkit/poolkit/", "github.com/klauspost/compress/",
	"github.com/prometheus/", "go.opentelemetry.io/", "go.uber.org/", "github.com/grpc-ecosystem/",
	"github.com/gorilla/", "github.com/go-chi/", "github.com/gin-gonic/", "github.com/labstack/echo",
	"github.com/valyala/", "github.com/julienschmidt/httprouter",
	"github.com/json-iterator/", "github.com/goccy/go-json", "github.com/bytedance/sonic",
	"github.com/go-sql-driver/", "github.com/jackc/", "github.com/lib/pq", "github.com/redis/",
	"github.com/sirupsen/logrus", "github.com/rs/zerolog", "gopkg.in/", "gorm.io/",
	"github.com/aws/aws-sdk-go", "cloud.google.com/go/",
}

// UserCode decides which frames are the user's own code.
//
// With no prefixes, a frame is the user's unless its package is the
// runtime, the standard library, or under one of a short list of widely
// used third-party module paths (golang.org/x/, google.golang.org/,
// github.com/klauspost/compress/, go.uber.org/, … and poolkit itself). With
// prefixes, a frame is the user's exactly when its package path is one of
// them or below one ("main" names package main).
type UserCode struct {
	Prefixes []string
}

// Is reports whether fn, a function symbol name, is in the user's code.
func (u UserCode) Is(fn string) bool {
	pkg := FuncPackage(fn)
	if len(u.Prefixes) > 0 {
		for _, p := range u.Prefixes {
			p = strings.TrimSuffix(p, "/")
			if strings.HasPrefix(pkg, p) && (len(pkg) == len(p) || pkg[len(p)] == '/') {
				return true
			}
		}
		return false
	}
	if pkg == "main" {
		return true
	}
	if IsStd(pkg) || IsRuntime(fn) {
		return false
	}
	for _, p := range libraryPrefixes {
		if strings.HasPrefix(pkg, p) || (len(p) == len(pkg)+1 && strings.HasPrefix(p, pkg) && p[len(pkg)] == '/') {
			return false
		}
	}
	return true
}
