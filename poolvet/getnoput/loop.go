package getnoput

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

// checkLoop reports the continue and break statements that leave the
// iteration of the loop in which x is got (bound at bind) while x was
// neither put back nor handed on: the next iteration, or the code after
// the loop, can no longer put it. It returns the loop when x is declared
// inside it (then nothing after the loop can put x), else nil.
func (st *state) checkLoop(get *poolcall.Call, x *types.Var, okVar *types.Var, bind inspector.Cursor, report func(token.Pos, string)) ast.Stmt {
	stmtCur := bind
	if _, ok := bind.Node().(*ast.ValueSpec); ok {
		stmtCur = bind.Parent().Parent()
	}
	stmt, ok := stmtCur.Node().(ast.Stmt)
	if !ok {
		return nil
	}
	var loop ast.Stmt
	var loopBody *ast.BlockStmt
	for e := range stmtCur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch n := e.Node().(type) {
		case *ast.ForStmt:
			loop, loopBody = n, n.Body
		case *ast.RangeStmt:
			loop, loopBody = n, n.Body
		}
		break
	}
	if loop == nil {
		return nil
	}
	inside := x.Pos() >= loopBody.Pos() && x.Pos() < loopBody.End()
	scope := stmtCur.Parent() // the block declaring x: its uses are inside
	for c := range scope.Preorder((*ast.BranchStmt)(nil), (*ast.FuncLit)(nil)) {
		br, ok := c.Node().(*ast.BranchStmt)
		if !ok || br.Pos() < stmt.End() {
			continue
		}
		if br.Tok != token.CONTINUE && (br.Tok != token.BREAK || !inside) {
			continue
		}
		if inLit(c, scope) || !leavesIteration(c, br, loop) {
			continue
		}
		if st.pathHandles(c, stmt, loop, x, okVar) {
			continue
		}
		report(br.Pos(), "before this "+br.Tok.String()+", which leaves the loop iteration holding it")
	}
	if inside {
		return loop
	}
	return nil
}

// inLit reports whether the node at c is inside a function literal below
// scope.
func inLit(c, scope inspector.Cursor) bool {
	for p := c.Parent(); p.Valid() && p != scope; p = p.Parent() {
		if _, ok := p.Node().(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// leavesIteration reports whether the branch br at c ends the current
// iteration of loop (continue or break of loop or of a loop around it),
// rather than of a loop, switch or select inside it.
func leavesIteration(c inspector.Cursor, br *ast.BranchStmt, loop ast.Stmt) bool {
	var target ast.Node
	for p := c.Parent(); p.Valid(); p = p.Parent() {
		n := p.Node()
		if br.Label != nil {
			if ls, ok := n.(*ast.LabeledStmt); ok && ls.Label.Name == br.Label.Name {
				target = ls.Stmt
				break
			}
			continue
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			target = n
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if br.Tok == token.BREAK {
				target = n
			}
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		}
		if target != nil {
			break
		}
	}
	if target == nil {
		return false
	}
	// The target is loop itself or encloses it.
	return target.Pos() <= loop.Pos() && loop.End() <= target.End()
}

// pathHandles reports whether, on the way from the binding stmt to the
// branch at c, x is put back, handed on or decided about (a condition on
// x, or on the ok of x, ok := Get().(T)).
func (st *state) pathHandles(c inspector.Cursor, stmt ast.Stmt, loop ast.Stmt, x, okVar *types.Var) bool {
	info := st.pass.TypesInfo
	decides := func(e ast.Node) bool {
		return e != nil && (flow.Mentions(info, e, x) || (okVar != nil && flow.Mentions(info, e, okVar)))
	}
	for _, s := range flow.Preceding(c) {
		switch s.(type) {
		case *ast.CaseClause, *ast.CommClause:
			continue // another case: not on the way
		}
		if s.Pos() > stmt.End() && st.stmtHandles(s, x, decides) {
			return true
		}
	}
	for a := c.Parent(); a.Valid() && a.Node() != loop; a = a.Parent() {
		n := a.Node()
		if n.Pos() <= stmt.Pos() {
			break // it holds the binding too: its head ran before the Get
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			if (n.Init != nil && st.stmtHandles(n.Init, x, decides)) || decides(n.Cond) {
				return true
			}
		case *ast.SwitchStmt:
			if (n.Init != nil && st.stmtHandles(n.Init, x, decides)) || (n.Tag != nil && decides(n.Tag)) {
				return true
			}
		case *ast.TypeSwitchStmt:
			if decides(n.Assign) {
				return true
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if decides(e) {
					return true
				}
			}
		case *ast.CommClause:
			if n.Comm != nil && st.stmtHandles(n.Comm, x, decides) {
				return true
			}
		case *ast.ForStmt:
			if n.Cond != nil && decides(n.Cond) {
				return true
			}
		case *ast.RangeStmt:
			if decides(n.X) {
				return true // a loop over x: not followed
			}
		}
	}
	return false
}

// stmtHandles reports whether the statement s, on some path through it
// that goes on to the statements after it, puts x back, hands it on or
// decides about it. Blocks that end by leaving (return, branch, panic) do
// not go on.
func (st *state) stmtHandles(s ast.Stmt, x *types.Var, decides func(ast.Node) bool) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			return !flow.Leaves(st.pass.TypesInfo, n.List)
		case *ast.CaseClause:
			return !flow.Leaves(st.pass.TypesInfo, n.Body)
		case *ast.CommClause:
			return !flow.Leaves(st.pass.TypesInfo, n.Body)
		case *ast.IfStmt:
			found = decides(n.Cond)
		case *ast.SwitchStmt:
			found = n.Tag != nil && decides(n.Tag)
		case *ast.RangeStmt:
			found = decides(n.X)
		case *ast.ForStmt:
			found = n.Cond != nil && decides(n.Cond)
		case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.GoStmt, *ast.DeferStmt:
			found = st.handled(n, x)
			return false
		}
		return !found
	})
	return found
}

