// Package ignore implements the //poolvet:ignore directive every poolvet
// analyzer honours:
//
//	//poolvet:ignore reason
//	//poolvet:ignore name[,name...] reason
//
// on the line of a diagnostic, or alone on the line above it, drops it:
// the first form for every analyzer, the second for those named. The
// reason is required: a directive without one (//poolvet:ignore, or
// //poolvet:ignore nonptrput) is not honoured, so the finding stays until
// someone says why it is fine. nonptrput also honours staticcheck's
// suppressions of its twin check SA6002 (//lint:ignore SA6002 reason,
// //nolint:staticcheck // SA6002 reason).
package ignore

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Names lists the poolvet analyzers, so that a directive's first word can
// be told apart from the start of its reason.
var Names = map[string]bool{
	"nonptrput": true, "newmismatch": true, "useafterput": true, "getreset": true,
	"dirtydecode": true, "poolcopy": true, "retention": true, "getnoput": true,
}

// Run returns run with the diagnostics it reports filtered by the
// directives in the package's files, for the analyzer name.
func Run(name string, run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		p := *pass
		var lines map[string]map[int]bool // file name -> lines
		p.Report = func(d analysis.Diagnostic) {
			if lines == nil {
				lines = ignoredLines(pass.Fset, pass, name)
			}
			pos := pass.Fset.Position(d.Pos)
			if lines[pos.Filename][pos.Line] {
				return
			}
			pass.Report(d)
		}
		return run(&p)
	}
}

// ignoredLines returns, per file, the lines whose diagnostics from the
// analyzer name are dropped: the line of a directive naming it, and the
// line after it.
func ignoredLines(fset *token.FileSet, pass *analysis.Pass, name string) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if !Ignores(c.Text, name) {
					continue
				}
				pos := fset.Position(c.Slash)
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

// Ignores reports whether the comment text (with its // or /*) silences
// the analyzer name.
func Ignores(text, name string) bool {
	text = strings.TrimPrefix(text, "//")
	if rest, ok := strings.CutPrefix(text, "poolvet:ignore"); ok {
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return false // poolvet:ignored, or another word
		}
		// A comment after the directive (// want ..., // nolint) is not
		// its reason.
		rest, _, _ = strings.Cut(rest, "//")
		first, reason, _ := strings.Cut(strings.TrimSpace(rest), " ")
		if first == "" {
			return false // no reason
		}
		names := strings.Split(first, ",")
		for _, n := range names {
			if !Names[n] {
				return true // no names: the whole text is the reason
			}
		}
		if strings.TrimSpace(reason) == "" {
			return false // names, no reason
		}
		for _, n := range names {
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
