package useafterput

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/analyzer"
	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

// Analyzer reports pooled values, and memory aliasing them, used after
// they were put back into their pool.
var Analyzer = analyzer.New("useafterput", doc, run)

func run(pass *analysis.Pass, pc *poolcall.Info, ins *inspector.Inspector) (any, error) {
	var dr *drops
	for _, c := range pc.Calls {
		if c.Op != poolcall.Put || c.Value == nil {
			continue
		}
		x := putVar(pass.TypesInfo, c.Value)
		if x == nil {
			checkFieldPut(pass, ins, c)
			continue
		}
		if !isAddr(pass.TypesInfo, c.Value) && !mayShare(x.Type(), 0) {
			continue // Put(v) of a plain value stores a copy: v stays ours
		}
		cur, ok := poolcall.Find(ins, c)
		if !ok {
			continue
		}
		if dr == nil {
			dr = newDrops(pass)
		}
		// A Put through a wrapper from another package may drop fields
		// we cannot see.
		opaque := c.Wrapper != nil && (pc.Wrappers[c.Wrapper] == nil || pc.Wrappers[c.Wrapper].Decl == nil)
		put := putInfo{c, opaque, dr, pc}
		switch parent := cur.Parent(); p := parent.Node().(type) {
		case *ast.DeferStmt:
			if ftype, body := flow.EnclosingFunc(parent); body != nil {
				checkDeferred(pass, put, x, p, ftype, body)
			}
		case *ast.ExprStmt:
			if d, cur := deferredLit(parent); d != nil {
				if ftype, body := flow.EnclosingFunc(cur); body != nil {
					checkDeferred(pass, put, x, d, ftype, body)
				}
				continue
			}
			checkAfter(pass, put, x, parent)
			checkBefore(pass, put, x, parent)
		}
	}
	return nil, nil
}

// putVar returns the local variable handed to a Put: x in Put(x), Put(&x),
// Put(any(x)) or Put(x[:n]) of a slice x. It returns nil for anything else.
func putVar(info *types.Info, v ast.Expr) *types.Var {
	v = flow.Unconvert(info, v)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = flow.Unconvert(info, u.X)
	}
	if sl, ok := v.(*ast.SliceExpr); ok {
		if _, isSlice := info.TypeOf(sl.X).Underlying().(*types.Slice); isSlice {
			v = flow.Unconvert(info, sl.X) // Put(m[:n]) hands back m's memory
		}
	}
	id, ok := v.(*ast.Ident)
	if !ok {
		return nil
	}
	x, ok := info.ObjectOf(id).(*types.Var)
	if !ok || x.IsField() || x.Pkg() == nil || x.Parent() == nil || x.Parent() == x.Pkg().Scope() {
		return nil
	}
	return x
}

// isAddr reports whether e is &x (possibly converted: any(&x)).
func isAddr(info *types.Info, e ast.Expr) bool {
	u, ok := flow.Unconvert(info, e).(*ast.UnaryExpr)
	return ok && u.Op == token.AND
}

// mayShare reports whether a copy of a value of type t can share memory
// with the original: t is or holds a pointer, slice, map, channel, function
// or interface.
func mayShare(t types.Type, depth int) bool {
	return anyPart(t, depth, true, func(t types.Type) bool {
		b, ok := t.Underlying().(*types.Basic)
		return !ok || b.Kind() == types.UnsafePointer
	})
}

// anyPart reports whether leaf holds for t or, through arrays and
// structs, for one of its elements or fields; past a depth of 8 it
// answers deep.
func anyPart(t types.Type, depth int, deep bool, leaf func(types.Type) bool) bool {
	if depth > 8 {
		return deep
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		return anyPart(u.Elem(), depth+1, deep, leaf)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if anyPart(u.Field(i).Type(), depth+1, deep, leaf) {
				return true
			}
		}
		return false
	}
	return leaf(t)
}

// deferredLit recognises a Put inside "defer func() { ... }()": it returns
// the defer statement and the cursor of the call running the literal.
func deferredLit(stmt inspector.Cursor) (*ast.DeferStmt, inspector.Cursor) {
	for e := range stmt.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		lit, ok := e.Node().(*ast.FuncLit)
		if !ok {
			break
		}
		call, ok := e.Parent().Node().(*ast.CallExpr)
		if !ok || ast.Unparen(call.Fun) != lit {
			break
		}
		d, ok := e.Parent().Parent().Node().(*ast.DeferStmt)
		if !ok || d.Call != call {
			break
		}
		return d, e.Parent()
	}
	return nil, inspector.Cursor{}
}

// putInfo is a Put being checked.
type putInfo struct {
	c      *poolcall.Call
	opaque bool // through a wrapper whose body we cannot see
	drops  *drops
	pc     *poolcall.Info
}

