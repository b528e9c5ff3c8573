package useafterput

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

// checkBefore reports aliases of x handed to another goroutine in the
// statements that lead to the Put at stmt: sent on a channel, or used by a
// goroutine started there, with nothing joining that goroutine (a receive,
// a Wait call, a select) between the hand-off and the Put.
func checkBefore(pass *analysis.Pass, put putInfo, x *types.Var, stmt inspector.Cursor) {
	body := flow.EnclosingBody(stmt)
	if body == nil {
		return
	}
	info := pass.TypesInfo
	c := put.c
	line := pass.Fset.Position(c.Pos()).Line
	pre := flow.Preceding(stmt)
	handsOn := false
	for _, s := range pre {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt, *ast.GoStmt:
				handsOn = true
			case *ast.CallExpr:
				if arg, _ := httpSends(info, n); arg != nil {
					handsOn = true
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					handsOn = handsOn || outlives(info, l, body)
				}
			}
			return !handsOn
		})
	}
	if !handsOn {
		return
	}
	al := newAliaser(info, x, body, put.drops)
	joins := joinPositions(info, body)
	// pooled says whether e is x, or memory x keeps, and names it.
	pooled := func(e ast.Expr) (string, bool) {
		switch k := al.kind(e); {
		case k == self:
			return x.Name(), true
		case k == strong && al.retained(put.opaque, e):
			return "memory of " + x.Name(), true
		}
		return "", false
	}
	for _, s := range pre {
		switch s.(type) {
		case *ast.CaseClause, *ast.CommClause:
			continue // another case of the switch or select: not on the way
		}
		// A hand-off in a branch of s, and a Put in a branch of its own
		// (if hijacked { go serve(ctx) } ... if !hijacked { Put(ctx) }):
		// the two are most likely exclusive.
		putGuarded := guardedAfter(stmt, s.End())
		var stack []ast.Node
		ast.Inspect(s, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			stack = append(stack, n)
			descend := true
			switch n := n.(type) {
			case *ast.FuncLit:
				descend = false
			case *ast.BlockStmt:
				descend = !flow.Exits(info, n.List)
			case *ast.CaseClause:
				descend = !flow.Exits(info, n.Body)
			case *ast.CommClause:
				descend = !flow.Exits(info, n.Body)
			case *ast.SendStmt:
				if putGuarded && branched(stack) {
					break
				}
				what, ok := pooled(n.Value)
				if !ok || joinedBetween(joins, n.End(), c.Pos()) {
					break
				}
				pass.Report(analysis.Diagnostic{Pos: n.Pos(), End: n.End(),
					Message: fmt.Sprintf("sends %s on a channel before the Put on line %d puts %s back into %s (the receiver may still be using it)",
						what, line, x.Name(), c.PoolName)})
			case *ast.AssignStmt:
				if putGuarded && branched(stack) || len(n.Lhs) != len(n.Rhs) {
					break
				}
				for i, l := range n.Lhs {
					if !outlives(info, l, body) || al.kind(l) != none || isSink(info, l) {
						continue // b.B = b.B[:0] keeps b's memory in b; sink = v defeats the optimizer
					}
					what, ok := pooled(n.Rhs[i])
					if !ok || droppedBetween(info, l, body, n.End(), c.Pos()) {
						continue
					}
					pass.Report(analysis.Diagnostic{Pos: n.Pos(), End: n.End(),
						Message: fmt.Sprintf("stores %s in %s, which outlives the Put on line %d that puts %s back into %s",
							what, types.ExprString(l), line, x.Name(), c.PoolName)})
				}
			case *ast.CallExpr:
				if putGuarded && branched(stack) {
					break
				}
				reportHTTPBody(pass, al, put, x, n, "Put", line)
			case *ast.GoStmt:
				descend = false
				if putGuarded && branched(stack) {
					break
				}
				if al.goUses(n, put) && !joinedBetween(joins, n.End(), c.Pos()) {
					reportGo(pass, n, x, c, "Put", line)
				}
			}
			if !descend {
				stack = stack[:len(stack)-1]
			}
			return descend
		})
	}
}

