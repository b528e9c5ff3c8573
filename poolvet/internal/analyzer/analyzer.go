// Package analyzer declares a poolvet analyzer the way all of them are
// declared: documented by its package's doc.go, silenced by
// //poolvet:ignore, and run over the pool operations poolcall found.
package analyzer

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/poolkit/poolkit/poolvet/internal/docs"
	"github.com/poolkit/poolkit/poolvet/internal/ignore"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

// Run is the body of a poolvet analyzer: it is given the pass, the pool
// operations of the package (poolcall.Analyzer's result) and its syntax
// inspector (inspect.Analyzer's result).
type Run func(pass *analysis.Pass, pc *poolcall.Info, ins *inspector.Inspector) (any, error)

// New returns the poolvet analyzer name. Its Doc is the "# Analyzer name"
// section of doc, the content of its package's doc.go; its URL is its
// package's page; it requires poolcall.Analyzer, inspect.Analyzer and the
// analyzers in more; and it runs run, dropping the diagnostics a
// //poolvet:ignore directive silences for name.
func New(name, doc string, run Run, more ...*analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      docs.Extract(doc, name),
		URL:      "https://pkg.go.dev/github.com/poolkit/poolkit/poolvet/" + name,
		Requires: append([]*analysis.Analyzer{inspect.Analyzer, poolcall.Analyzer}, more...),
		Run: ignore.Run(name, func(pass *analysis.Pass) (any, error) {
			pc := pass.ResultOf[poolcall.Analyzer].(*poolcall.Info)
			ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
			return run(pass, pc, ins)
		}),
	}
}
