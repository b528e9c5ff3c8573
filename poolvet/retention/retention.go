package retention

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/poolkit/poolkit/poolvet/internal/analyzer"
	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Analyzer reports pooled buffers grown from input and kept whatever their
// size. It is opt-in: poolvet.Analyzers(false) leaves it out.
var Analyzer = analyzer.New("retention", doc, run)

// growth is a pooled value growing from input in a function that puts it
// back without checking its size.
type growth struct {
	get, grow, put token.Pos
	what           string // "b.ReadFrom", "io.Copy"
}

func run(pass *analysis.Pass, info *poolcall.Info, ins *inspector.Inspector) (any, error) {
	if len(info.Calls) == 0 {
		return nil, nil
	}

	// Evidence, per direct Put: values got, grown from input and put back
	// unchecked, reaching that Put directly or through wrappers.
	evidence := map[*ast.CallExpr]growth{}
	h := newHelpers(pass, info)
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)}, func(n ast.Node) {
		var typ *ast.FuncType
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			typ, body = n.Type, n.Body
		case *ast.FuncLit:
			typ, body = n.Type, n.Body
		}
		if body == nil {
			return
		}
		scanFunc(pass, info, h, typ, body, evidence)
	})
	fs := newFields(pass, h.decls)
	// Buffer fields given pooled values and grown elsewhere: evidence
	// for the direct Put each Put of such a field ends in.
	pooled := fs.pooledFields(info)
	// In the order of their growth, so that the evidence kept for a Put
	// two fields reach is always the same.
	order := slices.SortedFunc(maps.Keys(pooled), func(a, b *types.Var) int { return cmp.Compare(pooled[a].grow.pos, pooled[b].grow.pos) })
	for _, fv := range order {
		pf := pooled[fv]
		for _, c := range info.Calls {
			if c.Op != poolcall.Put || c.Pool != pf.get.Pool || c.Value == nil || fieldOf(pass.TypesInfo, flow.Unconvert(pass.TypesInfo, c.Value)) != fv {
				continue
			}
			if d := direct(info, c); d != nil {
				if _, seen := evidence[d]; !seen {
					evidence[d] = growth{get: pf.get.Pos(), grow: pf.grow.pos, what: pf.grow.what}
				}
			}
		}
	}

	// Report each direct Put into such a pool that is not itself guarded.
	for _, c := range info.Calls {
		if c.Op != poolcall.Put || c.Kind != poolcall.SyncPool || c.Wrapper != nil || c.Pool == nil || c.Value == nil {
			continue
		}
		v := rootObj(pass.TypesInfo, c.Value)
		if v == nil {
			continue
		}
		body := enclosingBody(ins, c)
		if body == nil || guarded(pass.TypesInfo, body, v) {
			continue
		}
		var msg string
		if g, ok := evidence[c.Call]; ok {
			msg = fmt.Sprintf("%s.Put keeps %s whatever its size (got on line %d, grown from input on line %d by %s)",
				c.PoolName, types.ExprString(c.Value), line(pass, g.get), line(pass, g.grow), g.what)
		} else if fv, g, ok := fs.methodGrowth(c, body); ok {
			msg = fmt.Sprintf("%s.Put keeps %s whatever the size of its %s (grown from input on line %d by %s)",
				c.PoolName, types.ExprString(c.Value), fv.Name(), line(pass, g.pos), g.what)
		} else {
			continue
		}
		d := analysis.Diagnostic{
			Pos:     c.Call.Pos(),
			End:     c.Call.End(),
			Message: msg,
		}
		if fix := guardFix(pass, ins, c); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		pass.Report(d)
	}
	return nil, nil
}

func line(pass *analysis.Pass, p token.Pos) int { return pass.Fset.Position(p).Line }

