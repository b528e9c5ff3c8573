package getreset_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/getreset"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture.TestData(t), getreset.Analyzer, "getreset", "getresetclean", "helpers", "helperfields", "streams")
}
