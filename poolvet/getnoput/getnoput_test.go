package getnoput_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/getnoput"
)

func Test(t *testing.T) {
	analysistest.Run(t, fixture.TestData(t), getnoput.Analyzer, "getnoput", "loops", "flagged", "ornew", "owned")
}