// scanFunc records evidence found in one function body.
func scanFunc(pass *analysis.Pass, info *poolcall.Info, h *helpers, typ *ast.FuncType, body *ast.BlockStmt, evidence map[*ast.CallExpr]growth) {
	ti := pass.TypesInfo
	// Variables holding values got from a pool in this body.
	got := map[types.Object]*poolcall.Call{}
	ast.Inspect(body, func(n ast.Node) bool {
		var lhs []ast.Expr
		var rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs, rhs = n.Lhs, n.Rhs
		case *ast.ValueSpec:
			for _, id := range n.Names {
				lhs = append(lhs, id)
			}
			rhs = n.Values
		default:
			return true
		}
		for i, r := range rhs {
			call := getCall(r)
			if call == nil {
				continue
			}
			c := info.ByCall[call]
			if c == nil || c.Op != poolcall.Get || c.Kind != poolcall.SyncPool || c.Pool == nil || i >= len(lhs) {
				continue
			}
			if id, ok := lhs[i].(*ast.Ident); ok {
				if obj := ti.ObjectOf(id); obj != nil {
					got[obj] = c
				}
			}
		}
		return true
	})
	if len(got) == 0 {
		return
	}
	params := derive(ti, body, paramSet(ti, typ, nil), got)
	loops := loopSpans(body)
	derived := map[types.Object]derivation{}
	ast.Inspect(body, func(n ast.Node) bool {
		var v types.Object
		var what string
		var call *ast.CallExpr
		switch n := n.(type) {
		case *ast.AssignStmt:
			c, lhs, arg, w := growsInto(ti, n, params, loops)
			switch {
			case c != nil && got[lhs] != nil:
				call, v, what = c, lhs, w // grown in place
			case c != nil && got[arg] != nil:
				derived[lhs] = derivation{arg, c, w} // a grown copy, for now
			case len(n.Lhs) == 1 && len(n.Rhs) == 1:
				// *bp = out: the grown copy written back.
				if id, ok := ast.Unparen(n.Rhs[0]).(*ast.Ident); ok {
					if d, ok := derived[ti.ObjectOf(id)]; ok && rootObj(ti, n.Lhs[0]) == d.from {
						call, v, what = d.call, d.from, d.what
					}
				}
			}
		case *ast.CallExpr:
			call = n
			v, what = grows(pass, n, params)
			if v == nil {
				v, what = h.growsArg(n, params)
			}
		}
		if v == nil {
			return true
		}
		get := got[v]
		if get == nil {
			return true
		}
		if guarded(ti, body, v) {
			return true
		}
		if put := putOf(info, ti, body, get.Pool, v, h); put != nil {
			d := direct(info, put)
			if _, seen := evidence[d]; d != nil && !seen {
				evidence[d] = growth{get: get.Pos(), grow: call.Pos(), put: put.Pos(), what: what}
			}
		}
		return true
	})
}

// getCall returns the call under a type assertion, and under a
// dereference of one (*pool.Get().(*[]byte), a copy of the pooled
// header), if any.
func getCall(e ast.Expr) *ast.CallExpr {
	e = ast.Unparen(e)
	if st, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(st.X)
	}
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		e = ast.Unparen(ta.X)
	}
	c, _ := e.(*ast.CallExpr)
	return c
}

