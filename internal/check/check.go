// Package check holds what the pool packages share for checked mode
// (-tags poolkitcheck).
//
// That is where a Put happened, how a report is worded, page-protected
// memory for pointer-free data, and checksums of memory on the Go heap.
//
// Everything here is reached only behind `if check.Enabled`, a constant, so
// a build without the tag compiles none of it into the pools' code paths.
package check

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// Site is where a Put happened: the program counters of its caller's
// frames, resolved only when a report needs them.
type Site struct {
	pcs [8]uintptr
	n   int
}

// Caller returns the Site of the call into poolkit that called Caller.
func Caller() Site {
	var s Site
	s.n = runtime.Callers(2, s.pcs[:])
	return s
}

// ownPackages are the packages whose frames a report skips to reach the
// line that called into them.
var ownPackages = []string{
	"github.com/poolkit/poolkit/pool.",
	"github.com/poolkit/poolkit/slicepool.",
	"github.com/poolkit/poolkit/bytebuf.",
	"github.com/poolkit/poolkit/internal/check.",
}

func own(function string) bool {
	for _, p := range ownPackages {
		if strings.HasPrefix(function, p) {
			return true
		}
	}
	return false
}

// String returns "file.go:line" of the first frame outside the pool
// packages, or "an unknown place" when there is none.
func (s Site) String() string {
	if s.n == 0 {
		return "an unknown place"
	}
	frames := runtime.CallersFrames(s.pcs[:s.n])
	var last runtime.Frame
	for {
		f, more := frames.Next()
		if f.Function != "" && !own(f.Function) {
			return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
		}
		last = f
		if !more {
			break
		}
	}
	if last.File == "" {
		return "an unknown place"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(last.File), last.Line)
}

// Fail stops the program with a report: "poolkit: " followed by the
// formatted message. It panics, so the trace shows the call that found the
// misuse.
func Fail(format string, args ...any) {
	panic("poolkit: " + fmt.Sprintf(format, args...))
}

// PutTwice reports a second Put of the value what (such as
// "bytebuf.Buffer") first Put at first.
func PutTwice(what string, first Site) {
	Fail("%s Put again after Put (first Put at %s)", what, first)
}

// WrittenAfterPut reports that the memory of the value what was changed
// while it sat in the pool after its Put at site.
func WrittenAfterPut(what string, site Site) {
	Fail("%s written after Put (Put at %s)", what, site)
}

// UsedAfterPut reports a call of method on a value what after its Put at
// site.
func UsedAfterPut(what, method string, site Site) {
	Fail("%s.%s called after Put (Put at %s)", what, method, site)
}
