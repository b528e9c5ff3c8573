package nonptrput_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"
	"github.com/poolkit/poolkit/poolvet/nonptrput"
)

func Test(t *testing.T) {
	fixture.Run(t, nonptrput.Analyzer, "a", "addr", "iface")
}
