package getnoput

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/analyzer"
	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

// Analyzer reports return paths on which a value taken from a pool is
// neither put back nor handed on.
var Analyzer = analyzer.New("getnoput", doc, run, ctrlflow.Analyzer)

func run(pass *analysis.Pass, pc *poolcall.Info, ins *inspector.Inspector) (any, error) {
	if len(pc.Calls) == 0 {
		return nil, nil
	}
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)
	st := &state{pass: pass, pc: pc, cfgs: cfgs, ins: ins}
	unput := st.neverPut()
	for _, c := range pc.Calls {
		if c.Op != poolcall.Get {
			continue
		}
		if unput[c.Pool] {
			if why := st.skippedPut[c.Pool]; why != "" {
				pass.Reportf(c.Call.Pos(), "nothing in this package puts back into %s (%s)", c.PoolName, why)
				continue
			}
			pass.Reportf(c.Call.Pos(), "nothing in this package puts back into %s (every Get allocates through New)", c.PoolName)
			continue
		}
		cur, ok := poolcall.Find(ins, c)
		if !ok {
			continue
		}
		st.checkGet(c, cur)
	}
	st.checkParams()
	return nil, nil
}

type state struct {
	pass  *analysis.Pass
	pc    *poolcall.Info
	cfgs  *ctrlflow.CFGs
	ins   *inspector.Inspector
	fixed map[*types.Var][2]bool // memo of fixedVar
	// skippedPut says, for a pool in neverPut's answer, why its Puts
	// never run.
	skippedPut map[types.Object]string
	// lends, while a parameter is followed (checkParam), reports the
	// calls that only borrow it; nil otherwise.
	lends func(*ast.CallExpr) bool
}

// checkGet follows the variable the Get at cur is assigned to through the
// control-flow graph of its function.
func (st *state) checkGet(get *poolcall.Call, cur inspector.Cursor) {
	info := st.pass.TypesInfo
	// The statement binding the result: x := Get(), x := Get().(T), var x = ...
	bind, id := poolcall.Assignee(cur)
	if id == nil {
		return
	}
	node := bind.Node() // the CFG node binding x
	// ok in x, ok := Get().(T): when false there is nothing to put
	var okVar *types.Var
	if n, isAssign := node.(*ast.AssignStmt); isAssign && len(n.Lhs) == 2 {
		if okID, isID := n.Lhs[1].(*ast.Ident); isID {
			okVar, _ = info.ObjectOf(okID).(*types.Var)
		}
	}
	x, ok := info.ObjectOf(id).(*types.Var)
	if !ok || x.Parent() == nil || x.Pkg() == nil || x.Parent() == x.Pkg().Scope() {
		return
	}
	var (
		body *ast.BlockStmt
		g    *cfg.CFG
	)
	for e := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch f := e.Node().(type) {
		case *ast.FuncDecl:
			body, g = f.Body, st.cfgs.FuncDecl(f)
		case *ast.FuncLit:
			body, g = f.Body, st.cfgs.FuncLit(f)
		}
		break
	}
	if body == nil || g == nil {
		return
	}
	// x, ok := Get().(T); if !ok { x = New() }: the if gives x a value
	// when the pool had none, and both branches go on holding x.
	orNew := getOrNew(info, body, x, okVar)
	simple, hasPut := st.eligible(x, node, body, orNew)
	if !simple {
		return
	}
	var start *cfg.Block
	idx := -1
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			if n == node {
				start, idx = b, i
			}
		}
	}
	if start == nil || !start.Live {
		return
	}
	if !hasPut {
		st.checkNeverPut(get, x, start, idx, node)
		return
	}
	getLine := st.pass.Fset.Position(get.Pos()).Line
	report := onceAt(func(pos token.Pos, what string) {
		if orNew.inside(pos) {
			return // if !ok { x, err = New(); if err != nil { return } }: nothing to put back
		}
		st.pass.Reportf(pos, "%s from %s (Get on line %d) is not put back %s (lost reuse, not a leak)",
			x.Name(), get.PoolName, getLine, what)
	})
	guards := st.putGuards(x, body)
	// Leaving the loop iteration that holds x: reported at the continue
	// or break itself, so the walk stops where the loop ends.
	loop := st.checkLoop(get, x, okVar, bind, report)
	w := &pathWalk{st: st, x: x, body: body, stopAt: node, loop: loop, report: report, seen: map[*cfg.Block]bool{},
		skip: func(e ast.Expr) bool { return orNew.cond[e] },
		stop: func(e ast.Expr) bool { return guards[e] || (okVar != nil && flow.Mentions(info, e, okVar)) },
	}
	w.walk(start, idx+1)
}

