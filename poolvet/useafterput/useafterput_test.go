package useafterput_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/useafterput"
)

func Test(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), useafterput.Analyzer, "useafterput")
}
