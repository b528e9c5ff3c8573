package poolcopy_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/poolcopy"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), poolcopy.Analyzer, "a")
}