// onceAt returns report, called at most once per position.
func onceAt(report func(pos token.Pos, what string)) func(pos token.Pos, what string) {
	done := map[token.Pos]bool{}
	return func(pos token.Pos, what string) {
		if !done[pos] {
			done[pos] = true
			report(pos, what)
		}
	}
}

// A pathWalk follows x through the control-flow graph of body to each
// return, or end of the function, that x reaches without being put back,
// handed on or decided about, and reports it.
type pathWalk struct {
	st     *state
	x      *types.Var
	body   *ast.BlockStmt
	stopAt ast.Node            // the Get: around a loop back to it, not followed
	skip   func(ast.Expr) bool // conditions passed over
	stop   func(ast.Expr) bool // conditions ending the path: if cond { Put(x) } drops x on purpose otherwise
	loop   ast.Stmt            // the loop whose iteration holds x, or nil
	report func(pos token.Pos, what string)
	seen   map[*cfg.Block]bool
}

func (w *pathWalk) walk(b *cfg.Block, from int) {
	for i := from; i < len(b.Nodes); i++ {
		n := b.Nodes[i]
		if n == w.stopAt {
			return
		}
		if e, ok := n.(ast.Expr); ok && w.skip(e) {
			continue
		}
		if e, ok := n.(ast.Expr); ok && w.stop(e) {
			return
		}
		if w.st.handled(n, w.x) {
			return
		}
	}
	if len(b.Succs) == 0 {
		if ret := b.Return(); ret != nil {
			if ret.Pos() == w.body.Rbrace {
				w.report(ret.Pos(), "when the function ends")
			} else {
				w.report(ret.Pos(), "on this return path")
			}
			return
		}
		if w.st.noReturnEnd(b) {
			return
		}
		w.report(w.body.Rbrace, "when the function ends")
		return
	}
	for _, s := range b.Succs {
		if w.loop != nil && s.Stmt == w.loop {
			switch s.Kind {
			case cfg.KindForDone, cfg.KindRangeDone, cfg.KindForLoop, cfg.KindForPost, cfg.KindForBody, cfg.KindRangeLoop, cfg.KindRangeBody:
				continue // the iteration holding x is over
			}
		}
		if !w.seen[s] {
			w.seen[s] = true
			w.walk(s, 0)
		}
	}
}

// putGuards returns the conditions of if statements one of whose branches
// puts x back: code that puts conditionally (if ok && small { Put(x) })
// drops the value on purpose when the condition fails.
func (st *state) putGuards(x *types.Var, body *ast.BlockStmt) map[ast.Expr]bool {
	guards := map[ast.Expr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if is, ok := n.(*ast.IfStmt); ok && (st.putIn(is.Body, x) || (is.Else != nil && st.putIn(is.Else, x))) {
			guards[is.Cond] = true
		}
		return true
	})
	return guards
}

// eligible reports whether the function is simple enough to judge (it
// never defers a Put of x, never reassigns x except to values derived
// from it, and no closure refers to x), and whether it puts x back with
// a plain Put somewhere.
func (st *state) eligible(x *types.Var, binding ast.Node, body *ast.BlockStmt, orNew getOrNewIfs) (simple, hasPut bool) {
	info := st.pass.TypesInfo
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if flow.Mentions(info, n, x) {
				ok = false
			}
			return false
		case *ast.DeferStmt:
			if flow.Mentions(info, n, x) {
				ok = false // a deferred Put or release covers every path
			}
			return false
		case *ast.GoStmt:
			if flow.Mentions(info, n, x) {
				ok = false
			}
			return false
		case *ast.CallExpr:
			if c := st.pc.ByCall[n]; c != nil && c.Op == poolcall.Put && c.Value != nil && isVarOrAddr(info, c.Value, x) {
				hasPut = true
			}
		case *ast.AssignStmt:
			if n == binding || orNew.assign[n] {
				return true
			}
			for i, l := range n.Lhs {
				if !flow.IsVar(info, l, x) {
					continue
				}
				if len(n.Lhs) != len(n.Rhs) || !derived(info, n.Rhs[i], x) {
					ok = false
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && flow.IsVar(info, n.X, x) {
				// &x escapes the variable itself, unless it is what is Put.
				ok = ok && st.isPutArg(n)
			}
		}
		return true
	})
	return ok, hasPut
}

