package dirtydecode_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/dirtydecode"
)

func Test(t *testing.T) {
	fixture.RunWithSuggestedFixes(t, dirtydecode.Analyzer, "dirtydecode")
}
