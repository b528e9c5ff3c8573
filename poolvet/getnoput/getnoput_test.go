package getnoput_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/getnoput"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), getnoput.Analyzer, "getnoput")
}

// TestDoc checks that the documentation embedded from doc.go starts with
// the analyzer's title and carries its bad and good examples.
func TestDoc(t *testing.T) {
	doc := getnoput.Analyzer.Doc
	if !strings.HasPrefix(doc, "getnoput: ") {
		t.Errorf("Doc does not start with %q: %.60q", "getnoput: ", doc)
	}
	for _, want := range []string{"Bad", "Good", "\tfunc "} {
		if !strings.Contains(doc, want) {
			t.Errorf("Doc lacks %q", want)
		}
	}
	if strings.Contains(doc, "package getnoput") || strings.Contains(doc, "# Analyzer") {
		t.Errorf("Doc kept source lines: %q", doc)
	}
}
