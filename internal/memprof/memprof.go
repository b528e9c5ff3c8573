// Package memprof reads Go memory profiles (the pprof format that
// runtime/pprof, go test -memprofile and net/http/pprof's allocs and heap
// endpoints write) into allocation stacks, and sorts frames into the
// runtime, libraries and the user's own code. poolkit allocs is built on
// it, both for benchmarks and for a running service.
package memprof

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/pprof/profile"
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
}

// ErrNotProfile is wrapped by Parse's error for input that is not a pprof
// profile at all.
var ErrNotProfile = errors.New("not a pprof profile")

// ErrNotMemory is wrapped by Parse's error for a valid profile of another
// kind (CPU, goroutine, mutex, block).
var ErrNotMemory = errors.New("not a memory profile")

// Parse reads a memory profile, gzipped or not, in the protobuf format or
// the legacy text format (debug=1). Its error wraps ErrNotProfile when r
// does not hold a profile and ErrNotMemory when it holds another kind; a
// profile with no samples is not an error (see Profile.Empty).
func Parse(r io.Reader) (*Profile, error) {
	prof, err := profile.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotProfile, err)
	}
	objIdx, byteIdx := -1, -1
	var kinds []string
	for i, st := range prof.SampleType {
		kinds = append(kinds, st.Type)
		switch st.Type {
		case "alloc_objects":
			objIdx = i
		case "alloc_space":
			byteIdx = i
		}
	}
	if objIdx < 0 || byteIdx < 0 {
		return nil, fmt.Errorf("%w: it is %s, with no alloc_objects/alloc_space samples", ErrNotMemory, describe(prof, kinds))
	}
	p := &Profile{Duration: time.Duration(prof.DurationNanos)}
	if prof.PeriodType != nil && prof.PeriodType.Type == "space" {
		p.Rate = prof.Period
	}
	if prof.TimeNanos != 0 {
		p.Time = time.Unix(0, prof.TimeNanos)
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
		p.Samples = append(p.Samples, Sample{Stack: stack, Objects: s.Value[objIdx], Bytes: s.Value[byteIdx]})
	}
	return p, nil
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
func FuncPackage(fn string) string {
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
func IsRuntime(fn string) bool {
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
func IsStd(pkg string) bool {
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
			if pkg == p || strings.HasPrefix(pkg, p+"/") {
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
		if strings.HasPrefix(pkg+"/", p) || strings.HasPrefix(pkg, p) {
			return false
		}
	}
	return true
}
