// Package poolvet lists the analyzers that catch sync.Pool and poolkit pool
// misuse, for cmd/poolvet, poolkit vet and other drivers (gopls,
// golangci-lint, go vet -vettool).
//
// Each check is its own analyzer in a package under poolvet/, documented
// there with a bad and a good example:
//
//	nonptrput    sync.Pool.Put of a value that allocates when boxed
//	newmismatch  Get/Put types the pool's New never returns
//	useafterput  a pooled value, or memory aliasing it, used after Put
//	getreset     a pooled value written to before it is reset
//	dirtydecode  decoding into a pooled value that was not zeroed
//	poolcopy     pools copied by copy, append, sends, *p, slices/maps/sort
//	retention    buffers grown from input and kept whatever their size (opt-in)
//	getnoput     a pooled value dropped on a return path without Put
//
// Messages are one clause in vet's style, such as "b from bufPool (Get on
// line 12) is written before it is reset (no Put of bufPool resets it)";
// why it matters and how to fix it is in the analyzer's documentation
// (go doc github.com/poolkit/poolkit/poolvet/getreset, or -help of
// cmd/poolvet).
//
// All of them share poolvet/internal/poolcall, which recognises pool
// operations, wrappers around them (generic or not, across packages) and
// the types each sync.Pool's New returns.
package poolvet

import (
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
func Default() []*analysis.Analyzer { return append([]*analysis.Analyzer(nil), defaults...) }

// OptIn lists the analyzers that are noisy by nature and run only when
// asked for: whether a buffer can grow large is something only the
// program knows.
func OptIn() []*analysis.Analyzer { return append([]*analysis.Analyzer(nil), optIn...) }

// Analyzers returns the default analyzers, and the opt-in ones too when
// all is true.
//
// Every analyzer (here and in its own package, whatever the driver) drops
// a diagnostic when its line, or the line above, carries a directive with
// a reason:
//
//	//poolvet:ignore reason                  (every check)
//	//poolvet:ignore name[,name...] reason   (the checks named)
//
// A directive without a reason is not honoured. nonptrput also honours
// existing staticcheck suppressions of its twin check SA6002
// (//lint:ignore SA6002 ... and //nolint:staticcheck // SA6002 ...).
func Analyzers(all bool) []*analysis.Analyzer {
	as := Default()
	if all {
		as = append(as, OptIn()...)
	}
	return as
}

var (
	defaults = []*analysis.Analyzer{
		nonptrput.Analyzer,
		newmismatch.Analyzer,
		useafterput.Analyzer,
		getreset.Analyzer,
		dirtydecode.Analyzer,
		poolcopy.Analyzer,
		getnoput.Analyzer,
	}
	optIn = []*analysis.Analyzer{retention.Analyzer}
)
