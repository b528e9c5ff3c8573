package flow_test

import (
	"go/ast"
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
)

const leavesSrc = `package p

func f(n int) {
	for {
		if n == 0 { return }
		if n == 1 { break }
		if n == 2 { panic("two") }
		if n == 3 { n++ }
		if n == 4 {}
		if n == 5 { panic := func(string) {}; panic("shadowed") }
	}
}
`

// TestLeavesAndExits checks each if body of f: which leave their list,
// which leave the function.
func TestLeavesAndExits(t *testing.T) {
	f, info := check(t, leavesSrc)
	loop := f.Decls[0].(*ast.FuncDecl).Body.List[0].(*ast.ForStmt)
	want := []struct{ leaves, exits bool }{
		{true, true},   // return
		{true, false},  // break
		{true, true},   // panic
		{false, false}, // n++
		{false, false}, // empty
		{false, false}, // a local func named panic
	}
	for i, s := range loop.Body.List {
		list := s.(*ast.IfStmt).Body.List
		if got := flow.Leaves(info, list); got != want[i].leaves {
			t.Errorf("if body %d: Leaves = %v, want %v", i, got, want[i].leaves)
		}
		if got := flow.Exits(info, list); got != want[i].exits {
			t.Errorf("if body %d: Exits = %v, want %v", i, got, want[i].exits)
		}
	}
}
