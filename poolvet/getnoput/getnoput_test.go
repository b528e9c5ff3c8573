package getnoput_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/getnoput"
)

func Test(t *testing.T) {
	fixture.Run(t, getnoput.Analyzer, "getnoput", "loops", "flagged", "ornew", "owned")
}
