// Package flow holds the syntax helpers the poolvet analyzers share to
// follow a local variable through the statements of a function.
//
// They give the statement list a node holds, the statements before a statement, whether a
// node mentions a variable, the enclosing function; the one way to find the
// variable at the root of an expression (Root, RootIdent), to strip
// conversions (Unconvert, StripConversions) and to name a field path below
// a variable (Path); whether a statement list leaves (Leaves, Exits,
// IsPanic); every place a function assigns a variable (EachAssign); and
// Scanner, the event walk the analyzers that follow a Get (getreset,
// dirtydecode) are built on.
package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
)

// StmtList returns the statements n holds directly: the list of a block,
// or the body of a case or select clause; nil for any other node.
func StmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// Preceding returns the statements that come before stmt in its block and
// in each enclosing block of its function, innermost block first: in
// "b.Reset(); if small { Put(b) }" the Reset precedes the Put.
func Preceding(stmt inspector.Cursor) []ast.Stmt {
	var out []ast.Stmt
	for c := stmt; c.Valid(); c = c.Parent() {
		switch c.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return out
		}
		p := c.Parent()
		if !p.Valid() {
			break
		}
		for _, s := range StmtList(p.Node()) {
			if s == c.Node() {
				break
			}
			out = append(out, s)
		}
	}
	return out
}

// Leaves reports whether the last statement of list leaves the list for
// good: a return, a branch (break, continue, goto, fallthrough) or a call
// of the builtin panic. It is false for an empty list.
func Leaves(info *types.Info, list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	if _, ok := list[len(list)-1].(*ast.BranchStmt); ok {
		return true
	}
	return Exits(info, list)
}

// Exits reports whether the last statement of list leaves the function:
// a return or a call of the builtin panic.
func Exits(info *types.Info, list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		return IsPanic(info, s.X)
	}
	return false
}

// IsPanic reports whether e is a call of the builtin panic.
func IsPanic(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "panic"
}

// Mentions reports whether an identifier denoting x occurs anywhere in n,
// function literals included.
func Mentions(info *types.Info, n ast.Node, x *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.ObjectOf(id) == x {
			found = true
		}
		return !found
	})
	return found
}

// IsVar reports whether e, parentheses aside, is the identifier x.
func IsVar(info *types.Info, e ast.Expr, x *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.ObjectOf(id) == x
}

// EnclosingBody returns the body of the innermost function declaration or
// literal containing cur, or nil.
func EnclosingBody(cur inspector.Cursor) *ast.BlockStmt {
	_, body := EnclosingFunc(cur)
	return body
}

// EnclosingFunc returns the type and body of the innermost function
// declaration or literal containing cur, or nils.
func EnclosingFunc(cur inspector.Cursor) (*ast.FuncType, *ast.BlockStmt) {
	for e := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch f := e.Node().(type) {
		case *ast.FuncDecl:
			return f.Type, f.Body
		case *ast.FuncLit:
			return f.Type, f.Body
		}
	}
	return nil, nil
}

// Unconvert returns e without the parentheses and type conversions around
// it: x for x, (x), T(x), any(T(x)). Conversions to interfaces count.
func Unconvert(info *types.Info, e ast.Expr) ast.Expr {
	e, _ = StripConversions(info, e)
	return e
}

// StripConversions returns e without the parentheses and type conversions
// around it (as Unconvert does), and reports whether one of them converts
// to a concrete type other than its operand's: true for (*[8]byte)(b),
// false for any(b) or T(b) where b already has type T.
func StripConversions(info *types.Info, e ast.Expr) (ast.Expr, bool) {
	changes := false
	for {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return e, changes
		}
		tv, ok := info.Types[call.Fun]
		if !ok || !tv.IsType() {
			return e, changes
		}
		if !types.IsInterface(tv.Type) && !types.Identical(tv.Type, info.TypeOf(call.Args[0])) {
			changes = true
		}
		e = call.Args[0]
	}
}

// RootIdent returns the identifier at the root of the expression e, which
// denotes a variable or a part of one: x for x, &x, *x, x.f, x[i], x[a:b],
// T(x) and any combination of them (parentheses aside); V for the
// qualified package variable pkg.V. It returns nil for anything else:
// calls, receives (<-ch), literals, arithmetic.
func RootIdent(info *types.Info, e ast.Expr) *ast.Ident {
	for {
		e = Unconvert(info, e)
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel != nil {
				if sel.Kind() != types.FieldVal {
					return nil // a method value
				}
				e = x.X
				continue
			}
			if _, ok := info.Uses[x.Sel].(*types.Var); ok {
				return x.Sel // pkg.V
			}
			return nil
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// Root returns the variable at the root of e (see RootIdent), or nil.
func Root(info *types.Info, e ast.Expr) *types.Var {
	id := RootIdent(info, e)
	if id == nil {
		return nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	return v
}

// Path returns the field path of e below the variable x: "" for x or *x,
// ".f.g" for x.f.g or (*x).f.g; ok is false when e is not such a path
// (an index, a call, another variable).
func Path(info *types.Info, e ast.Expr, x *types.Var) (path string, ok bool) {
	var parts []string
	for {
		switch v := ast.Unparen(e).(type) {
		case *ast.Ident:
			if info.ObjectOf(v) != x {
				return "", false
			}
			var b strings.Builder
			for i := len(parts) - 1; i >= 0; i-- {
				b.WriteString("." + parts[i])
			}
			return b.String(), true
		case *ast.StarExpr:
			e = v.X
		case *ast.SelectorExpr:
			sel := info.Selections[v]
			if sel == nil || sel.Kind() != types.FieldVal {
				return "", false
			}
			parts = append(parts, v.Sel.Name)
			e = v.X
		default:
			return "", false
		}
	}
}
