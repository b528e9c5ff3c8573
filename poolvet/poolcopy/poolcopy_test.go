package poolcopy_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"
	"github.com/poolkit/poolkit/poolvet/poolcopy"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, fixture.TestData(t), poolcopy.Analyzer, "a", "deref", "ctor")
}