// checkAfter reports uses of x, or of variables aliasing it, in the
// statements that follow the Put in the same statement list.
func checkAfter(pass *analysis.Pass, put putInfo, x *types.Var, stmt inspector.Cursor) {
	list := flow.StmtList(stmt.Parent().Node())
	i := indexOf(list, stmt.Node())
	body := flow.EnclosingBody(stmt)
	if i < 0 || body == nil {
		return
	}
	info := pass.TypesInfo
	al := newAliaser(info, x, body, put.drops)
	live := map[types.Object]bool{x: true}
	for v := range al.vars {
		if al.retained(put.opaque, al.origin[v]) {
			live[v] = true
		} // else it aliases memory the pool no longer holds
	}
	sc := &afterScan{info: info, pc: put.pc, x: x, live: live, regot: map[types.Object]bool{}}
	for cur := stmt; ; {
		after := list[i+1:]
		for _, s := range after {
			sc.scan(s)
			if sc.found != nil {
				if !inspectsRelease(pass, stmt, after, sc.live) {
					reportUse(pass, put, al, sc.found)
				}
				return
			}
			if sc.stop || !sc.live[x] {
				return
			}
		}
		if flow.Leaves(info, list) {
			return
		}
		// Go on after the branch or block holding the Put:
		// "if short { Put(m[:n]) }; use(m)" uses m after the Put.
		var ok bool
		if cur, ok = enclosingStmt(cur); !ok {
			return
		}
		sc.outside = true
		list = flow.StmtList(cur.Parent().Node())
		if i = indexOf(list, cur.Node()); i < 0 {
			return
		}
	}
}

// enclosingStmt returns the if, switch, select or block statement whose
// branch or body holds stmt, for the statements after it to run after
// stmt. It returns false for a loop body or a function body, and for
// anything else.
func enclosingStmt(stmt inspector.Cursor) (inspector.Cursor, bool) {
	c := stmt.Parent()
	switch c.Node().(type) {
	case *ast.CaseClause, *ast.CommClause:
		c = c.Parent().Parent() // the clause, the body, the switch or select
		switch c.Node().(type) {
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		default:
			return c, false
		}
	case *ast.BlockStmt:
		switch c.Parent().Node().(type) {
		case *ast.IfStmt:
			c = c.Parent()
			for {
				if _, elseOf := c.Parent().Node().(*ast.IfStmt); !elseOf {
					break
				}
				c = c.Parent() // if a {} else if b { Put } : after the outer if
			}
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
			// a bare block, a statement of a list
		default:
			return c, false
		}
	default:
		return c, false
	}
	if flow.StmtList(c.Parent().Node()) == nil {
		return c, false
	}
	return c, true
}

// afterScan looks for the first use of a live variable in the statements
// after a Put.
type afterScan struct {
	info  *types.Info
	pc    *poolcall.Info
	x     *types.Var
	live  map[types.Object]bool // x and its aliases, until reassigned
	found *ast.Ident            // the first use
	stop  bool                  // the check is over: x was reassigned, or taken back
	// regot holds the variables assigned a Get after the Put: comparing
	// one with x (again != s) tests whether the pool handed x back.
	regot map[types.Object]bool
	// outside is set once the scan has left the branch holding the Put:
	// a branch after it may be guarded by a condition the Put's branch
	// rules out, so only uses outside branches and loop bodies count
	// (the branches still decide what stays live).
	outside bool
	muted   int // > 0 inside such a branch: uses are not reported
}

// scan looks at one statement: an assignment kills the live variables it
// assigns (after its right-hand side is checked), and the init statement
// of an if, switch or for runs first, so "if v = p.Get(); v != nil" starts
// over with a fresh v. The branches of an if, switch or select, and the
// body of a loop, are scanned each from the state before them; a variable
// is live after them when it is live at the end of any of them (or they
// may all be skipped). Anything else is checked whole.
func (sc *afterScan) scan(n ast.Node) {
	if sc.found != nil || sc.stop || n == nil {
		return
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		sc.assign(n)
	case *ast.BlockStmt:
		sc.list(n.List)
	case *ast.LabeledStmt:
		sc.scan(n.Stmt)
	case *ast.IfStmt:
		sc.head(n.Init, n.Cond)
		if sc.retaken(n.Cond) {
			sc.stop = true
		}
		sc.branches(n.Else == nil, n.Body, n.Else)
	case *ast.SwitchStmt:
		sc.head(n.Init, n.Tag)
		sc.clauses(n.Body)
	case *ast.TypeSwitchStmt:
		sc.head(n.Init, n.Assign)
		sc.clauses(n.Body)
	case *ast.SelectStmt:
		sc.clauses(n.Body)
	case *ast.ForStmt:
		sc.head(n.Init, n.Cond)
		// The body then the post statement, or neither.
		sc.branches(true, &ast.BlockStmt{List: []ast.Stmt{n.Body, n.Post}})
	case *ast.RangeStmt:
		sc.check(n.X)
		sc.branches(true, n.Body)
	default:
		sc.check(n)
	}
}

// head looks at the header of an if, switch or for: its init statement
// first, then its condition, tag or type switch guard.
func (sc *afterScan) head(init ast.Stmt, cond ast.Node) {
	sc.scan(init)
	sc.check(cond)
}

// check looks for a use anywhere in n.
func (sc *afterScan) check(n ast.Node) {
	if sc.found == nil && !sc.stop && n != nil && sc.muted == 0 {
		sc.found = firstUse(sc.info, n, sc.live)
	}
}

func (sc *afterScan) list(list []ast.Stmt) {
	for _, s := range list {
		sc.scan(s)
	}
}

