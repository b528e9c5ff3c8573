package flow_test

import (
	"fmt"
	"go/types"
	"slices"
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
)

const assignSrc = `package p

func two() (int, error) { return 0, nil }

func f(xs []int) {
	a := 1
	var b, c = 2, 3
	var d int
	e, err := two()
	a += e
	for i, x := range xs {
		_, _ = i, x
	}
	p := &d
	*p = 4
	func() { b = 5 }()
	_, _, _, _ = b, c, err, p
}
`

// TestEachAssign lists what EachAssign reports for f, in order.
func TestEachAssign(t *testing.T) {
	f, _ := check(t, assignSrc)
	var got []string
	flow.EachAssign(f.Decls[1], func(a flow.Assign) {
		if a.ID.Name == "_" {
			return
		}
		s := a.ID.Name
		if a.Rhs != nil {
			s += "=" + types.ExprString(a.Rhs)
		}
		if a.Multi != nil {
			s += fmt.Sprintf(" of %d", a.Index)
		}
		if a.Deref {
			s += " deref"
		}
		got = append(got, s)
	})
	want := []string{"a=1", "b=2", "c=3", "d", "e of 0", "err of 1", "a", "i", "x", "p=&d", "d", "p deref", "b=5"}
	if !slices.Equal(got, want) {
		t.Errorf("EachAssign gave\n%q\nwant\n%q", got, want)
	}
}