// grows recognises a call making the value rooted at its result grow from
// input, and returns that value's variable and a short description.
func grows(pass *analysis.Pass, call *ast.CallExpr, params map[types.Object]bool) (types.Object, string) {
	ti := pass.TypesInfo
	fn := typeutil.StaticCallee(ti, call)
	if fn == nil {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "append" && len(call.Args) >= 2 {
			if _, isBuiltin := ti.Uses[id].(*types.Builtin); isBuiltin && fromParams(ti, call.Args[1:], params) {
				return rootObj(ti, call.Args[0]), "append of caller data"
			}
		}
		return nil, ""
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		if fn.Pkg() != nil && fn.Pkg().Path() == "io" && len(call.Args) >= 2 {
			switch fn.Name() {
			case "Copy", "CopyN", "CopyBuffer":
				if growable(pass, ti.TypeOf(call.Args[0])) {
					return rootObj(ti, call.Args[0]), "io." + fn.Name()
				}
			}
		}
		return nil, ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	if !growable(pass, ti.TypeOf(sel.X)) {
		return nil, ""
	}
	switch fn.Name() {
	case "ReadFrom":
		return rootObj(ti, sel.X), types.ExprString(sel.X) + ".ReadFrom"
	case "Write", "WriteString":
		if fromParams(ti, call.Args, params) {
			return rootObj(ti, sel.X), types.ExprString(sel.X) + "." + fn.Name() + " of caller data"
		}
	}
	return nil, ""
}

// growsInto recognises an assignment whose call returns a slice grown from
// one of its arguments: buf.data, err = Append(buf.data[:0], x) or
// out, err := dec.DecodeAll(src, (*bp)[:0]), another argument mentioning
// a parameter (the caller's data). It returns the call, the variables the
// result and that argument are rooted at, and what grows it.
//
// A call that appends a bounded number of bytes whatever its arguments
// (strconv.AppendInt and its kin, see boundedAppend) grows nothing from
// input when it starts from an emptied slice (x[:0]) or runs once per
// pass through the function, outside any loop: the result holds at most
// a few dozen bytes. In a loop it is growth like any other.
func growsInto(ti *types.Info, as *ast.AssignStmt, params map[types.Object]bool, loops spans) (call *ast.CallExpr, lhs, arg types.Object, what string) {
	if len(as.Rhs) != 1 || len(as.Lhs) == 0 {
		return nil, nil, nil, ""
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil, nil, nil, ""
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := ti.Uses[id].(*types.Builtin); builtin {
			return nil, nil, nil, "" // append: grows handles it
		}
	}
	if tv, ok := ti.Types[call.Fun]; ok && tv.IsType() {
		return nil, nil, nil, ""
	}
	if boundedAppend(ti, call) && len(call.Args) > 0 && (emptied(call.Args[0]) || !loops.contain(as.Pos())) {
		return nil, nil, nil, ""
	}
	lhs = rootObj(ti, as.Lhs[0])
	if lhs == nil {
		return nil, nil, nil, ""
	}
	if _, ok := ti.TypeOf(as.Lhs[0]).Underlying().(*types.Slice); !ok {
		return nil, nil, nil, ""
	}
	for i, a := range call.Args {
		if _, ok := ti.TypeOf(a).Underlying().(*types.Slice); !ok {
			continue
		}
		root := rootObj(ti, a)
		if root == nil || params[root] {
			continue
		}
		rest := append(append([]ast.Expr(nil), call.Args[:i]...), call.Args[i+1:]...)
		if fromParams(ti, rest, params) {
			return call, lhs, root, types.ExprString(call.Fun) + " of caller data"
		}
	}
	return nil, nil, nil, ""
}

// derive adds to params the local variables of body that hold the
// caller's data too: those assigned, or ranged over, from an expression
// mentioning a parameter or such a variable (chunk, err :=
// r.ReadSlice(delim) for a parameter r; for _, f := range fields). A
// variable is left out when it is one of skip (the pooled values), or its
// own assignment mentions it or a pooled value (buf = append(buf, p...)
// grows buf, and out, err := dec.DecodeAll(src, (*bp)[:0]) is the pooled
// memory: neither is the caller's data).
func derive(ti *types.Info, body *ast.BlockStmt, params map[types.Object]bool, skip map[types.Object]*poolcall.Call) map[types.Object]bool {
	out := maps.Clone(params)
	mentions := func(e ast.Expr, o types.Object) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && ti.Uses[id] == o {
				found = true
			}
			return !found
		})
		return found
	}
	local := func(e ast.Expr) types.Object {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		o := ti.ObjectOf(id)
		if v, ok := o.(*types.Var); !ok || v.IsField() || v.Pos() < body.Pos() || v.Pos() >= body.End() {
			return nil
		}
		if _, pooled := skip[o]; pooled || out[o] {
			return nil
		}
		return o
	}
	taint := func(lhs ast.Expr, rhs ast.Expr) bool {
		o := local(lhs)
		if o == nil || !fromParams(ti, []ast.Expr{rhs}, out) || mentions(rhs, o) {
			return false
		}
		for p := range skip {
			if mentions(rhs, p) {
				return false // made from the pooled memory: not the caller's data
			}
		}
		out[o] = true
		return true
	}
	// Twice, so that a loop's later assignments reach its earlier uses.
	for range 2 {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					r := n.Rhs[0]
					if len(n.Rhs) == len(n.Lhs) {
						r = n.Rhs[i]
					}
					taint(l, r)
				}
			case *ast.RangeStmt:
				if n.Key != nil {
					taint(n.Key, n.X)
				}
				if n.Value != nil {
					taint(n.Value, n.X)
				}
			}
			return true
		})
	}
	return out
}