// httpSends returns the argument of call that the net/http transport may
// still read after the call returns, and the call's name: the request of
// Client.Do and RoundTrip, the body of Post. Their documentation: the
// transport closes the body "asynchronously after Do returns", and a
// RoundTripper "may do so in a separate goroutine even after RoundTrip
// returns".
func httpSends(info *types.Info, call *ast.CallExpr) (ast.Expr, string) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "net/http" {
		return nil, ""
	}
	switch fn.FullName() {
	case "(*net/http.Client).Do", "(*net/http.Transport).RoundTrip", "(net/http.RoundTripper).RoundTrip":
		if len(call.Args) == 1 {
			return call.Args[0], fn.Name()
		}
	case "(*net/http.Client).Post", "net/http.Post":
		if len(call.Args) == 3 {
			return call.Args[2], fn.Name()
		}
	}
	return nil, ""
}

// reportHTTPBody reports call when it sends x, or memory of x, as the
// body of an HTTP request before the Put (which) on line puts x back:
// the transport may still be reading the body when the Put hands x to
// its next user.
func reportHTTPBody(pass *analysis.Pass, al *aliaser, put putInfo, x *types.Var, call *ast.CallExpr, which string, line int) {
	arg, name := httpSends(pass.TypesInfo, call)
	if arg == nil {
		return
	}
	what := ""
	switch k := al.kind(arg); {
	case k == self:
		what = x.Name()
	case k == strong && al.retained(put.opaque, arg):
		what = "memory of " + x.Name()
	default:
		return
	}
	pass.Report(analysis.Diagnostic{Pos: call.Pos(), End: call.End(),
		Message: fmt.Sprintf("sends %s as an HTTP request body, which the %s on line %d hands back to %s (the transport may read it after %s returns)",
			what, which, line, put.c.PoolName, name)})
}

// isSink reports whether l is rooted at a package variable named as a
// benchmark sink (sink, sinkObject, allocSink): a store meant only to keep
// the compiler from optimising the value away.
func isSink(info *types.Info, l ast.Expr) bool {
	v := flow.Root(info, l)
	return v != nil && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() && strings.Contains(strings.ToLower(v.Name()), "sink")
}

// droppedBetween reports whether, between from and to in body, the place
// l is assigned again (s.cur = nil) or deleted from its map (delete(m, k)
// for l = m[k]): the store no longer holds the pooled value at the Put.
func droppedBetween(info *types.Info, l ast.Expr, body ast.Node, from, to token.Pos) bool {
	want := types.ExprString(l)
	var mapExpr string
	if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
		if _, isMap := info.TypeOf(ix.X).Underlying().(*types.Map); isMap {
			mapExpr = types.ExprString(ix.X)
		}
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || n.End() <= from || n.Pos() >= to {
			return !found && n != nil && !(n.End() <= from || n.Pos() >= to)
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l2 := range n.Lhs {
				if types.ExprString(l2) == want {
					found = true
				}
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "delete" && mapExpr != "" && len(n.Args) == 2 && types.ExprString(n.Args[0]) == mapExpr {
				found = true
			}
		}
		return !found
	})
	return found
}

// branched reports whether the innermost node of stack lies in a branch
// of an if, switch or select below the stack's root.
func branched(stack []ast.Node) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.IfStmt:
			if c := stack[i+1]; c == ast.Node(p.Body) || c == p.Else {
				return true
			}
		case *ast.CaseClause, *ast.CommClause:
			return true
		}
	}
	return false
}

// guardedAfter reports whether the statement at stmt is inside a branch of
// an if, switch or select that begins after pos.
func guardedAfter(stmt inspector.Cursor, pos token.Pos) bool {
	for c := stmt.Parent(); c.Valid(); c = c.Parent() {
		switch c.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt, *ast.CaseClause, *ast.CommClause:
			if c.Node().Pos() > pos {
				return true
			}
		}
	}
	return false
}

