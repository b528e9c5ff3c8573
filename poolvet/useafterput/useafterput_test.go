package useafterput_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/useafterput"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture.TestData(t), useafterput.Analyzer, "useafterput", "escape", "again", "alias", "store", "free", "released", "outer", "httpbody")
}