// boundedAppend reports whether call is one of the standard library's
// append functions whose output has a fixed upper size whatever the
// values given: the decimal or binary form of one number, boolean or
// rune (strconv.AppendInt, AppendUint, AppendFloat, AppendBool,
// utf8.AppendRune, binary.AppendUvarint and AppendVarint, and the
// AppendUint16/32/64 methods of binary's byte orders). strconv's
// AppendQuote functions are not bounded: they copy a caller's string.
func boundedAppend(ti *types.Info, call *ast.CallExpr) bool {
	fn := typeutil.Callee(ti, call)
	f, ok := fn.(*types.Func)
	if !ok || f.Pkg() == nil {
		return false
	}
	switch f.Pkg().Path() {
	case "strconv":
		switch f.Name() {
		case "AppendInt", "AppendUint", "AppendFloat", "AppendBool":
			return true
		}
	case "unicode/utf8":
		return f.Name() == "AppendRune"
	case "encoding/binary":
		switch f.Name() {
		case "AppendUvarint", "AppendVarint", "AppendUint16", "AppendUint32", "AppendUint64":
			return true
		}
	}
	return false
}

// emptied reports whether e is a slice expression x[:0] (or x[0:0]).
func emptied(e ast.Expr) bool {
	sl, ok := ast.Unparen(e).(*ast.SliceExpr)
	if !ok || sl.Slice3 || sl.High == nil {
		return false
	}
	isZero := func(e ast.Expr) bool {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		return ok && lit.Value == "0"
	}
	return (sl.Low == nil || isZero(sl.Low)) && isZero(sl.High)
}

// spans are the source ranges of the loop bodies of a function.
type spans [][2]token.Pos

// loopSpans returns the ranges of the for and range statements in body,
// those of function literals included.
func loopSpans(body *ast.BlockStmt) spans {
	var s spans
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			s = append(s, [2]token.Pos{n.Pos(), n.End()})
		case *ast.RangeStmt:
			s = append(s, [2]token.Pos{n.Pos(), n.End()})
		}
		return true
	})
	return s
}

func (s spans) contain(p token.Pos) bool {
	for _, r := range s {
		if r[0] <= p && p < r[1] {
			return true
		}
	}
	return false
}

// derivation is a slice a call returned grown from a pooled one (out in
// out, err := dec.DecodeAll(src, (*bp)[:0])).
type derivation struct {
	from types.Object // the pooled variable
	call *ast.CallExpr
	what string
}

// helpers answers, for functions of the package, whether they grow or put
// back one of their parameters.
type helpers struct {
	pass  *analysis.Pass
	info  *poolcall.Info
	decls map[*types.Func]*ast.FuncDecl
}

func newHelpers(pass *analysis.Pass, info *poolcall.Info) *helpers {
	h := &helpers{pass: pass, info: info, decls: map[*types.Func]*ast.FuncDecl{}}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					h.decls[fn] = fd
				}
			}
		}
	}
	return h
}

// param returns the declaration of the function call calls, and its
// parameter i, when it is a function of the package.
func (h *helpers) param(call *ast.CallExpr, i int) (*ast.FuncDecl, *types.Var) {
	fn := typeutil.StaticCallee(h.pass.TypesInfo, call)
	if fn == nil {
		return nil, nil
	}
	fd := h.decls[fn.Origin()]
	if fd == nil {
		return nil, nil
	}
	sig := fn.Origin().Type().(*types.Signature)
	if i >= sig.Params().Len() || (sig.Variadic() && i == sig.Params().Len()-1) {
		return nil, nil
	}
	return fd, sig.Params().At(i)
}

// growsArg reports whether call hands a variable to a function of the
// package that grows that parameter from its other parameters (fill(b, in)
// with fill calling b.Write(in)), the other arguments mentioning the
// caller's parameters params; it returns the variable and what grows it.
func (h *helpers) growsArg(call *ast.CallExpr, params map[types.Object]bool) (types.Object, string) {
	ti := h.pass.TypesInfo
	for i, a := range call.Args {
		v := rootObj(ti, a)
		if v == nil {
			continue
		}
		rest := append(append([]ast.Expr(nil), call.Args[:i]...), call.Args[i+1:]...)
		if !fromParams(ti, rest, params) {
			continue
		}
		fd, p := h.param(call, i)
		if p == nil {
			continue
		}
		if what := h.grows(fd, p); what != "" {
			return v, types.ExprString(call.Fun) + ": " + what
		}
	}
	return nil, ""
}