// getOrNewIfs are the if statements of a function that give x a value
// when the Get's type assertion failed: x, ok := Get().(T); if !ok { x,
// err = NewT() }.
type getOrNewIfs struct {
	cond   map[ast.Expr]bool        // their conditions
	assign map[*ast.AssignStmt]bool // their assignments to x
	bodies []*ast.BlockStmt         // their bodies
}

// inside reports whether pos lies in the body of one of the ifs, where
// x is what the fallback made, or nothing when it failed.
func (g getOrNewIfs) inside(pos token.Pos) bool {
	for _, b := range g.bodies {
		if b.Pos() <= pos && pos < b.End() {
			return true
		}
	}
	return false
}

func getOrNew(info *types.Info, body *ast.BlockStmt, x, okVar *types.Var) getOrNewIfs {
	g := getOrNewIfs{cond: map[ast.Expr]bool{}, assign: map[*ast.AssignStmt]bool{}}
	if okVar == nil {
		return g
	}
	ast.Inspect(body, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if !ok || is.Init != nil {
			return true
		}
		not, ok := ast.Unparen(is.Cond).(*ast.UnaryExpr)
		if !ok || not.Op != token.NOT || !flow.IsVar(info, ast.Unparen(not.X), okVar) {
			return true
		}
		var assigns []*ast.AssignStmt
		for _, stmt := range is.Body.List {
			as, ok := stmt.(*ast.AssignStmt)
			if ok && len(as.Rhs) == 1 && !flow.Mentions(info, as.Rhs[0], x) {
				for _, l := range as.Lhs {
					if flow.IsVar(info, l, x) {
						assigns = append(assigns, as)
					}
				}
			}
		}
		if len(assigns) == 1 {
			g.cond[is.Cond] = true
			g.assign[assigns[0]] = true
			g.bodies = append(g.bodies, is.Body)
		}
		return true
	})
	return g
}

func (st *state) isPutArg(u *ast.UnaryExpr) bool {
	for _, c := range st.pc.Calls {
		if c.Op == poolcall.Put && c.Value != nil && ast.Unparen(c.Value) == ast.Expr(u) {
			return true
		}
	}
	return false
}

// derived reports whether e is computed from x in a way that keeps the same
// pooled memory: append(x, ...), x[a:b], x itself.
func derived(info *types.Info, e ast.Expr, x *types.Var) bool {
	switch v := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.ObjectOf(v) == x
	case *ast.SliceExpr:
		return derived(info, v.X, x)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(v.Fun).(*ast.Ident); ok && len(v.Args) > 0 {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
				return derived(info, v.Args[0], x)
			}
		}
	}
	return false
}

// handled reports whether the CFG node n puts x back, hands it on, or
// makes a decision about it (a condition on x: a capacity guard may drop
// it on purpose).
func (st *state) handled(n ast.Node, x *types.Var) bool {
	info := st.pass.TypesInfo
	if e, ok := n.(ast.Expr); ok {
		return flow.Mentions(info, e, x) // a condition, switch tag or range over x
	}
	if r, ok := n.(*ast.ReturnStmt); ok {
		return flow.Mentions(info, r, x) // returned, or something made from it
	}
	return st.handsOffIn(n, x)
}

// handsOffIn reports whether n puts x back or hands it on somewhere.
func (st *state) handsOffIn(n ast.Node, x *types.Var) bool {
	info := st.pass.TypesInfo
	found := false
	stack := []ast.Node{}
	ast.Inspect(n, func(c ast.Node) bool {
		if found {
			return false
		}
		if c == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, c)
		switch c := c.(type) {
		case *ast.CallExpr:
			if pc := st.pc.ByCall[c]; pc != nil && pc.Op == poolcall.Put && pc.Value != nil && flow.Mentions(info, pc.Value, x) {
				found = true
			}
		case *ast.Ident:
			if info.ObjectOf(c) == x && st.handsOff(c, parent, stack) {
				found = true
			}
		}
		return !found
	})
	return found
}

