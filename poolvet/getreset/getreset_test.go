package getreset_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/getreset"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), getreset.Analyzer, "getreset", "getresetclean")
}