// grows says what grows the parameter p of fd from its other parameters,
// or "".
func (h *helpers) grows(fd *ast.FuncDecl, p *types.Var) string {
	ti := h.pass.TypesInfo
	if _, ok := p.Type().Underlying().(*types.Slice); ok {
		return "" // the callee grows its copy of the header; the caller's slice stays
	}
	params := derive(ti, fd.Body, paramSet(ti, fd.Type, p), map[types.Object]*poolcall.Call{p: nil})
	if guarded(ti, fd.Body, p) {
		return ""
	}
	loops := loopSpans(fd.Body)
	what := ""
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if what != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if v, w := grows(h.pass, n, params); v == p {
				what = w
			}
		case *ast.AssignStmt:
			if _, v, _, w := growsInto(ti, n, params, loops); v == p {
				what = w
			}
		}
		return true
	})
	return what
}

// putsParam returns the direct Put into pool of parameter i of the function
// call calls, when that function puts it back with no capacity check.
func (h *helpers) putsParam(call *ast.CallExpr, i int, pool types.Object) *poolcall.Call {
	fd, p := h.param(call, i)
	if p == nil || guarded(h.pass.TypesInfo, fd.Body, p) {
		return nil
	}
	var found *poolcall.Call
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		if pc := h.info.ByCall[c]; pc != nil && pc.Op == poolcall.Put && pc.Pool == pool && pc.Value != nil && rootObj(h.pass.TypesInfo, pc.Value) == p {
			found = pc
		}
		return true
	})
	return found
}

// fromParams reports whether any of args mentions a parameter: the
// caller's data, or something derived from it.
func fromParams(ti *types.Info, args []ast.Expr, params map[types.Object]bool) bool {
	found := false
	for _, a := range args {
		ast.Inspect(a, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && params[ti.Uses[id]] {
				found = true
			}
			return !found
		})
	}
	return found
}

// putOf returns a Put of v into pool inside body, or inside a function
// of the package that body hands v to and that puts it back unchecked
// (finish(b), whose body ends in bufPool.Put(b)).
func putOf(info *poolcall.Info, ti *types.Info, body *ast.BlockStmt, pool types.Object, v types.Object, h *helpers) *poolcall.Call {
	var found *poolcall.Call
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		c := info.ByCall[call]
		if c != nil && c.Op == poolcall.Put && c.Pool == pool && c.Value != nil && rootObj(ti, c.Value) == v {
			found = c
			return false
		}
		if c == nil {
			for i, a := range call.Args {
				if flow.IsVar(ti, flow.Unconvert(ti, a), asVar(v)) {
					if put := h.putsParam(call, i, pool); put != nil {
						found = put
						return false
					}
				}
			}
		}
		return true
	})
	return found
}

func asVar(o types.Object) *types.Var {
	v, _ := o.(*types.Var)
	return v
}

// guarded reports whether body compares the length or capacity of the
// value rooted at v: cap(v.B) > n, v.Cap() <= max, len(*v) < n, ...
func guarded(ti *types.Info, body *ast.BlockStmt, v types.Object) bool {
	found := false
	eachCompared(body, func(e ast.Expr) { found = found || rootObj(ti, e) == v })
	return found
}

// rootObj returns the variable at the root of e (flow.Root) as an
// object, nil when there is none.
func rootObj(ti *types.Info, e ast.Expr) types.Object {
	if v := flow.Root(ti, e); v != nil {
		return v
	}
	return nil
}

// enclosingBody returns the body of the innermost function around c.
func enclosingBody(ins *inspector.Inspector, c *poolcall.Call) *ast.BlockStmt {
	cur, ok := poolcall.Find(ins, c)
	if !ok {
		return nil
	}
	return flow.EnclosingBody(cur)
}