// branches scans the alternatives ns (nil ones are empty: an absent else),
// each from the current state, and leaves the union of their live sets;
// skippable adds the state before them as one more alternative (an if
// without else, a loop run zero times).
func (sc *afterScan) branches(skippable bool, ns ...ast.Node) {
	before := maps.Clone(sc.live)
	out := map[types.Object]bool{}
	if skippable {
		maps.Copy(out, before)
	}
	var alts []ast.Node
	for _, n := range ns {
		if n != nil {
			alts = append(alts, n)
		}
	}
	if sc.outside {
		sc.muted++
		defer func() { sc.muted-- }()
	}
	for i, n := range alts {
		if i > 0 {
			sc.live = maps.Clone(before)
		}
		sc.scan(n)
		if sc.found != nil || sc.stop {
			return
		}
		maps.Copy(out, sc.live)
	}
	sc.live = out
}

// clauses scans the case or comm clauses of a switch or select body as
// alternatives.
func (sc *afterScan) clauses(body *ast.BlockStmt) {
	var alts []ast.Node
	hasDefault := false
	for _, c := range body.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			for _, e := range c.List {
				sc.check(e)
			}
			hasDefault = hasDefault || c.List == nil
			alts = append(alts, &ast.BlockStmt{List: c.Body})
		case *ast.CommClause:
			hasDefault = hasDefault || c.Comm == nil
			alts = append(alts, &ast.BlockStmt{List: append([]ast.Stmt{c.Comm}, c.Body...)})
		}
	}
	sc.branches(!hasDefault, alts...)
}

// retaken reports whether cond compares a live variable with one assigned
// a Get after the Put (if again != s { t.Skip() }): the code checks
// whether the pool handed the value back, and uses it as its own again.
func (sc *afterScan) retaken(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
			return !found
		}
		x, y := sc.varOf(b.X), sc.varOf(b.Y)
		if (sc.live[x] && sc.regot[y]) || (sc.live[y] && sc.regot[x]) {
			found = true
		}
		return !found
	})
	return found
}

func (sc *afterScan) varOf(e ast.Expr) types.Object {
	if id, ok := flow.Unconvert(sc.info, e).(*ast.Ident); ok {
		return sc.info.ObjectOf(id)
	}
	return nil
}

// assign checks the right-hand sides, then the left-hand sides of an
// assignment: a live variable assigned is dead from here on; a variable
// assigned a Get is noted in regot.
func (sc *afterScan) assign(n *ast.AssignStmt) {
	for _, r := range n.Rhs {
		if id := firstUse(sc.info, r, sc.live); id != nil {
			sc.found = id
			return
		}
	}
	for i, l := range n.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok {
			obj := sc.info.ObjectOf(id)
			if len(n.Rhs) == 1 && (i == 0 || len(n.Lhs) == 1) && sc.isGet(n.Rhs[0]) {
				sc.regot[obj] = true
			}
			if sc.live[obj] {
				delete(sc.live, obj)
			}
			continue
		}
		if id := firstUse(sc.info, l, sc.live); id != nil {
			sc.found = id
			return
		}
	}
}

// isGet reports whether e is a Get (through a type assertion too).
func (sc *afterScan) isGet(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.TypeAssertExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			c := sc.pc.ByCall[x]
			return c != nil && c.Op == poolcall.Get
		}
		return false
	}
}

// reportUse reports the use found after the Put, with a fix copying an
// alias out before the Put when it is assigned once.
func reportUse(pass *analysis.Pass, put putInfo, al *aliaser, found *ast.Ident) {
	x, c := al.x, put.c
	line := pass.Fset.Position(c.Pos()).Line
	obj := pass.TypesInfo.ObjectOf(found)
	if obj == x {
		pass.Report(analysis.Diagnostic{Pos: found.Pos(), End: found.End(),
			Message: fmt.Sprintf("%s is used after it was put back into %s on line %d", x.Name(), c.PoolName, line)})
		return
	}
	if keeper := al.keeperName(al.origin[obj]); keeper != "" {
		pass.Report(analysis.Diagnostic{Pos: found.Pos(), End: found.End(),
			Message: fmt.Sprintf("%s keeps %s, which was put back into %s on line %d (passed to %s on line %d)",
				found.Name, x.Name(), c.PoolName, line, keeper, pass.Fset.Position(al.origin[obj].Pos()).Line)})
		return
	}
	d := analysis.Diagnostic{Pos: found.Pos(), End: found.End(),
		Message: fmt.Sprintf("%s aliases %s, which was put back into %s on line %d", found.Name, x.Name(), c.PoolName, line)}
	if origin := al.origin[obj]; origin != nil && al.assigns[obj] == 1 {
		if text := copyOut(pass, origin); text != "" {
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Copy " + found.Name + " out of the pooled value before Put",
				TextEdits: []analysis.TextEdit{{Pos: origin.Pos(), End: origin.End(), NewText: []byte(text)}},
			}}
		}
	}
	pass.Report(d)
}

