package flow

import (
	"go/ast"
	"go/token"
)

// An Assign is one place where a function gives a variable a value, or
// may: the identifier ID on the left of an assignment, in a var
// declaration or a range clause, or under &ID or *ID = ....
type Assign struct {
	ID *ast.Ident
	// Rhs is the value given, nil when it is not one expression of its
	// own: one of several results of a call, an operation (x += y), a
	// range key or value, &ID (anything may store through it), *ID = y.
	Rhs ast.Expr
	// Multi is the one right-hand side that gives several values (v, err
	// := f()), nil otherwise; ID receives its value number Index.
	Multi ast.Expr
	Index int
	// Deref is set for *ID = y: what ID points to is overwritten as a
	// whole, ID itself keeps its value.
	Deref bool
}

// EachAssign calls f for each Assign in n, function literals included.
func EachAssign(n ast.Node, f func(Assign)) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				a := Assign{}
				if star, ok := ast.Unparen(l).(*ast.StarExpr); ok {
					l, a.Deref = star.X, true
				}
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				a.ID = id
				switch {
				case a.Deref:
				case len(n.Lhs) == len(n.Rhs) && (n.Tok == token.ASSIGN || n.Tok == token.DEFINE):
					a.Rhs = n.Rhs[i]
				case len(n.Rhs) == 1 && len(n.Lhs) > 1:
					a.Multi, a.Index = n.Rhs[0], i
				}
				f(a)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				a := Assign{ID: id}
				if len(n.Values) == len(n.Names) {
					a.Rhs = n.Values[i]
				}
				f(a)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					f(Assign{ID: id})
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				f(Assign{ID: id})
			}
		}
		return true
	})
}
