package useafterput_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/useafterput"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), useafterput.Analyzer, "useafterput")
}

// TestDoc checks that the documentation embedded from doc.go starts with
// the analyzer's title and carries its bad and good examples.
func TestDoc(t *testing.T) {
	doc := useafterput.Analyzer.Doc
	if !strings.HasPrefix(doc, "useafterput: ") {
		t.Errorf("Doc does not start with %q: %.60q", "useafterput: ", doc)
	}
	for _, want := range []string{"Bad", "Good", "\tfunc "} {
		if !strings.Contains(doc, want) {
			t.Errorf("Doc lacks %q", want)
		}
	}
	if strings.Contains(doc, "package useafterput") || strings.Contains(doc, "# Analyzer") {
		t.Errorf("Doc kept source lines: %q", doc)
	}
}