// firstUse returns the first identifier in e denoting one of live, outside
// function literals, comparisons (p == q compares addresses) and len, cap
// and unsafe.SliceData calls (which read the header, not the memory).
func firstUse(info *types.Info, e ast.Node, live map[types.Object]bool) *ast.Ident {
	var found *ast.Ident
	isLive := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && live[info.ObjectOf(id)]
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				for _, o := range []ast.Expr{n.X, n.Y} {
					if !isLive(o) {
						if id := firstUse(info, o, live); id != nil {
							found = id
						}
					}
				}
				return false
			}
		case *ast.CallExpr:
			if len(n.Args) == 1 && isLive(n.Args[0]) && headerOnly(info, n) {
				return false
			}
			if fn := typeutil.StaticCallee(info, n); fn != nil && fn.Pkg() != nil {
				if fn.Pkg().Path() == "testing" {
					return false // t.Fatalf("got %p, want %p", got, b): a test reporting identities
				}
				if identityAssert(fn) {
					return false // assert.NotNil(t, ce): the pointer, not what it points to
				}
			}
		case *ast.Ident:
			if live[info.ObjectOf(n)] {
				found = n
			}
		}
		return true
	})
	return found
}

// identityAssert reports whether fn is a testify assertion that looks at
// a pointer only: Nil, NotNil, Same, NotSame (and their f forms).
func identityAssert(fn *types.Func) bool {
	path := fn.Pkg().Path()
	if !strings.HasSuffix(path, "testify/assert") && !strings.HasSuffix(path, "testify/require") {
		return false
	}
	switch strings.TrimSuffix(fn.Name(), "f") {
	case "Nil", "NotNil", "Same", "NotSame":
		return true
	}
	return false
}

// headerOnly reports whether call only looks at its argument's header:
// len, cap, unsafe.SliceData, unsafe.StringData.
func headerOnly(info *types.Info, call *ast.CallExpr) bool {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if b, ok := info.Uses[fun].(*types.Builtin); ok {
			return b.Name() == "len" || b.Name() == "cap"
		}
	case *ast.SelectorExpr:
		if b, ok := info.Uses[fun.Sel].(*types.Builtin); ok {
			return b.Name() == "SliceData" || b.Name() == "StringData"
		}
	}
	return false
}

// checkDeferred reports values aliasing x that leave the function (returned,
// sent, stored in a global or through a parameter) while a deferred Put
// hands x back to its pool as the function returns.
func checkDeferred(pass *analysis.Pass, put putInfo, x *types.Var, d *ast.DeferStmt, ftype *ast.FuncType, body *ast.BlockStmt) {
	c := put.c
	info := pass.TypesInfo
	// defer pool.Put(x) hands back the value x held at the defer
	// statement, so a later assignment may make x another value than the
	// one put. A Put that reads the variable when it runs, in a deferred
	// function literal or through its address (Put(&x)), hands back x's
	// last value, whatever was assigned after the defer: returning that
	// value still returns memory the pool owns.
	if assignedAfter(info, x, body, d.End()) && !readsAtRun(info, d, c.Value) {
		return // the Put may concern another value than the one returned
	}
	al := newAliaser(info, x, body, put.drops)
	al.addHolders(body, ftype)
	line := pass.Fset.Position(c.Pos()).Line
	// escapes reports e, which leaves the function at the node at.
	escapes := func(e ast.Expr, at ast.Node, verb string) {
		switch al.kind(e) {
		case self:
			pass.Report(analysis.Diagnostic{
				Pos: at.Pos(), End: at.End(),
				Message: fmt.Sprintf("%s %s, which the deferred Put on line %d hands back to %s (its next user shares it)",
					verb, x.Name(), line, c.PoolName),
			})
		case strong:
			if !al.retained(put.opaque, e) {
				return
			}
			diag := analysis.Diagnostic{
				Pos: at.Pos(), End: at.End(),
				Message: fmt.Sprintf("%s memory of %s, which the deferred Put on line %d hands back to %s (copy it out first)",
					verb, x.Name(), line, c.PoolName),
			}
			if verb == "returns" && at == ast.Node(e) {
				if text := copyOut(pass, e); text != "" {
					diag.SuggestedFixes = []analysis.SuggestedFix{{
						Message:   "Copy the result out of the pooled value",
						TextEdits: []analysis.TextEdit{{Pos: e.Pos(), End: e.End(), NewText: []byte(text)}},
					}}
				}
			}
			pass.Report(diag)
		}
	}
	var joins []token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || n.Pos() < d.End() {
			return n != nil && n.End() > d.End()
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				escapes(r, r, "returns")
			}
			if len(n.Results) == 0 && ftype != nil && ftype.Results != nil {
				for _, f := range ftype.Results.List {
					for _, name := range f.Names {
						escapes(name, n, "returns")
					}
				}
			}
		case *ast.SendStmt:
			escapes(n.Value, n.Value, "sends")
		case *ast.CallExpr:
			reportHTTPBody(pass, al, put, x, n, "deferred Put", line)
		case *ast.GoStmt:
			if joins == nil {
				joins = append(joinPositions(info, body), token.NoPos)
			}
			// A join anywhere after the deferred Put runs before it.
			if al.goUses(n, put) && !joinedBetween(joins, d.End(), body.End()) {
				reportGo(pass, n, x, c, "deferred Put", line)
			}
			return false
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				if outlives(info, l, body) && !undoneByLaterDefer(info, l, body, d) {
					escapes(n.Rhs[i], n.Rhs[i], "stores")
				}
			}
		}
		return true
	})
}

