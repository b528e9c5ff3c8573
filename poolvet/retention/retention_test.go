package retention_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/retention"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retention.Analyzer, "a", "far", "fields")
}

// TestBounded: appends of a bounded size (one number, rune or boolean)
// grow nothing from input unless repeated in a loop.
func TestBounded(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retention.Analyzer, "bounded", "derived")
}