// neverPut returns the pools this package gets from but never puts back
// into, when no other package can: unexported package variables and
// unexported fields of the package's types, named only as the receiver
// of a Get (not passed, stored or addressed elsewhere). Test files are
// left out: pool tests get from empty pools on purpose.
func (st *state) neverPut() map[types.Object]bool {
	var cands map[types.Object]bool
	for _, c := range st.pc.Calls {
		if c.Op != poolcall.Get || c.Pool == nil || c.Wrapper != nil || c.PoolExpr == nil {
			continue
		}
		v, ok := c.Pool.(*types.Var)
		if !ok || v.Exported() || v.Pkg() != st.pass.Pkg || st.inTest(c.Call.Pos()) {
			continue
		}
		if !v.IsField() && v.Parent() != v.Pkg().Scope() {
			continue // a local pool
		}
		if cands == nil {
			cands = map[types.Object]bool{}
		}
		cands[v] = true
	}
	if cands == nil {
		return nil
	}
	for _, c := range st.pc.Calls {
		if c.Op != poolcall.Put || !cands[c.Pool] {
			continue
		}
		if why := st.skipped(c); why != "" {
			if st.skippedPut == nil {
				st.skippedPut = map[types.Object]string{}
			}
			if inner := st.pc.Unwrap(c); inner != nil {
				c = inner
			}
			st.skippedPut[c.Pool] = fmt.Sprintf("the Put on line %d never runs, as %s is always true", st.pass.Fset.Position(c.Pos()).Line, why)
			continue
		}
		delete(cands, c.Pool)
	}
	if len(cands) == 0 {
		return nil
	}
	// Every other mention of the pool may lead to a Put we cannot see.
	getRecv := map[*ast.Ident]bool{}
	for _, c := range st.pc.Calls {
		if (c.Op == poolcall.Get || c.Op == poolcall.Put) && c.Wrapper == nil && cands[c.Pool] {
			if sel, ok := ast.Unparen(c.Call.Fun).(*ast.SelectorExpr); ok {
				switch r := ast.Unparen(sel.X).(type) {
				case *ast.Ident:
					getRecv[r] = true
				case *ast.SelectorExpr:
					getRecv[r.Sel] = true
				}
			}
		}
	}
	// Setting the pool up is not a use either: T{pool: sync.Pool{New:
	// ...}}, p.New = f.
	for _, f := range st.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					getRecv[id] = true
				}
			case *ast.SelectorExpr:
				if n.Sel.Name != "New" {
					return true
				}
				switch r := ast.Unparen(n.X).(type) {
				case *ast.Ident:
					getRecv[r] = true
				case *ast.SelectorExpr:
					getRecv[r.Sel] = true
				}
			}
			return true
		})
	}
	for id, obj := range st.pass.TypesInfo.Uses {
		if cands[obj] && !getRecv[id] {
			delete(cands, obj)
		}
	}
	return cands
}