// handsOff reports whether the occurrence id of x, whose parent node is
// parent, may give x to someone else.
func (st *state) handsOff(id *ast.Ident, parent ast.Node, stack []ast.Node) bool {
	info := st.pass.TypesInfo
	switch p := parent.(type) {
	case *ast.SelectorExpr:
		// x.f or x.M(...): a method may release x (b.Free()).
		if sel := info.Selections[p]; sel != nil && sel.Kind() == types.MethodVal {
			return !st.harmlessMethod(sel.Obj().(*types.Func))
		}
		return false
	case *ast.StarExpr, *ast.IndexExpr, *ast.SliceExpr:
		return false
	case *ast.BinaryExpr:
		return false
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == ast.Expr(id) {
				return false // x = append(x, ...): checked by eligible
			}
		}
		return true // y := x: followed no further
	case *ast.CallExpr:
		if bid, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[bid].(*types.Builtin); ok {
				switch b.Name() {
				case "len", "cap", "clear", "copy":
					return false
				case "append":
					return p.Args[0] != ast.Expr(id) // append(x, ...) grows x; append(s, x) stores it
				}
			}
		}
		if fn := typeutil.StaticCallee(info, p); fn != nil && fn.Pkg() != nil && writesOnly[fn.FullName()] {
			return false
		}
		return st.lends == nil || !st.lends(p)
	}
	return true
}

// writesOnly lists functions that use an argument during the call only.
var writesOnly = map[string]bool{
	"fmt.Fprint":               true,
	"fmt.Fprintf":              true,
	"fmt.Fprintln":             true,
	"io.Copy":                  true,
	"io.CopyN":                 true,
	"io.CopyBuffer":            true,
	"io.WriteString":           true,
	"io.ReadFull":              true,
	"encoding/binary.Write":    true,
	"encoding/json.Indent":     true,
	"encoding/json.Compact":    true,
	"encoding/json.Unmarshal":  true,
	"encoding/json.NewEncoder": true, // the encoder is local and dies with x
	"encoding/json.NewDecoder": true,
	"encoding/xml.Unmarshal":   true,
}

// usesOnly lists method names that, on a type of another module, reset
// or read their receiver and do not hand it on: gzip.Reader.Reset of
// klauspost/compress is as harmless as that of compress/gzip. Write and
// the like are left out: their error returns are often dead code
// (bytebufferpool's WriteString never fails), and reporting the return
// that follows would be noise.
var usesOnly = map[string]bool{
	"Reset": true, "Len": true, "Cap": true, "Bytes": true, "String": true,
}

// harmlessMethod reports whether calling fn on x cannot put x back: a
// method of a standard library or poolkit buffer type, or a method declared
// in this package whose body contains no pool Put.
func (st *state) harmlessMethod(fn *types.Func) bool {
	pkg := fn.Pkg()
	if pkg == nil {
		return false
	}
	if pkg != st.pass.Pkg {
		// Standard library and poolkit buffer methods do not release
		// the caller's values; other packages' methods may, but not
		// those that only reset or read their receiver.
		return pkg.Path() == poolcall.PoolkitByteBuf || !strings.Contains(strings.Split(pkg.Path(), "/")[0], ".") || usesOnly[fn.Name()]
	}
	fn = fn.Origin()
	for _, f := range st.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || st.pass.TypesInfo.Defs[fd.Name] != fn || fd.Body == nil {
				continue
			}
			harmless := true
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if c := st.pc.ByCall[call]; c != nil && c.Op == poolcall.Put {
						harmless = false
					}
					if f := typeutil.StaticCallee(st.pass.TypesInfo, call); f != nil && f.Pkg() == st.pass.Pkg {
						harmless = false // it calls on: do not follow
					}
				}
				return harmless
			})
			return harmless
		}
	}
	return false
}

// noReturnEnd reports whether block b ends in a call that never returns
// (panic, os.Exit, log.Fatal, t.Fatal).
func (st *state) noReturnEnd(b *cfg.Block) bool {
	if len(b.Nodes) == 0 {
		return false
	}
	es, ok := b.Nodes[len(b.Nodes)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	if flow.IsPanic(st.pass.TypesInfo, call) {
		return true
	}
	fn := typeutil.StaticCallee(st.pass.TypesInfo, call)
	if fn == nil {
		return false
	}
	if st.cfgs.NoReturn(fn) {
		return true
	}
	switch fn.FullName() {
	case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln",
		"(*testing.common).Fatal", "(*testing.common).Fatalf", "(*testing.common).FailNow",
		"(*testing.common).Skip", "(*testing.common).Skipf", "(*testing.common).SkipNow", "runtime.Goexit":
		return true
	}
	return false
}

func isVarOrAddr(info *types.Info, e ast.Expr, x *types.Var) bool {
	e = flow.Unconvert(info, e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	return flow.IsVar(info, e, x)
}
