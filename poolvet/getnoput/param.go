package getnoput

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

// checkParams follows the parameters that a function puts back into a
// pool itself (func serve(m []byte) { ...; if cap(m) == size {
// pool.Put(m) } }): such a function owns the buffer it is given, and a
// return that neither puts it back nor hands it on drops it, as a return
// after a Get does.
func (st *state) checkParams() {
	info := st.pass.TypesInfo
	var puts []token.Pos
	for _, c := range st.pc.Calls {
		if c.Op == poolcall.Put {
			puts = append(puts, c.Pos())
		}
	}
	hasPut := func(fd *ast.FuncDecl) bool {
		for _, p := range puts {
			if fd.Body.Pos() <= p && p < fd.Body.End() {
				return true
			}
		}
		return false
	}
	for _, f := range st.pass.Files {
		if strings.HasSuffix(st.pass.Fset.Position(f.FileStart).Filename, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !hasPut(fd) {
				continue
			}
			for _, field := range fd.Type.Params.List {
				for _, name := range field.Names {
					x, ok := info.Defs[name].(*types.Var)
					if !ok || !refType(x.Type()) {
						continue
					}
					if put := st.owningPut(fd.Body, x); put != nil {
						st.checkParam(fd, x, put)
					}
				}
			}
		}
	}
}

func refType(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Pointer:
		return true
	}
	return false
}

// owningPut returns a Put of x (x, &x or a reslice of x) that runs
// whenever the function gets that far: one not inside a loop, a switch,
// a select or a function literal, and inside if statements only when
// their conditions test x itself (if cap(m) == size { Put(m) }). A Put
// under any other condition (if owned { Put(b) }) may mean the function
// owns x only sometimes.
func (st *state) owningPut(body *ast.BlockStmt, x *types.Var) *poolcall.Call {
	info := st.pass.TypesInfo
	var found *poolcall.Call
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if found != nil {
			return false
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			stack = stack[:len(stack)-1]
			return false
		case *ast.IfStmt:
			if n.Init != nil || !flow.Mentions(info, n.Cond, x) {
				stack = stack[:len(stack)-1]
				return false
			}
		case *ast.CallExpr:
			if c := st.pc.ByCall[n]; c != nil && c.Op == poolcall.Put && c.Value != nil && putsVar(info, c.Value, x) {
				found = c
			}
		}
		return true
	})
	return found
}

// putIn reports whether n holds a Put of x, &x or a reslice of x.
func (st *state) putIn(n ast.Node, x *types.Var) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if call, ok := m.(*ast.CallExpr); ok {
			if c := st.pc.ByCall[call]; c != nil && c.Op == poolcall.Put && c.Value != nil && putsVar(st.pass.TypesInfo, c.Value, x) {
				found = true
			}
		}
		return !found
	})
	return found
}

// putsVar reports whether the value v handed to a Put is x, &x or a
// reslice of x.
func putsVar(info *types.Info, v ast.Expr, x *types.Var) bool {
	v = flow.Unconvert(info, v)
	if sl, ok := v.(*ast.SliceExpr); ok {
		v = flow.Unconvert(info, sl.X)
	}
	return isVarOrAddr(info, v, x)
}

// checkParam follows the parameter x of fd, which put returns to its
// pool, from the start of the function.
func (st *state) checkParam(fd *ast.FuncDecl, x *types.Var, put *poolcall.Call) {
	info := st.pass.TypesInfo
	g := st.cfgs.FuncDecl(fd)
	if g == nil || len(g.Blocks) == 0 {
		return
	}
	if simple, _ := st.eligible(x, nil, fd.Body, getOrNewIfs{}); !simple {
		return
	}
	putLine := st.pass.Fset.Position(put.Pos()).Line
	// Only returns on the failure of something done with x are reported
	// (n, err := header(m); if err != nil { return }): a return on a
	// flag (if !reuse { return }) may mean the caller keeps x.
	failures := failureReturns(info, fd.Body, x)
	report := onceAt(func(pos token.Pos, what string) {
		if failures[pos] {
			st.pass.Reportf(pos, "%s, which this function puts back into %s on line %d, is not put back %s (lost reuse, not a leak)",
				x.Name(), put.PoolName, putLine, what)
		}
	})
	guards := st.putGuards(x, fd.Body)
	st.lends = st.lender(g, x)
	defer func() { st.lends = nil }()
	w := &pathWalk{st: st, x: x, body: fd.Body, report: report, seen: map[*cfg.Block]bool{},
		skip: func(ast.Expr) bool { return false },
		stop: func(e ast.Expr) bool { return guards[e] || flow.Mentions(info, e, x) },
	}
	w.walk(g.Blocks[0], 0)
}

