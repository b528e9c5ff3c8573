package useafterput_test

import (
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"

	"github.com/poolkit/poolkit/poolvet/useafterput"
)

func Test(t *testing.T) {
	fixture.RunWithSuggestedFixes(t, useafterput.Analyzer, "useafterput", "escape", "again", "alias", "store", "free", "released", "outer", "httpbody", "deferorder")
}