func reportGo(pass *analysis.Pass, g *ast.GoStmt, x *types.Var, c *poolcall.Call, which string, line int) {
	pass.Report(analysis.Diagnostic{Pos: g.Pos(), End: g.Call.Fun.End(),
		Message: fmt.Sprintf("the goroutine started here uses %s, which the %s on line %d puts back into %s without waiting for it",
			x.Name(), which, line, c.PoolName)})
}

// goUses reports whether the goroutine started by g uses x or one of its
// aliases, in its arguments or its closure, and does not put x back
// itself (then it owns x).
func (a *aliaser) goUses(g *ast.GoStmt, put putInfo) bool {
	uses := flow.Mentions(a.info, g.Call, a.x)
	if !uses {
		for v := range a.vars {
			if tv, ok := v.(*types.Var); ok && a.retained(put.opaque, a.origin[v]) && flow.Mentions(a.info, g.Call, tv) {
				uses = true
				break
			}
		}
	}
	if !uses {
		return false
	}
	owns := false
	ast.Inspect(g.Call, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if pc := put.pc.ByCall[call]; pc != nil && pc.Op == poolcall.Put && pc.Value != nil && flow.Mentions(a.info, pc.Value, a.x) {
				owns = true
			}
		}
		return !owns
	})
	return !owns
}

// joinPositions returns, in source order, where body (outside function
// literals) waits for another goroutine: a receive, a range over a
// channel, a select, a call of a method named Wait (sync.WaitGroup,
// errgroup.Group, exec.Cmd).
func joinPositions(info *types.Info, body *ast.BlockStmt) []token.Pos {
	var out []token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				out = append(out, n.Pos())
			}
		case *ast.SelectStmt:
			out = append(out, n.Pos())
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					out = append(out, n.Pos())
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				out = append(out, n.Pos())
			}
		}
		return true
	})
	return out
}

// joinedBetween reports whether one of joins lies in [from, to).
func joinedBetween(joins []token.Pos, from, to token.Pos) bool {
	for _, p := range joins {
		if p.IsValid() && p >= from && p < to {
			return true
		}
	}
	return false
}

// addHolders records the local variables of the function (named results
// included) a field or element of which is assigned memory of x: m.Body =
// b.Bytes() makes m carry that memory wherever it goes.
func (a *aliaser) addHolders(body *ast.BlockStmt, ftype *ast.FuncType) {
	info := a.info
	local := func(v *types.Var) bool {
		if v == a.x || v.IsField() {
			return false
		}
		if v.Pos() >= body.Pos() && v.Pos() < body.End() {
			return true
		}
		return ftype != nil && ftype.Results != nil && v.Pos() >= ftype.Results.Pos() && v.Pos() < ftype.Results.End()
	}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if _, isIdent := ast.Unparen(l).(*ast.Ident); isIdent {
				continue
			}
			v := flow.Root(info, l)
			if v == nil || !local(v) {
				continue
			}
			if a.kind(as.Rhs[i]) >= strong && a.retained(false, as.Rhs[i]) {
				if a.holders == nil {
					a.holders = map[types.Object]bool{}
				}
				a.holders[v] = true
			}
		}
		return true
	})
}