// failureReturns returns the positions of the return statements of body
// that are the last statement of an if whose condition tests the result
// of a call given x (n, err := header(m); if err != nil { return }); not
// of one given a size (i := index(cap(*b)); if i < 0 { return } drops a
// buffer of the wrong size on purpose).
func failureReturns(info *types.Info, body *ast.BlockStmt, x *types.Var) map[token.Pos]bool {
	results := map[types.Object]bool{}
	flow.EachAssign(body, func(a flow.Assign) {
		call := a.Multi
		if call == nil {
			call = a.Rhs
		}
		if c, ok := ast.Unparen(call).(*ast.CallExpr); ok && argOf(info, c, x) {
			results[info.ObjectOf(a.ID)] = true
		}
	})
	out := map[token.Pos]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if !ok || len(is.Body.List) == 0 {
			return true
		}
		ret, ok := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt)
		if !ok {
			return true
		}
		ast.Inspect(is.Cond, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && results[info.Uses[id]] {
				out[ret.Pos()] = true
			}
			return true
		})
		return true
	})
	return out
}

// lender returns the test of calls that only borrow x, in the function
// whose graph is g: a call of a function of the package that only reads
// the parameter it is given x in (see borrows), or a call of the same
// function or function value (srv.MsgInvalidFunc(m, err)) as another
// call of g given x after which g goes on to put x back: the function
// itself treats that call as one that does not take x.
func (st *state) lender(g *cfg.CFG, x *types.Var) func(*ast.CallExpr) bool {
	info := st.pass.TypesInfo
	reaches := map[string]bool{} // a call site of the name reaches a Put of x
	sites := map[string]int{}
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			ast.Inspect(n, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok || !argOf(info, call, x) || st.pc.ByCall[call] != nil {
					return true
				}
				name := types.ExprString(call.Fun)
				sites[name]++
				if !reaches[name] && st.putReachable(b, i+1, x) {
					reaches[name] = true
				}
				return true
			})
		}
	}
	return func(call *ast.CallExpr) bool {
		// Two call sites at least: the one on the path followed is not
		// the one after which x goes back (if err := send(b); err != nil
		// { return }; Put(b) says nothing of what send does on failure).
		if name := types.ExprString(call.Fun); reaches[name] && sites[name] > 1 {
			return true
		}
		for i, a := range call.Args {
			if flow.IsVar(info, flow.Unconvert(info, a), x) && st.borrows(call, i, 0) {
				return true
			}
		}
		return false
	}
}

// argOf reports whether x, or a reslice of it, is an argument of call
// (not something computed from x, such as cap(x)).
func argOf(info *types.Info, call *ast.CallExpr, x *types.Var) bool {
	for _, a := range call.Args {
		a = flow.Unconvert(info, a)
		if sl, ok := a.(*ast.SliceExpr); ok {
			a = flow.Unconvert(info, sl.X)
		}
		if flow.IsVar(info, a, x) {
			return true
		}
	}
	return false
}