// skipped returns the condition that makes the function holding the Put c
// (or, for a wrapper of this package, its inner Put) return before it on
// every call: an if statement before the Put, in its block or an enclosing
// one, whose condition is always true and whose body returns. Such
// conditions are constants and unexported package variables never
// assigned after their declaration (if !poolBuffers { return }). It
// returns "" when the Put can run.
func (st *state) skipped(c *poolcall.Call) string {
	if c.Wrapper != nil {
		if c = st.pc.Unwrap(c); c == nil {
			return ""
		}
		if bc := st.pc.ByCall[c.Call]; bc != nil {
			c = bc // the same call, with its cursor
		}
	}
	cur, ok := poolcall.Find(st.ins, c)
	if !ok {
		return ""
	}
	for s := range cur.Enclosing((*ast.ExprStmt)(nil), (*ast.DeferStmt)(nil)) {
		cur = s
		break
	}
	for _, s := range flow.Preceding(cur) {
		ifs, ok := s.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) == 0 {
			continue
		}
		if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
			continue
		}
		if st.alwaysTrue(ifs.Cond) {
			return types.ExprString(ifs.Cond)
		}
	}
	return ""
}

// alwaysTrue reports whether cond is a constant true, or made of
// constants and unexported package variables of the package never
// assigned after their declaration, with ! && || between them, and true.
func (st *state) alwaysTrue(cond ast.Expr) bool {
	v, ok := st.boolValue(cond)
	return ok && v
}

func (st *state) boolValue(e ast.Expr) (value, known bool) {
	info := st.pass.TypesInfo
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return constant.BoolVal(tv.Value), true
	}
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			v, ok := st.boolValue(e.X)
			return !v, ok
		}
	case *ast.BinaryExpr:
		x, okx := st.boolValue(e.X)
		y, oky := st.boolValue(e.Y)
		switch e.Op {
		case token.LAND:
			if (okx && !x) || (oky && !y) {
				return false, true
			}
			return true, okx && oky
		case token.LOR:
			if (okx && x) || (oky && y) {
				return true, true
			}
			return false, okx && oky
		}
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok || v.Exported() || v.Pkg() != st.pass.Pkg || v.Parent() != v.Pkg().Scope() {
			return false, false
		}
		return st.fixedVar(v)
	}
	return false, false
}

// fixedVar returns the value of the unexported bool package variable v
// when it is declared with a constant (or no) value and never assigned,
// incremented or addressed anywhere in the package.
func (st *state) fixedVar(v *types.Var) (value, known bool) {
	if st.fixed == nil {
		st.fixed = map[*types.Var][2]bool{}
	}
	if r, ok := st.fixed[v]; ok {
		return r[0], r[1]
	}
	info := st.pass.TypesInfo
	value, known = false, true // the zero value unless initialised
	for _, f := range st.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if info.Defs[id] != v {
						continue
					}
					if i >= len(n.Values) {
						continue
					}
					tv := info.Types[n.Values[i]]
					if tv.Value == nil || tv.Value.Kind() != constant.Bool {
						known = false
					} else {
						value = constant.BoolVal(tv.Value)
					}
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.Uses[id] == v {
						known = false
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && info.Uses[id] == v {
					known = false
				}
			}
			return known
		})
	}
	st.fixed[v] = [2]bool{value, known}
	return value, known
}

func (st *state) inTest(pos token.Pos) bool {
	f := st.pass.Fset.File(pos)
	return f != nil && len(f.Name()) > 8 && f.Name()[len(f.Name())-8:] == "_test.go"
}

// checkNeverPut reports a value of interface type (h := pool.Get().(hash.Hash))
// that the function never puts back nor hands on, on any path from the
// Get at node: only used through the methods of its interface, then
// dropped. Values of concrete types are left alone (their methods may
// release them), and so are test files.
func (st *state) checkNeverPut(get *poolcall.Call, x *types.Var, start *cfg.Block, idx int, node ast.Node) {
	if !types.IsInterface(x.Type()) || st.inTest(get.Call.Pos()) {
		return
	}
	seen := map[*cfg.Block]bool{start: true}
	todo := []*cfg.Block{start}
	for first := true; len(todo) > 0; first = false {
		b := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		from := 0
		if first {
			from = idx + 1
		}
		for _, n := range b.Nodes[from:] {
			if n == node {
				break
			}
			if st.handsOffIn(n, x) {
				return
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				todo = append(todo, s)
			}
		}
	}
	st.pass.Reportf(get.Call.Pos(), "%s from %s (Get on line %d) is never put back (lost reuse, not a leak)",
		x.Name(), get.PoolName, st.pass.Fset.Position(get.Pos()).Line)
}
