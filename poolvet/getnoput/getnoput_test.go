package getnoput_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/poolkit/poolkit/poolvet/getnoput"
)

func Test(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), getnoput.Analyzer, "getnoput")
}