// undoneByLaterDefer reports whether a defer statement of body's own
// statement list, registered after the deferred Put d, assigns the place
// l again or deletes it from its map. Deferred calls run in reverse
// order, so that defer runs before the Put: when the Put runs, l no
// longer holds the pooled value. A defer inside a branch or loop is not
// counted: it is registered only on some paths.
func undoneByLaterDefer(info *types.Info, l ast.Expr, body *ast.BlockStmt, d *ast.DeferStmt) bool {
	for _, st := range body.List {
		later, ok := st.(*ast.DeferStmt)
		if !ok || later.Pos() < d.End() {
			continue
		}
		var undo ast.Node = later.Call
		if lit, ok := ast.Unparen(later.Call.Fun).(*ast.FuncLit); ok {
			undo = lit.Body
		}
		if droppedBetween(info, l, undo, undo.Pos(), undo.End()) {
			return true
		}
	}
	return false
}

// readsAtRun reports whether the deferred Put d reads its variable only
// when it runs: the Put is inside a deferred function literal, or hands
// the pool the variable's address (the value put is v).
func readsAtRun(info *types.Info, d *ast.DeferStmt, v ast.Expr) bool {
	if _, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok {
		return true
	}
	return isAddr(info, v)
}

// outlives reports whether storing into l keeps the value after the
// function returns: l is, or is reached through, a package variable, a
// parameter or the receiver.
func outlives(info *types.Info, l ast.Expr, body *ast.BlockStmt) bool {
	direct := true
	for {
		switch e := ast.Unparen(l).(type) {
		case *ast.Ident:
			v, ok := info.ObjectOf(e).(*types.Var)
			if !ok || v.Pkg() == nil {
				return false
			}
			if v.Parent() == v.Pkg().Scope() {
				return true
			}
			// A parameter or receiver, written through (not reassigned).
			declaredInside := v.Pos() >= body.Pos() && v.Pos() < body.End()
			return !direct && !declaredInside && isPointerLike(v.Type())
		case *ast.SelectorExpr:
			if _, ok := info.Selections[e]; !ok {
				// pkg.Var
				v, ok := info.Uses[e.Sel].(*types.Var)
				return ok && !v.IsField()
			}
			l, direct = e.X, false
		case *ast.StarExpr:
			l, direct = e.X, false
		case *ast.IndexExpr:
			if _, ok := info.TypeOf(e.X).Underlying().(*types.Array); ok {
				l = e.X // an array element is part of the array variable
				continue
			}
			l, direct = e.X, false
		default:
			return false
		}
	}
}

func isPointerLike(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice, *types.Chan, *types.Interface:
		return true
	}
	return false
}

// assignedAfter reports whether x is assigned, or its address taken, after
// pos within body.
func assignedAfter(info *types.Info, x *types.Var, body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.ObjectOf(id) == x
	}
	// &x handed to a decoder writes through x, not to it (unless the
	// input is null, which the seed's code does not expect either).
	decoded := map[ast.Expr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := typeutil.StaticCallee(info, call); fn != nil && decodesInto[fn.FullName()] {
				for _, a := range call.Args {
					decoded[ast.Unparen(a)] = true
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.End() <= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if n.Pos() > pos && is(l) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if n.Pos() > pos && is(n.X) {
				found = true
			}
		case *ast.RangeStmt:
			if n.Pos() > pos && ((n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value))) {
				found = true
			}
		case *ast.UnaryExpr:
			if n.Pos() > pos && n.Op == token.AND && is(n.X) && !decoded[n] {
				found = true
			}
		}
		return true
	})
	return found
}

// decodesInto lists decoders that write through the pointer they are given.
var decodesInto = map[string]bool{
	"encoding/json.Unmarshal":         true,
	"(*encoding/json.Decoder).Decode": true,
	"encoding/xml.Unmarshal":          true,
	"(*encoding/xml.Decoder).Decode":  true,
	"(*encoding/gob.Decoder).Decode":  true,
}

// copyOut returns source text that copies the slice e, or "".
func copyOut(pass *analysis.Pass, e ast.Expr) string {
	t := pass.TypesInfo.TypeOf(e)
	if t == nil {
		return ""
	}
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return ""
	}
	src := types.ExprString(e)
	basic, ok := types.Unalias(sl.Elem()).(*types.Basic)
	if !ok {
		return ""
	}
	if basic.Kind() == types.Byte || basic.Kind() == types.Uint8 {
		return "append([]byte(nil), " + src + "...)"
	}
	return "append([]" + basic.Name() + "(nil), " + src + "...)"
}

func indexOf(list []ast.Stmt, n ast.Node) int {
	for i, s := range list {
		if s == n {
			return i
		}
	}
	return -1
}

// Alias kinds, from weakest to strongest.
const (
	none   = iota
	weak   // a pointer field of the pooled value: aliases only through what it points to
	strong // memory owned by the pooled value: a slice of it, a field slice, Bytes()
	self   // the pooled value itself
)

// aliaser classifies expressions by how they alias one pooled variable.
type aliaser struct {
	info    *types.Info
	x       *types.Var
	vars    map[types.Object]bool     // local variables only ever assigned memory of x
	origin  map[types.Object]ast.Expr // what each of vars is assigned
	assigns map[types.Object]int      // how many times each of vars is assigned
	drops   *drops
	holders map[types.Object]bool // locals holding memory of x in a field (addHolders)
}