// keeps reports whether the call builds a value that keeps one of its
// arguments, x or memory of it: a constructor (New..., new...) or an io
// wrapper given the buffer, returning a pointer or an interface other than
// error, such as http.NewRequest(method, url, buf), bytes.NewReader(b.Bytes()),
// json.NewDecoder(buf).
func (a *aliaser) keeps(call *ast.CallExpr, fn *types.Func) bool {
	if fn == nil {
		return false
	}
	name := fn.Name()
	if !strings.HasPrefix(strings.ToLower(name), "new") && !ioWrapper[fn.FullName()] {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	if res.Len() == 0 {
		return false
	}
	switch t := res.At(0).Type(); t.Underlying().(type) {
	case *types.Pointer:
	case *types.Interface:
		if types.Identical(t, types.Universe.Lookup("error").Type()) {
			return false
		}
	default:
		return false
	}
	for _, arg := range call.Args {
		if a.kind(arg) >= strong {
			return true
		}
	}
	return false
}

// ioWrapper lists functions that are not named New... but keep the reader
// or writer they are given.
var ioWrapper = map[string]bool{
	"io.TeeReader":   true,
	"io.MultiReader": true,
	"io.MultiWriter": true,
	"io.LimitReader": true,
	"io.NopCloser":   true,
}

// keeperName returns the function origin calls if x or an alias reaches
// it as an argument of a keeping call (see keeps), or "".
func (a *aliaser) keeperName(origin ast.Expr) string {
	call, ok := ast.Unparen(origin).(*ast.CallExpr)
	if !ok {
		return ""
	}
	if fn := staticCallee(a.info, call); fn != nil && a.keeps(call, fn) {
		return types.ExprString(call.Fun)
	}
	return ""
}

// checkFieldPut reports uses of a field after it, or its address, was put
// back: after Put(&c.buf) the pool owns the field's storage, so c.buf =
// nil writes into a pooled object; after Put(f.payload), f.payload.Len()
// reads a value someone else may hold. Assigning the field (when its value,
// not its address, was put) or the variable ends the check.
func checkFieldPut(pass *analysis.Pass, ins *inspector.Inspector, c *poolcall.Call) {
	info := pass.TypesInfo
	v := flow.Unconvert(info, c.Value)
	addr := false
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		addr, v = true, ast.Unparen(u.X)
	}
	sel, ok := v.(*ast.SelectorExpr)
	if !ok {
		return
	}
	root := flow.Root(info, sel)
	if root == nil {
		return
	}
	path, ok := flow.Path(info, sel, root)
	if !ok || path == "" {
		return
	}
	if t := info.TypeOf(sel); t == nil || (!addr && !mayShare(t, 0)) {
		return
	}
	cur, ok := poolcall.Find(ins, c)
	if !ok {
		return
	}
	stmt := cur.Parent()
	if _, ok := stmt.Node().(*ast.ExprStmt); !ok {
		return
	}
	list := flow.StmtList(stmt.Parent().Node())
	i := indexOf(list, stmt.Node())
	if i < 0 {
		return
	}
	var (
		found ast.Node
		stop  bool
	)
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found != nil || stop {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				ast.Inspect(r, visit)
			}
			for _, l := range n.Lhs {
				if found != nil {
					return false
				}
				if flow.IsVar(info, l, root) {
					stop = true
					return false
				}
				if p, ok := flow.Path(info, l, root); ok && p == path && !addr {
					stop = true // the field is given a new value
					return false
				}
				ast.Inspect(l, visit)
			}
			return false
		case *ast.BinaryExpr:
			if !addr && (n.Op == token.EQL || n.Op == token.NEQ) {
				for _, side := range []ast.Expr{n.X, n.Y} {
					if p, ok := flow.Path(info, side, root); !ok || p != path {
						ast.Inspect(side, visit)
					}
				}
				return false
			}
		case *ast.CallExpr:
			// As for variables: len, cap and unsafe.SliceData read the
			// header we still hold, and t.Fatalf reports identities.
			if !addr && len(n.Args) == 1 && headerOnly(info, n) {
				if p, ok := flow.Path(info, n.Args[0], root); ok && p == path {
					return false
				}
			}
			if fn := staticCallee(info, n); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "testing" {
				return false
			}
		case *ast.SelectorExpr, *ast.StarExpr:
			if p, ok := flow.Path(info, n.(ast.Expr), root); ok {
				if p == path || strings.HasPrefix(p, path+".") {
					found = n
				}
				return false
			}
		}
		return true
	}
	for _, s := range list[i+1:] {
		ast.Inspect(s, visit)
		if found != nil {
			name := types.ExprString(sel)
			what := "it"
			if addr {
				what = "&" + name
			}
			pass.Report(analysis.Diagnostic{Pos: found.Pos(), End: found.End(),
				Message: fmt.Sprintf("%s is used after %s was put back into %s on line %d",
					types.ExprString(found.(ast.Expr)), what, c.PoolName, pass.Fset.Position(c.Pos()).Line)})
			return
		}
		if stop {
			return
		}
	}
}
