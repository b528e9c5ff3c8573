package poolcopy_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"
	"github.com/poolkit/poolkit/poolvet/poolcopy"
)

func Test(t *testing.T) {
	fixture.Run(t, poolcopy.Analyzer, "a", "deref", "ctor")
}