func newAliaser(info *types.Info, x *types.Var, body *ast.BlockStmt, d *drops) *aliaser {
	a := &aliaser{info: info, x: x, vars: map[types.Object]bool{}, origin: map[types.Object]ast.Expr{}, assigns: map[types.Object]int{}, drops: d}
	// Candidates: locals assigned a strong alias of x somewhere; drop those
	// also assigned anything else. Repeat, for aliases of aliases.
	for changed := true; changed; {
		changed = false
		good, bad := map[types.Object]bool{}, map[types.Object]bool{}
		clear(a.assigns)
		record := func(obj types.Object, rhs ast.Expr) {
			v, ok := obj.(*types.Var)
			if !ok || v == x || v.Parent() == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
				return
			}
			a.assigns[v]++
			if rhs != nil && a.kind(rhs) >= strong && a.kind(rhs) != self {
				good[v] = true
				if a.origin[v] == nil {
					a.origin[v] = rhs
				}
			} else {
				bad[v] = true
			}
		}
		flow.EachAssign(body, func(as flow.Assign) {
			if as.Deref {
				return // *v = y: v keeps pointing where it did
			}
			rhs := as.Rhs
			if as.Multi != nil && as.Index == 0 && a.keeperName(as.Multi) != "" {
				rhs = as.Multi // req, err := http.NewRequest(..., buf)
			}
			record(info.ObjectOf(as.ID), rhs)
		})
		for v := range good {
			if !bad[v] && !a.vars[v] {
				a.vars[v] = true
				changed = true
			}
		}
		for v := range a.vars {
			if bad[v] {
				delete(a.vars, v)
				changed = true
			}
		}
	}
	return a
}

// drops records, for the whole package, which struct fields are dropped
// (assigned nil or a composite literal: x.f = nil, x.sink = sink{}) and
// which struct types are zeroed through a pointer (*p = T{}). Memory
// reached through such a field or type is taken to be released by the
// code that puts the value back (references are dropped before Put, so the
// pool pins nothing).
//
// It also records the package's accessors: methods whose body only
// returns a slice or map field of the receiver (func (b *Buffer) Bytes()
// []byte { return b.bs }), whose result aliases the value.
type drops struct {
	fields    map[types.Object]bool
	types     map[types.Object]bool
	accessors map[*types.Func]bool
}

func newDrops(pass *analysis.Pass) *drops {
	d := &drops{fields: map[types.Object]bool{}, types: map[types.Object]bool{}, accessors: map[*types.Func]bool{}}
	info := pass.TypesInfo
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			if fn := accessor(info, decl); fn != nil {
				d.accessors[fn] = true
			}
		}
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				r := ast.Unparen(as.Rhs[i])
				_, isLit := r.(*ast.CompositeLit)
				isNil := false
				if id, ok := r.(*ast.Ident); ok {
					_, isNil = info.Uses[id].(*types.Nil)
				}
				if !isLit && !isNil {
					continue
				}
				switch l := ast.Unparen(l).(type) {
				case *ast.SelectorExpr:
					if sel := info.Selections[l]; sel != nil && sel.Kind() == types.FieldVal {
						d.fields[sel.Obj()] = true
					}
				case *ast.StarExpr:
					if n := namedOf(info.TypeOf(l)); n != nil && isLit {
						d.types[n] = true
					}
				}
			}
			return true
		})
	}
	return d
}

// accessor returns the method decl declares when its body is one return
// of a slice or map field of its receiver (possibly resliced), or nil.
func accessor(info *types.Info, decl ast.Decl) *types.Func {
	fd, ok := decl.(*ast.FuncDecl)
	if !ok || fd.Recv == nil || fd.Body == nil || len(fd.Body.List) != 1 || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 || !hasRefs(info.TypeOf(ret.Results[0])) {
		return nil
	}
	recv, _ := info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	e := ast.Unparen(ret.Results[0])
	if sl, ok := e.(*ast.SliceExpr); ok {
		e = ast.Unparen(sl.X)
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || recv == nil || !flow.IsVar(info, sel.X, recv) {
		return nil
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	fn, _ := info.Defs[fd.Name].(*types.Func)
	return fn
}

func namedOf(t types.Type) types.Object {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj()
	}
	return nil
}

// retained reports whether the memory e aliases stays with the pooled value
// when put: always for the value's own storage (buf.Bytes(), *p of a
// pooled *[]T); for memory reached through a struct field or a struct copy,
// only if the package never drops that field or zeroes that type, and the
// Put is one whose code we can see.
func (a *aliaser) retained(opaquePut bool, e ast.Expr) bool {
	fields, structs := map[types.Object]bool{}, map[types.Object]bool{}
	a.chain(e, fields, structs, 0)
	if len(fields) == 0 && len(structs) == 0 {
		return true
	}
	if opaquePut && !bufferFields(fields) {
		return false
	}
	for f := range fields {
		if a.drops.fields[f] {
			return false
		}
	}
	for t := range structs {
		if a.drops.types[t] {
			return false
		}
	}
	return true
}

// bufferFields reports whether every field of fields is the byte slice of
// a buffer type: a struct with a Reset method (bytebufferpool's
// ByteBuffer.B), whose Reset truncates the slice and keeps its memory, or
// one of the buffers aliasingBuffer knows.
func bufferFields(fields map[types.Object]bool) bool {
	if len(fields) == 0 {
		return false
	}
	for f := range fields {
		v, ok := f.(*types.Var)
		if !ok || !isByteSlice(v.Type()) {
			return false
		}
		owner := fieldOwner(v)
		if owner == nil {
			return false
		}
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(owner), true, v.Pkg(), "Reset"); obj == nil && !aliasingBuffer(owner) {
			return false
		}
	}
	return true
}