// putReachable reports whether a Put of x can run after node i of b.
func (st *state) putReachable(b *cfg.Block, from int, x *types.Var) bool {
	seen := map[*cfg.Block]bool{}
	var reach func(b *cfg.Block, from int) bool
	reach = func(b *cfg.Block, from int) bool {
		for _, n := range b.Nodes[from:] {
			if st.putIn(n, x) {
				return true
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if reach(s, 0) {
					return true
				}
			}
		}
		return false
	}
	return reach(b, from)
}

// borrows reports whether the callee of call only reads its argument i:
// a function of the package that uses that parameter only to index it,
// slice it, take its length or capacity, compare it, or pass it on to
// calls that borrow it in turn (to a depth of 3); or a function of the
// standard library whose results hold no memory (binary.BigEndian.Uint16(b)).
func (st *state) borrows(call *ast.CallExpr, i, depth int) bool {
	info := st.pass.TypesInfo
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil || depth > 3 {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if fn.Pkg() != st.pass.Pkg {
		path := fn.Pkg().Path()
		if strings.Contains(strings.Split(path, "/")[0], ".") || strings.HasPrefix(path, "sync") || strings.HasPrefix(path, "container/") {
			return false
		}
		if pt := paramType(sig, i); pt == nil || types.IsInterface(pt) {
			return false // fmt.Errorf("%s", b), heap.Push(h, b): any may be kept
		}
		for r := range sig.Results().Variables() {
			if !plainResult(r.Type()) {
				return false
			}
		}
		return true
	}
	fd := st.decl(fn.Origin())
	if fd == nil || i >= sig.Params().Len() || (sig.Variadic() && i == sig.Params().Len()-1) {
		return false
	}
	p := fn.Origin().Type().(*types.Signature).Params().At(i)
	ok := true
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if !ok {
			return false
		}
		stack = append(stack, n)
		if lit, isLit := n.(*ast.FuncLit); isLit && flow.Mentions(info, lit, p) {
			ok = false
		}
		if id, isID := n.(*ast.Ident); isID && info.Uses[id] == p {
			ok = st.readOnly(stack, depth)
		}
		return ok
	})
	return ok
}

// readOnly reports whether the use of a parameter at the top of stack
// only reads it (see borrows).
func (st *state) readOnly(stack []ast.Node, depth int) bool {
	for k := len(stack) - 2; k >= 0; k-- {
		e := stack[k+1]
		switch p := stack[k].(type) {
		case *ast.ParenExpr:
			continue
		case *ast.SliceExpr:
			if p.X == e {
				continue // p[i:j]: as the use of the slice
			}
			return true // an index
		case *ast.IndexExpr:
			if k > 0 {
				if u, ok := stack[k-1].(*ast.UnaryExpr); ok && u.Op == token.AND {
					return false // &p[i] may be kept
				}
			}
			return true
		case *ast.BinaryExpr:
			return true
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == e {
					return true // the parameter itself reassigned
				}
			}
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
				if b, ok := st.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
					switch b.Name() {
					case "len", "cap", "copy":
						return true
					}
					return false
				}
			}
			for i, a := range p.Args {
				if a == e {
					return st.borrows(p, i, depth+1)
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// paramType returns the type of parameter i of sig, the element type for
// the variadic ones; nil when there is no such parameter.
func paramType(sig *types.Signature, i int) types.Type {
	n := sig.Params().Len()
	switch {
	case sig.Variadic() && i >= n-1:
		return sig.Params().At(n - 1).Type().(*types.Slice).Elem()
	case i < n:
		return sig.Params().At(i).Type()
	}
	return nil
}

// plainResult reports whether a result of type t can hold no memory of
// the arguments: a number, a bool, a string (a copy) or an error.
func plainResult(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Basic); ok {
		return true
	}
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// decl returns the declaration of fn, a function of the package.
func (st *state) decl(fn *types.Func) *ast.FuncDecl {
	for _, f := range st.pass.Files {
		if f.FileStart > fn.Pos() || fn.Pos() > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && st.pass.TypesInfo.Defs[fd.Name] == fn && fd.Body != nil {
				return fd
			}
		}
	}
	return nil
}
