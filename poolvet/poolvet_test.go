package poolvet_test

import (
	"strings"
	"testing"

	"github.com/poolkit/poolkit/poolvet"
	"github.com/poolkit/poolkit/poolvet/internal/ignore"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestAnalyzers(t *testing.T) {
	def, all := poolvet.Analyzers(false), poolvet.Analyzers(true)
	if len(all) != len(def)+len(poolvet.OptIn()) {
		t.Fatalf("Analyzers(true) has %d analyzers, want default %d + opt-in %d", len(all), len(def), len(poolvet.OptIn()))
	}
	if err := analysis.Validate(all); err != nil {
		t.Fatalf("analysis.Validate: %v", err)
	}
	seen := map[string]bool{}
	for _, a := range all {
		if seen[a.Name] {
			t.Errorf("analyzer %s listed twice", a.Name)
		}
		seen[a.Name] = true
		if a.Doc == "" || !strings.HasPrefix(a.Doc, a.Name+": ") {
			t.Errorf("analyzer %s: Doc %q does not start with %q", a.Name, a.Doc, a.Name+": ")
		}
		if strings.Contains(a.Doc, "TODO") {
			t.Errorf("analyzer %s: Doc mentions TODO", a.Name)
		}
		// The Doc embedded from doc.go carries its bad and good examples,
		// code indented, and none of the source around the heading.
		for _, want := range []string{"Bad", "Good", "\n\t"} {
			if !strings.Contains(a.Doc, want) {
				t.Errorf("analyzer %s: Doc lacks %q", a.Name, want)
			}
		}
		if strings.Contains(a.Doc, "package "+a.Name) || strings.Contains(a.Doc, "# Analyzer") || strings.Contains(a.Doc, "\n//") {
			t.Errorf("analyzer %s: Doc kept source lines: %q", a.Name, a.Doc)
		}
	}
	// The directive tells names from reasons by this list.
	if len(ignore.Names) != len(all) {
		t.Errorf("ignore.Names has %d names, want the %d analyzers", len(ignore.Names), len(all))
	}
	for _, a := range all {
		if !ignore.Names[a.Name] {
			t.Errorf("ignore.Names lacks %s", a.Name)
		}
	}
	for _, a := range def {
		if a.Name == "retention" {
			t.Errorf("retention is opt-in but in the default set")
		}
	}
}

// TestIgnore runs every analyzer over a package of its own findings, each
// repeated with and without //poolvet:ignore directives: naming it or
// not, on the line or the line above, with and without a reason.
func TestIgnore(t *testing.T) {
	for _, a := range poolvet.Analyzers(true) {
		t.Run(a.Name, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), a, "ignore/"+a.Name)
		})
	}
	// The SA6002 suppressions staticcheck users already have.
	for _, a := range poolvet.Analyzers(false) {
		if a.Name == "nonptrput" {
			analysistest.Run(t, analysistest.TestData(), a, "ignore")
		}
	}
}