// fieldOwner returns the named struct type declaring the field v, among
// the named types of v's package, or nil.
func fieldOwner(v *types.Var) types.Type {
	if v.Pkg() == nil {
		return nil
	}
	scope := v.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i) == v {
				return tn.Type()
			}
		}
	}
	return nil
}

func isByteSlice(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := sl.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// chain collects the fields and struct types through which e reaches the
// pooled value.
func (a *aliaser) chain(e ast.Expr, fields, structs map[types.Object]bool, depth int) {
	if e == nil || depth > 5 {
		return
	}
	info := a.info
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if sel := info.Selections[n]; sel != nil && sel.Kind() == types.FieldVal && a.kind(n.X) != none {
				fields[sel.Obj()] = true
				if t := namedOf(derefType(info.TypeOf(n.X))); t != nil {
					structs[t] = true
				}
			}
		case *ast.StarExpr:
			if a.kind(n.X) != none {
				if _, ok := info.TypeOf(n).Underlying().(*types.Struct); ok {
					if t := namedOf(info.TypeOf(n)); t != nil {
						structs[t] = true
					} else {
						structs[nil] = true
					}
				}
			}
		case *ast.Ident:
			if obj := info.ObjectOf(n); a.vars[obj] {
				a.chain(a.origin[obj], fields, structs, depth+1)
			}
		}
		return true
	})
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// kind says how e aliases the pooled variable.
func (a *aliaser) kind(e ast.Expr) int {
	info := a.info
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := info.ObjectOf(e)
		if obj == a.x {
			return self
		}
		if a.vars[obj] || a.holders[obj] {
			return strong
		}
	case *ast.StarExpr:
		if a.kind(e.X) != none && hasRefs(info.TypeOf(e)) {
			return strong
		}
		if a.kind(e.X) >= strong && fromUnsafePointer(info, e.X) {
			return strong // *(*string)(unsafe.Pointer(&b)): the bytes of b
		}
	case *ast.SliceExpr:
		if k := a.kind(e.X); k != none {
			if _, isStr := info.TypeOf(e).Underlying().(*types.Basic); isStr {
				return none
			}
			return strong
		}
	case *ast.IndexExpr:
		if a.kind(e.X) != none && hasRefs(info.TypeOf(e)) {
			return strong
		}
	case *ast.SelectorExpr:
		sel := info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal || a.kind(e.X) == none {
			return none
		}
		t := info.TypeOf(e)
		if hasRefs(t) {
			return strong
		}
		if _, ok := t.Underlying().(*types.Pointer); ok {
			return weak
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if _, isIdent := ast.Unparen(e.X).(*ast.Ident); !isIdent && a.kind(e.X) != none {
				return strong
			}
		}
	case *ast.CompositeLit:
		for _, elt := range e.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			if a.kind(elt) >= strong {
				return strong
			}
		}
	case *ast.CallExpr:
		return a.callKind(e)
	}
	return none
}

func (a *aliaser) callKind(call *ast.CallExpr) int {
	info := a.info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) != 1 {
			return none
		}
		if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return none // string(b) copies
		}
		k := a.kind(call.Args[0])
		if k == self {
			if _, isIface := tv.Type.Underlying().(*types.Interface); isIface {
				return self
			}
		}
		if k >= strong && hasRefs(tv.Type) {
			return strong
		}
		if k != none && isPointerType(tv.Type) {
			return strong // unsafe.Pointer(&b), (*string)(p): the same memory
		}
		return none
	}
	if fun, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if b, ok := info.Uses[fun.Sel].(*types.Builtin); ok && len(call.Args) > 0 {
			switch b.Name() {
			case "String", "Slice", "SliceData", "StringData":
				// unsafe.String(unsafe.SliceData(b), len(b)) shares b.
				if a.kind(call.Args[0]) != none {
					return strong
				}
			}
			return none
		}
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			if b.Name() == "append" && len(call.Args) > 0 && a.kind(call.Args[0]) >= strong {
				return strong
			}
			return none
		}
	}
	fn := staticCallee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return none
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || a.kind(sel.X) == none {
			if a.keeps(call, fn) {
				return strong
			}
			return none
		}
		if (fn.Name() == "Bytes" || fn.Name() == "AvailableBuffer") && aliasingBuffer(sig.Recv().Type()) {
			return strong
		}
		if a.drops != nil && a.drops.accessors[fn.Origin()] {
			return strong // func (b *Buffer) Bytes() []byte { return b.bs }
		}
		return none
	}
	if fn.Pkg().Path() == "bytes" && len(call.Args) > 0 && strings.HasPrefix(fn.Name(), "Trim") && a.kind(call.Args[0]) >= strong {
		return strong // bytes.Trim* return subslices of their argument
	}
	if len(call.Args) > 0 && a.kind(call.Args[0]) >= strong && appendsInto(fn) {
		return strong // strconv.AppendInt(b.B[:0], n, 10) returns b.B's memory
	}
	if len(call.Args) == 1 && a.kind(call.Args[0]) >= strong && unsafeString(fn) {
		return strong // b2s(bb.B): a string over the pooled bytes
	}
	if a.keeps(call, fn) {
		return strong
	}
	return none
}

