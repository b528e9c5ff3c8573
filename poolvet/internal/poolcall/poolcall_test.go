package poolcall_test

import (
	"fmt"
	"go/types"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/fixture"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
	"golang.org/x/tools/go/analysis"
)

// dump reports everything poolcall found, so the fixtures can assert it.
var dump = &analysis.Analyzer{
	Name:     "dump",
	Doc:      "reports poolcall's findings",
	Requires: []*analysis.Analyzer{poolcall.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		info := pass.ResultOf[poolcall.Analyzer].(*poolcall.Info)
		for _, c := range info.Calls {
			var b strings.Builder
			if c.Op == poolcall.Get {
				b.WriteString("get from ")
			} else {
				b.WriteString("put to ")
			}
			name := "<nil>"
			if c.Pool != nil {
				name = c.Pool.Name()
			}
			fmt.Fprintf(&b, "%s (%s)", name, c.PoolName)
			if c.Kind != poolcall.SyncPool {
				fmt.Fprintf(&b, " kind %d", c.Kind)
			}
			if c.Value != nil {
				fmt.Fprintf(&b, " value %s", types.ExprString(c.Value))
			}
			if c.Wrapper != nil {
				fmt.Fprintf(&b, " via %s", c.Wrapper.Name())
			}
			if c.Converted {
				b.WriteString(" converted")
			}
			pass.Reportf(c.Pos(), "%s", b.String())
		}
		for obj, n := range info.New {
			if len(n.Pos) == 0 {
				continue
			}
			var ts []string
			for _, t := range n.Types {
				ts = append(ts, types.TypeString(t, types.RelativeTo(pass.Pkg)))
			}
			s := fmt.Sprintf("new %s: %s", obj.Name(), strings.Join(ts, ", "))
			if n.Unknown {
				s += " unknown"
			}
			pass.Reportf(n.Pos[0], "%s", s)
		}
		return nil, nil
	},
}

func Test(t *testing.T) {
	fixture.Run(t, dump, "a")
}

func TestFacts(t *testing.T) {
	fixture.Run(t, poolcall.Analyzer, "helper")
}
