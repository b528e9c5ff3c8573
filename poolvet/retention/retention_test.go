package retention_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/retention"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retention.Analyzer, "a", "far", "fields")
}