// appendsInto reports whether fn is append-style: named Append... or
// append..., its first parameter and its first result the same slice type
// (strconv.AppendInt, fmt.Append, AppendQuotedArg(dst []byte, ...)
// []byte). Such a function returns its first argument's memory when it
// has room.
func appendsInto(fn *types.Func) bool {
	if !strings.HasPrefix(fn.Name(), "Append") && !strings.HasPrefix(fn.Name(), "append") {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() == 0 || sig.Results().Len() == 0 {
		return false
	}
	if _, ok := sig.Params().At(0).Type().Underlying().(*types.Slice); !ok {
		return false
	}
	return types.Identical(sig.Params().At(0).Type(), sig.Results().At(0).Type())
}

// unsafeString reports whether fn converts a byte slice to a string
// without copying: func(b []byte) string by one of the usual names (b2s,
// BytesToString, UnsafeString, ...).
func unsafeString(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !isByteSlice(sig.Params().At(0).Type()) {
		return false
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return false
	}
	switch strings.ToLower(fn.Name()) {
	case "b2s", "bytestostring", "unsafestring", "bytes2string", "tostringunsafe", "unsafebytestostring", "bytestostringunsafe":
		return true
	}
	return false
}

// fromUnsafePointer reports whether e is a conversion of an unsafe.Pointer
// to a pointer type: (*string)(unsafe.Pointer(&b)).
func fromUnsafePointer(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
		return false
	}
	b, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

func isPointerType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// staticCallee returns the function or method call statically calls, or
// nil.
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	return typeutil.StaticCallee(info, call)
}

// aliasingBuffer reports whether t is a buffer type whose Bytes method
// returns its own storage.
func aliasingBuffer(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	switch named.Obj().Pkg().Path() + "." + named.Obj().Name() {
	case "bytes.Buffer",
		poolcall.PoolkitByteBuf + ".Buffer",
		"go.uber.org/zap/buffer.Buffer",
		"github.com/valyala/bytebufferpool.ByteBuffer":
		return true
	}
	return false
}

// hasRefs reports whether a value of type t shares memory with its copies:
// it is, or directly contains, a slice or a map.
func hasRefs(t types.Type) bool {
	return t != nil && anyPart(t, 0, false, func(t types.Type) bool {
		switch t.Underlying().(type) {
		case *types.Slice, *types.Map:
			return true
		}
		return false
	})
}

// inspectsRelease reports whether the statements after a Put, in a test
// function (TestXxx of a _test.go file), only read the released value:
// a test of a release function must look at what the release left
// behind (cap(e.buf) after putEncoder(e)), and in a test nothing else
// takes from the pool meanwhile unless the test starts it. Every use of
// a live variable must be a read of it or of its fields (x, x.f, x.f[i])
// compared, measured by len or cap, or passed to a testing call; any
// write, method call, address taken or other hand-off is still a use.
func inspectsRelease(pass *analysis.Pass, stmt inspector.Cursor, after []ast.Stmt, live map[types.Object]bool) bool {
	var fd *ast.FuncDecl
	for e := range stmt.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fd, _ = e.Node().(*ast.FuncDecl)
		break
	}
	if fd == nil || !strings.HasPrefix(fd.Name.Name, "Test") || fd.Recv != nil ||
		!strings.HasSuffix(pass.Fset.Position(fd.Pos()).Filename, "_test.go") {
		return false
	}
	info := pass.TypesInfo
	for _, s := range after {
		ok := true
		ast.PreorderStack(s, nil, func(n ast.Node, stack []ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit {
				ok = false // a closure may run after anything: keep it simple
			}
			if id, isID := n.(*ast.Ident); isID && live[info.ObjectOf(id)] && !inspection(info, id, stack) {
				ok = false
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// inspection reports whether id, under the ancestors in stack (the
// innermost last), is read only: the root of a chain of field selections
// and indexing, which is compared, given to len or cap, or passed to a
// function of package testing.
func inspection(info *types.Info, id *ast.Ident, stack []ast.Node) bool {
	var cur ast.Expr = id
	chain := false
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
		case *ast.SelectorExpr:
			sel := info.Selections[p]
			if p.X != cur || sel == nil || sel.Kind() != types.FieldVal {
				return false
			}
			chain = true
		case *ast.IndexExpr:
			if p.X != cur {
				return true // x used as an index: a read
			}
			chain = true
		default:
			return readContext(info, stack[i], cur, chain)
		}
		cur = stack[i].(ast.Expr)
	}
	return false
}

// readContext reports whether parent only reads e: a comparison, len or
// cap of it, an argument to a testing call, or (for a field, not the
// value itself) the value of a map or struct literal element.
func readContext(info *types.Info, parent ast.Node, e ast.Expr, field bool) bool {
	switch p := parent.(type) {
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ || field
	case *ast.KeyValueExpr:
		return field && p.Value == e && !hasRefs(info.TypeOf(e))
	case *ast.CallExpr:
		if p.Fun == e {
			return false
		}
		if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[id].(*types.Builtin); ok {
				return b.Name() == "len" || b.Name() == "cap"
			}
		}
		fn := typeutil.StaticCallee(info, p)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "testing"
	}
	return false
}
