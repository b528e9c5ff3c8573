package getreset_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/getreset"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), getreset.Analyzer, "getreset", "getresetclean")
}

// TestDoc checks that the documentation embedded from doc.go starts with
// the analyzer's title and carries its bad and good examples.
func TestDoc(t *testing.T) {
	doc := getreset.Analyzer.Doc
	if !strings.HasPrefix(doc, "getreset: ") {
		t.Errorf("Doc does not start with %q: %.60q", "getreset: ", doc)
	}
	for _, want := range []string{"Bad", "Good", "\tfunc "} {
		if !strings.Contains(doc, want) {
			t.Errorf("Doc lacks %q", want)
		}
	}
	if strings.Contains(doc, "package getreset") || strings.Contains(doc, "# Analyzer") {
		t.Errorf("Doc kept source lines: %q", doc)
	}
}
