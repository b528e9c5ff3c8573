// Package poolvet lists the analyzers that catch sync.Pool and poolkit pool
// misuse, for cmd/poolvet, poolkit vet and other drivers (gopls,
// golangci-lint, go vet -vettool).
//
// Each check is its own analyzer in a package under poolvet/, documented
// there with a bad and a good example:
//
//	nonptrput    sync.Pool.Put of a value that allocates when boxed (check 1)
//	newmismatch  Get/Put types the pool's New never returns (check 2)
//	useafterput  a pooled value, or memory aliasing it, used after Put (check 3)
//	getreset     a pooled value written to before it is reset (check 4)
//	dirtydecode  decoding into a pooled value that was not zeroed (check 5)
//	poolcopy     pools copied by copy, append, sends, *p, slices/maps/sort (check 6)
//	retention    buffers grown from input and kept whatever their size (check 7, opt-in)
//	getnoput     a pooled value dropped on a return path without Put (check 8)
//
// All of them share poolvet/internal/poolcall, which recognises pool
// operations, wrappers around them (generic or not, across packages) and
// the types each sync.Pool's New returns.
package poolvet

import (
	"strings"
	"sync"

	"github.com/poolkit/poolkit/poolvet/dirtydecode"
	"github.com/poolkit/poolkit/poolvet/getnoput"
	"github.com/poolkit/poolkit/poolvet/getreset"
	"github.com/poolkit/poolkit/poolvet/newmismatch"
	"github.com/poolkit/poolkit/poolvet/nonptrput"
	"github.com/poolkit/poolkit/poolvet/poolcopy"
	"github.com/poolkit/poolkit/poolvet/retention"
	"github.com/poolkit/poolkit/poolvet/useafterput"
	"golang.org/x/tools/go/analysis"
)

// Default lists the analyzers run by default: those quiet on correct code.
// They honour //poolvet:ignore comments (see Analyzers).
func Default() []*analysis.Analyzer { build(); return append([]*analysis.Analyzer(nil), defaults...) }

// OptIn lists the analyzers that are noisy by nature and run only when
// asked for: whether a buffer can grow large is something only the
// program knows.
func OptIn() []*analysis.Analyzer { build(); return append([]*analysis.Analyzer(nil), optIn...) }

// Analyzers returns the default analyzers, and the opt-in ones too when
// all is true.
//
// The analyzers returned drop a diagnostic when the line it is on, or the
// line above, carries a comment
//
//	//poolvet:ignore name[,name...] reason
//
// naming the analyzer; nonptrput also honours existing staticcheck
// suppressions of its twin check SA6002 (//lint:ignore SA6002 ... and
// //nolint:staticcheck // SA6002 ...). The analyzers in the analyzer
// packages themselves (nonptrput.Analyzer, ...) report everything.
func Analyzers(all bool) []*analysis.Analyzer {
	as := Default()
	if all {
		as = append(as, OptIn()...)
	}
	return as
}

var (
	once     sync.Once
	defaults []*analysis.Analyzer
	optIn    []*analysis.Analyzer
)

func build() {
	once.Do(func() {
		for _, a := range []*analysis.Analyzer{
			nonptrput.Analyzer,
			newmismatch.Analyzer,
			useafterput.Analyzer,
			getreset.Analyzer,
			dirtydecode.Analyzer,
			poolcopy.Analyzer,
			getnoput.Analyzer,
		} {
			defaults = append(defaults, withIgnore(a))
		}
		optIn = append(optIn, withIgnore(retention.Analyzer))
	})
}

// withIgnore returns a copy of a whose diagnostics are filtered by
// //poolvet:ignore comments.
func withIgnore(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		var ignored map[string]map[int]bool // file name -> lines
		p.Report = func(d analysis.Diagnostic) {
			if ignored == nil {
				ignored = ignoredLines(pass, a.Name)
			}
			pos := pass.Fset.Position(d.Pos)
			if ignored[pos.Filename][pos.Line] {
				return
			}
			pass.Report(d)
		}
		return a.Run(&p)
	}
	return &w
}

// ignoredLines returns, per file, the lines whose diagnostics from the
// analyzer name are suppressed: the line of a matching comment and the
// line after it.
func ignoredLines(pass *analysis.Pass, name string) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if !ignores(c.Text, name) {
					continue
				}
				pos := pass.Fset.Position(c.Slash)
				if out[pos.Filename] == nil {
					out[pos.Filename] = map[int]bool{}
				}
				out[pos.Filename][pos.Line] = true
				out[pos.Filename][pos.Line+1] = true
			}
		}
	}
	return out
}

// ignores reports whether the comment text suppresses the analyzer name.
func ignores(text, name string) bool {
	text = strings.TrimPrefix(text, "//")
	if rest, ok := strings.CutPrefix(text, "poolvet:ignore "); ok {
		names, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
		for _, n := range strings.Split(names, ",") {
			if n == name {
				return true
			}
		}
		return false
	}
	if name == "nonptrput" && strings.Contains(text, "SA6002") {
		return strings.HasPrefix(strings.TrimSpace(text), "lint:ignore") || strings.Contains(text, "nolint:staticcheck")
	}
	return false
}
