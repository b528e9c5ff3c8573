package dirtydecode_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/dirtydecode"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, fixture.TestData(t), dirtydecode.Analyzer, "dirtydecode")
}
