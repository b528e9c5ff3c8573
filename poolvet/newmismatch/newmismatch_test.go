package newmismatch_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/newmismatch"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), newmismatch.Analyzer, "a")
}
