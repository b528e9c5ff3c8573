package getreset_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/getreset"
)

func Test(t *testing.T) {
	fixture.RunWithSuggestedFixes(t, getreset.Analyzer, "getreset", "getresetclean", "helpers", "helperfields", "streams", "resetlike")
}
