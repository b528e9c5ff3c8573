// Package flow holds the small syntax helpers the poolvet analyzers use to
// follow a local variable through the statements of a function: the
// statement list a node holds, the statements before a statement, whether a
// node mentions a variable, and the body of the enclosing function.
package flow

import (
	"go/ast"
	"go/types"

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
	for e := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch f := e.Node().(type) {
		case *ast.FuncDecl:
			return f.Body
		case *ast.FuncLit:
			return f.Body
		}
	}
	return nil
}

// Unconvert returns e without the parentheses and type conversions around
// it: x for x, (x), T(x), any(T(x)). Conversions to interfaces count.
func Unconvert(info *types.Info, e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	for {
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return e
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
			return e
		}
		e = ast.Unparen(call.Args[0])
	}
}
