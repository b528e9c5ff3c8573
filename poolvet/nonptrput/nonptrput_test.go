package nonptrput_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"
	"github.com/poolkit/poolkit/poolvet/nonptrput"
	"golang.org/x/tools/go/analysis/analysistest"
)

func Test(t *testing.T) {
	analysistest.Run(t, fixture.TestData(t), nonptrput.Analyzer, "a", "addr", "iface")
}