// direct follows a Put through wrappers of this package to the direct
// Put it ends in, or returns nil.
func direct(info *poolcall.Info, c *poolcall.Call) *ast.CallExpr {
	for i := 0; c != nil && i < 8; i++ {
		if c.Wrapper == nil {
			return c.Call
		}
		w := info.Wrappers[c.Wrapper]
		if w == nil {
			return nil
		}
		c = w.Inner
	}
	return nil
}

// knownGrowable lists buffer types of other packages that grow with what
// is written to them.
var knownGrowable = map[string]bool{
	"bytes.Buffer":    true,
	"strings.Builder": true,
	"github.com/poolkit/poolkit/bytebuf.Buffer":    true,
	"github.com/valyala/bytebufferpool.ByteBuffer": true,
	"go.uber.org/zap/buffer.Buffer":                true,
}

// growable reports whether writing to a value of type t can make it
// keep more memory: the buffers above, named slice types, and types of
// this package whose Write-like methods append to a field of the receiver.
// Writers that only pass data through (compressors, hashes, bufio) are not
// growable.
func growable(pass *analysis.Pass, t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Slice); ok {
		return true
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	obj := named.Obj()
	if knownGrowable[obj.Pkg().Path()+"."+obj.Name()] {
		return true
	}
	if obj.Pkg() != pass.Pkg {
		return false
	}
	// A type of this package: does one of its methods append to the
	// receiver?
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
				continue
			}
			m, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if m == nil || !isMethodOf(m, named) {
				continue
			}
			switch m.Name() {
			case "Write", "WriteString", "WriteByte", "ReadFrom":
			default:
				continue
			}
			recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
			if appendsTo(pass.TypesInfo, fd.Body, recv) {
				return true
			}
		}
	}
	return false
}

func isMethodOf(m *types.Func, named *types.Named) bool {
	r := m.Type().(*types.Signature).Recv()
	if r == nil {
		return false
	}
	t := r.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Origin() == named.Origin()
}

// appendsTo reports whether body assigns append(...) to something rooted
// at recv.
func appendsTo(ti *types.Info, body *ast.BlockStmt, recv types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		for i, r := range as.Rhs {
			call, ok := ast.Unparen(r).(*ast.CallExpr)
			if !ok || i >= len(as.Lhs) {
				continue
			}
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "append" && rootObj(ti, as.Lhs[i]) == recv {
				found = true
			}
		}
		return !found
	})
	return found
}

// maxRetained is the capacity the suggested fix keeps, in elements: 64 KiB
// of bytes, the limit encoding/json v2 and log/slog use.
const maxRetained = "64<<10"

// guardFix suggests wrapping a Put statement in a capacity check, when the
// Put is a statement of its own and the value's capacity has an obvious
// expression: b.Cap() for the buffer types, cap(*p) for a pointer to a
// slice, cap(s) for a slice.
func guardFix(pass *analysis.Pass, ins *inspector.Inspector, c *poolcall.Call) *analysis.SuggestedFix {
	cur, ok := poolcall.Find(ins, c)
	if !ok {
		return nil
	}
	stmt, ok := cur.Parent().Node().(*ast.ExprStmt)
	if !ok {
		return nil
	}
	v := ast.Unparen(c.Value)
	if _, ok := v.(*ast.Ident); !ok {
		return nil
	}
	name := types.ExprString(v)
	var capExpr string
	t := pass.TypesInfo.TypeOf(v)
	if t == nil {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		capExpr = "cap(" + name + ")"
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Slice); ok {
			capExpr = "cap(*" + name + ")"
			break
		}
		n, ok := types.Unalias(u.Elem()).(*types.Named)
		if !ok || n.Obj().Pkg() == nil {
			return nil
		}
		switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
		case "bytes.Buffer", "strings.Builder", "github.com/poolkit/poolkit/bytebuf.Buffer", "github.com/valyala/bytebufferpool.ByteBuffer":
			capExpr = name + ".Cap()"
		default:
			return nil
		}
	default:
		return nil
	}
	return &analysis.SuggestedFix{
		Message: "put back only values of at most " + maxRetained + " capacity",
		TextEdits: []analysis.TextEdit{
			{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte("if " + capExpr + " <= " + maxRetained + " {\n")},
			{Pos: stmt.End(), End: stmt.End(), NewText: []byte("\n}")},
		},
	}
}
