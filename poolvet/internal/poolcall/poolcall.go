// Package poolcall recognises pool operations for the poolvet analyzers.
//
// Its Analyzer finds, in one package, every call that takes a value from a
// pool or hands one back:
//
//   - (*sync.Pool).Get and Put;
//   - poolkit's (*pool.Pool[T]).Get/Put, (*slicepool.Pool[E]).Get/Put,
//     (*bytebuf.Pool).Get/Put and the package functions bytebuf.Get/Put;
//   - wrappers: functions and methods, generic or not, whose body forwards to
//     one of the above (or to another wrapper), such as
//     func putBuf[T any](p *sync.Pool, v T) { p.Put(v) }. Wrappers declared
//     in other packages are known through facts, so a call to a generic
//     helper is seen at its instantiated call site, where a plain
//     (*sync.Pool).Put check is blind.
//
// For each call it says which pool the call operates on (the types.Object of
// the package variable, struct field or local variable holding it) and, for
// every sync.Pool of the package, which types its New function returns.
//
// The flow analyzers also share here what they need to follow a Get: the
// variable it is bound to (Assignee, BindGet), whether a wrapper hands the
// pool's value through untouched (Info.PlainGetWrapper), and whether a
// poolkit pool.Pool may reset values itself (KitPoolMayReset).
package poolcall

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/objectpath"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
)

// Import paths of the pool packages poolcall knows.
const (
	PoolkitPool      = "github.com/poolkit/poolkit/pool"
	PoolkitSlicePool = "github.com/poolkit/poolkit/slicepool"
	PoolkitByteBuf   = "github.com/poolkit/poolkit/bytebuf"
)

// Op is what a call does with a pool.
type Op int

// The operations.
const (
	Get Op = iota + 1
	Put
)

func (op Op) String() string {
	switch op {
	case Get:
		return "Get"
	case Put:
		return "Put"
	}
	return "Op(?)"
}

// Kind is the type of the pool underneath a call.
type Kind int

// The kinds of pool.
const (
	SyncPool  Kind = iota + 1 // sync.Pool: values travel as any
	KitPool                   // poolkit pool.Pool[T]
	SlicePool                 // poolkit slicepool.Pool[E]
	ByteBuf                   // poolkit bytebuf.Pool, or bytebuf.Get/Put
)

// Call is one pool operation found in the package.
type Call struct {
	Call *ast.CallExpr
	Op   Op
	Kind Kind
	// Cursor is the call's place in the package's syntax (see Find).
	Cursor inspector.Cursor

	// Pool is the variable or field holding the pool the call operates on,
	// or nil when it cannot be named (a pool returned by a call, bytebuf's
	// default pool). Two calls with the same non-nil Pool use the same pool
	// variable; a struct field stands for that field of every value.
	Pool types.Object
	// PoolExpr is the expression denoting the pool at the call site (the
	// receiver, or the pool argument of a wrapper); nil when the pool is
	// implicit (bytebuf.Get, a wrapper over a package variable).
	PoolExpr ast.Expr
	// PoolName names the pool for messages: "bufPool", "s.pool",
	// "bytebuf's default pool".
	PoolName string

	// Value is the argument handed back by a Put (nil for a Get).
	Value ast.Expr

	// Wrapper is the user function or method through which the call
	// reaches the pool, or nil for a direct call. ValueType is the type of
	// the wrapper's parameter receiving Value (for a direct call, the
	// parameter type of the pool method: any for sync.Pool).
	Wrapper   *types.Func
	ValueType types.Type
	// Converted is set when the wrapper converts the value to another
	// concrete type on its way to the pool (putBuf(b []byte) {
	// p.Put((*[N]byte)(b)) }): the pool then receives a value whose type
	// is not Value's.
	Converted bool
}

// Find returns the cursor of the pool call c, or of a call of the package
// that is one (the inner call of a wrapper), without a walk of the
// package's syntax when poolcall recorded it; it falls back to
// Cursor.FindNode.
func Find(ins *inspector.Inspector, c *Call) (inspector.Cursor, bool) {
	if c.Cursor.Valid() {
		return c.Cursor, true
	}
	return ins.Root().FindNode(c.Call)
}

// Pos is where the call is.
func (c *Call) Pos() token.Pos { return c.Call.Pos() }

// NewInfo records what a sync.Pool's New function returns.
type NewInfo struct {
	// Types are the static types of the values New returns, one per return
	// statement, in source order.
	Types []types.Type
	// Pos are the positions where New is set.
	Pos []token.Pos
	// Unknown is set when some New could not be followed (a func value
	// from elsewhere, a return of an interface value) or the pool is also
	// set by other means: then Types is incomplete and must not be used to
	// prove a mismatch.
	Unknown bool
}

// Has reports whether t is identical to one of the types New returns.
func (n *NewInfo) Has(t types.Type) bool {
	for _, nt := range n.Types {
		if types.Identical(nt, t) {
			return true
		}
	}
	return false
}

// Wrapper describes a function that forwards to a pool.
type Wrapper struct {
	Func *types.Func
	Decl *ast.FuncDecl // nil for wrappers from other packages
	Op   Op
	Kind Kind
	// Inner is the forwarded call inside Decl (nil for imported wrappers).
	Inner *Call
	// ValueParam is the index of the parameter handed to Put, ValueRecv
	// when the receiver is (func (b *Buffer) Free() { pool.Put(b) }); -1
	// for Get.
	ValueParam int
	// PoolFrom says where the wrapper finds its pool: PoolGlobal (Global),
	// PoolRecv (the receiver), PoolParam (parameter PoolParam) or
	// PoolImplicit (bytebuf's default pool).
	PoolFrom  PoolSource
	PoolParam int
	Global    types.Object
	// Suffix is the selector path from the receiver or parameter to the
	// pool, such as ".pool" for m.pool.Put(v); Field is then the field
	// holding the pool. Both are empty when the pool is passed as such.
	Suffix string
	Field  types.Object
	// Converts is set when the value is converted to another concrete
	// type on its way to the pool.
	Converts bool
}

// ValueRecv is Wrapper.ValueParam for a method that puts its receiver
// back.
const ValueRecv = -2

// PoolSource says where a wrapper takes its pool from.
type PoolSource int

// The sources.
const (
	PoolImplicit PoolSource = iota
	PoolGlobal
	PoolRecv
	PoolParam
)

// Info is the result of Analyzer for one package.
type Info struct {
	// Calls lists every pool operation of the package in source order.
	Calls []*Call
	// ByCall indexes Calls by their call expression.
	ByCall map[*ast.CallExpr]*Call
	// New maps each sync.Pool variable or field whose New function is set
	// in this package to what New returns.
	New map[types.Object]*NewInfo
	// Wrappers maps the wrapper functions declared in this package.
	Wrappers map[*types.Func]*Wrapper

	fresh map[*types.Func]bool // see Fresh
}

// WrapperFact is exported for each wrapper function, so that calls from
// other packages are recognised.
type WrapperFact struct {
	Op         Op
	Kind       Kind
	ValueParam int
	PoolFrom   PoolSource
	PoolParam  int
	GlobalPath string // objectpath of the global pool, in the wrapper's package
	GlobalName string
	Suffix     string
	FieldPath  string // objectpath of Field, when Suffix is set
	Converts   bool
}

func (*WrapperFact) AFact() {}

func (f *WrapperFact) String() string { return "poolcall.Wrapper(" + f.Op.String() + ")" }

// Analyzer computes an *Info for each package.
var Analyzer = &analysis.Analyzer{
	Name:       "poolcall",
	Doc:        "recognises pool Get/Put calls, wrappers around them and sync.Pool New types (a helper for poolvet)",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Info)(nil)),
	FactTypes:  []analysis.Fact{new(WrapperFact), new(FreshFact)},
}

type state struct {
	pass     *analysis.Pass
	info     *Info
	imported map[*types.Func]*Wrapper
}

func run(pass *analysis.Pass) (any, error) {
	info := &Info{
		ByCall:   map[*ast.CallExpr]*Call{},
		New:      map[types.Object]*NewInfo{},
		Wrappers: map[*types.Func]*Wrapper{},
		fresh:    map[*types.Func]bool{},
	}
	if !relevant(pass) {
		return info, nil
	}
	st := &state{pass: pass, info: info, imported: map[*types.Func]*Wrapper{}}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)

	var decls []*ast.FuncDecl
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil)}, func(n ast.Node) {
		if fd := n.(*ast.FuncDecl); fd.Body != nil {
			decls = append(decls, fd)
		}
	})
	// Find wrappers to a fixpoint: a wrapper of a wrapper is a wrapper.
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || info.Wrappers[fn] != nil {
				continue
			}
			if w := st.wrapper(fd, fn); w != nil {
				info.Wrappers[fn] = w
				changed = true
			}
		}
	}
	for fn, w := range info.Wrappers {
		st.exportFact(fn, w)
	}
	st.collectFresh(decls)

	for cur := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
		if c := st.classify(cur.Node().(*ast.CallExpr)); c != nil {
			c.Cursor = cur
			info.Calls = append(info.Calls, c)
			info.ByCall[c.Call] = c
		}
	}
	st.collectNew(ins)
	return info, nil
}

// relevant reports whether the package can contain pool calls at all: it
// imports sync or a poolkit pool package, or a package exporting wrappers.
func relevant(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		switch imp.Path() {
		case "sync", PoolkitPool, PoolkitSlicePool, PoolkitByteBuf:
			return true
		}
	}
	for _, f := range pass.AllObjectFacts() {
		if _, ok := f.Fact.(*WrapperFact); ok {
			return true
		}
	}
	return false
}

// callee returns the generic origin of the function or method statically
// called by call, or nil.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// direct recognises a call of a pool method or bytebuf.Get/Put.
func direct(fn *types.Func) (Op, Kind, bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, 0, false
	}
	var op Op
	switch fn.Name() {
	case "Get":
		op = Get
	case "Put":
		op = Put
	default:
		return 0, 0, false
	}
	sig := fn.Type().(*types.Signature)
	path := fn.Pkg().Path()
	if sig.Recv() == nil {
		if path == PoolkitByteBuf {
			return op, ByteBuf, true
		}
		return 0, 0, false
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Name() != "Pool" {
		return 0, 0, false
	}
	switch path {
	case "sync":
		return op, SyncPool, true
	case PoolkitPool:
		return op, KitPool, true
	case PoolkitSlicePool:
		return op, SlicePool, true
	case PoolkitByteBuf:
		return op, ByteBuf, true
	}
	return 0, 0, false
}

// lookupWrapper returns the wrapper description of fn, from this package or
// from a fact.
func (st *state) lookupWrapper(fn *types.Func) *Wrapper {
	if fn == nil {
		return nil
	}
	if w := st.info.Wrappers[fn]; w != nil {
		return w
	}
	if fn.Pkg() == st.pass.Pkg {
		return nil
	}
	if w, ok := st.imported[fn]; ok {
		return w
	}
	var f WrapperFact
	var w *Wrapper
	if st.pass.ImportObjectFact(fn, &f) {
		w = &Wrapper{Func: fn, Op: f.Op, Kind: f.Kind, ValueParam: f.ValueParam,
			PoolFrom: f.PoolFrom, PoolParam: f.PoolParam, Suffix: f.Suffix, Converts: f.Converts}
		if f.FieldPath != "" {
			if obj, err := objectpath.Object(fn.Pkg(), objectpath.Path(f.FieldPath)); err == nil {
				w.Field = obj
			}
		}
		if f.PoolFrom == PoolGlobal {
			if obj, err := objectpath.Object(fn.Pkg(), objectpath.Path(f.GlobalPath)); err == nil {
				w.Global = obj
			} else {
				w.PoolFrom = PoolImplicit
			}
		}
	}
	st.imported[fn] = w
	return w
}

func (st *state) exportFact(fn *types.Func, w *Wrapper) {
	f := &WrapperFact{Op: w.Op, Kind: w.Kind, ValueParam: w.ValueParam, PoolFrom: w.PoolFrom, PoolParam: w.PoolParam, Suffix: w.Suffix, Converts: w.Converts}
	if w.Field != nil {
		if p, err := objectpath.For(w.Field); err == nil {
			f.FieldPath = string(p)
		}
	}
	if w.PoolFrom == PoolGlobal {
		p, err := objectpath.For(w.Global)
		if err != nil {
			// An unexported global cannot be named across packages: the
			// importer still knows it is a wrapper, not which pool.
			f.PoolFrom = PoolImplicit
		}
		f.GlobalPath = string(p)
		f.GlobalName = w.Global.Name()
	}
	st.pass.ExportObjectFact(fn, f)
}

// classify returns the pool operation performed by call, or nil.
func (st *state) classify(call *ast.CallExpr) *Call {
	info := st.pass.TypesInfo
	fn := callee(info, call)
	if fn == nil {
		return nil
	}
	if op, kind, ok := direct(fn); ok {
		c := &Call{Call: call, Op: op, Kind: kind}
		sig := fn.Type().(*types.Signature)
		if sig.Recv() != nil {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil // method expression: (*sync.Pool).Put(p, x)
			}
			c.PoolExpr = sel.X
			c.Pool = ObjectOf(info, sel.X)
			c.PoolName = types.ExprString(sel.X)
		} else {
			c.PoolName = "bytebuf's default pool"
		}
		if op == Put && len(call.Args) == 1 {
			c.Value = call.Args[0]
			if sig.Params().Len() == 1 {
				c.ValueType = sig.Params().At(0).Type()
			}
		}
		return c
	}
	w := st.lookupWrapper(fn)
	if w == nil {
		return nil
	}
	c := &Call{Call: call, Op: w.Op, Kind: w.Kind, Wrapper: fn, Converted: w.Converts}
	switch w.PoolFrom {
	case PoolGlobal:
		c.Pool = w.Global
		c.PoolName = w.Global.Name()
		if w.Global.Pkg() != nil && w.Global.Pkg() != st.pass.Pkg {
			c.PoolName = w.Global.Pkg().Name() + "." + c.PoolName
		}
	case PoolRecv:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				st.setBase(c, w, sel.X)
			}
		}
	case PoolParam:
		if w.PoolParam < len(call.Args) {
			st.setBase(c, w, call.Args[w.PoolParam])
		}
	case PoolImplicit:
		if w.Kind == ByteBuf {
			c.PoolName = "bytebuf's default pool"
		}
	}
	if c.PoolName == "" {
		c.PoolName = "the pool used by " + fn.Name()
	}
	if w.Op == Put && w.ValueParam == ValueRecv {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
				c.Value = sel.X
				c.ValueType = fn.Type().(*types.Signature).Recv().Type()
			}
		}
	}
	if w.Op == Put && w.ValueParam >= 0 && w.ValueParam < len(call.Args) {
		c.Value = call.Args[w.ValueParam]
		sig := fn.Type().(*types.Signature)
		if w.ValueParam < sig.Params().Len() {
			c.ValueType = sig.Params().At(w.ValueParam).Type()
		}
	}
	return c
}

// setBase names the pool of a wrapper call reached from base, the
// receiver or pool argument at the call site.
func (st *state) setBase(c *Call, w *Wrapper, base ast.Expr) {
	c.PoolExpr = base
	if w.Suffix == "" {
		c.Pool = ObjectOf(st.pass.TypesInfo, base)
		c.PoolName = types.ExprString(base)
		return
	}
	c.Pool = w.Field
	b := ast.Unparen(base)
	if u, ok := b.(*ast.UnaryExpr); ok && u.Op == token.AND {
		b = u.X
	}
	c.PoolName = types.ExprString(b) + w.Suffix
}

// ObjectOf returns the variable or field an expression denoting a pool is
// rooted at: the field f for x.f, &x.f, x.f[i]; else the variable at the
// root of the expression (flow.Root): x for x, &x, *x, x[i], the package
// variable for pkg.v. It returns nil for anything else (calls, literals).
func ObjectOf(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := flow.Unconvert(info, e).(type) {
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				return s.Obj()
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				e = x.X
				continue
			}
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.IndexExpr:
			e = x.X
			continue
		}
		if v := flow.Root(info, e); v != nil {
			return v
		}
		return nil
	}
}

// wrapper decides whether fd forwards to a pool, and how.
func (st *state) wrapper(fd *ast.FuncDecl, fn *types.Func) *Wrapper {
	info := st.pass.TypesInfo
	sig := fn.Type().(*types.Signature)
	var calls []*Call
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if f := callee(info, n); f == fn {
				return true // recursion
			}
			if c := st.classify(n); c != nil {
				calls = append(calls, c)
			}
		}
		return true
	})
	if len(calls) != 1 {
		return nil
	}
	inner := calls[0]
	w := &Wrapper{Func: fn, Decl: fd, Op: inner.Op, Kind: inner.Kind, Inner: inner, ValueParam: -1}

	// Where does the pool come from?
	switch {
	case inner.PoolExpr == nil:
		if inner.Wrapper != nil {
			iw := st.lookupWrapper(inner.Wrapper)
			w.PoolFrom, w.Global = iw.PoolFrom, iw.Global
			if w.PoolFrom == PoolGlobal && w.Global == nil {
				w.PoolFrom = PoolImplicit
			}
		} else {
			w.PoolFrom = PoolImplicit // bytebuf.Get/Put
		}
	default:
		root := flow.RootIdent(info, inner.PoolExpr)
		var obj types.Object
		if root != nil {
			obj = info.ObjectOf(root)
		}
		if obj == nil {
			return nil
		}
		switch {
		case isPkgName(obj) && inner.Pool != nil && inner.Pool.Parent() == inner.Pool.Pkg().Scope():
			w.PoolFrom, w.Global = PoolGlobal, inner.Pool
		case sig.Recv() != nil && obj == sig.Recv():
			w.PoolFrom = PoolRecv
			w.Suffix, w.Field = suffix(inner, root)
		case paramIndex(sig, obj) >= 0:
			w.PoolFrom, w.PoolParam = PoolParam, paramIndex(sig, obj)
			w.Suffix, w.Field = suffix(inner, root)
		case obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() && inner.Pool != nil:
			w.PoolFrom, w.Global = PoolGlobal, inner.Pool
		default:
			return nil // a local pool: not a forwarder
		}
	}

	switch inner.Op {
	case Put:
		if inner.Value == nil {
			return nil
		}
		v, converts := flow.StripConversions(info, inner.Value)
		w.Converts = converts || inner.Converted
		id, ok := v.(*ast.Ident)
		if !ok {
			return nil
		}
		i := paramIndex(sig, info.ObjectOf(id))
		if i < 0 && sig.Recv() != nil && info.ObjectOf(id) == sig.Recv() && !w.Converts {
			i = ValueRecv // b.Free() puts b back
		}
		if i == -1 || (w.PoolFrom == PoolParam && i == w.PoolParam) {
			return nil
		}
		if assigned(info, fd.Body, info.ObjectOf(id)) {
			// if p == nil { p = get() ...; defer p.free() }: what goes
			// back may be a value of the function's own, not the caller's.
			return nil
		}
		w.ValueParam = i
	case Get:
		if sig.Results().Len() != 1 || !forwardsGet(info, fd, inner.Call) {
			return nil
		}
	}
	return w
}

// assigned reports whether the variable obj is assigned, or its address
// taken, in body.
func assigned(info *types.Info, body *ast.BlockStmt, obj types.Object) bool {
	found := false
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.ObjectOf(id) == obj
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && is(n.X))
		case *ast.RangeStmt:
			found = found || (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value))
		}
		return !found
	})
	return found
}

// forwardsGet reports whether every return statement of fd returns the
// value of get (directly, through a type assertion or conversion, or
// through a local variable assigned from it), or a fresh value (&T{...},
// new(T)) as a fallback when the pool is empty (if v == nil { return
// &T{} }), with at least one return of get's value.
func forwardsGet(info *types.Info, fd *ast.FuncDecl, get *ast.CallExpr) bool {
	fromGet := func(e ast.Expr) bool { return rootCall(info, e) == get }
	holders := map[types.Object]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if !fromGet(rhs) {
					continue
				}
				if len(n.Lhs) == len(n.Rhs) || i == 0 {
					if id, ok := n.Lhs[i].(*ast.Ident); ok {
						if obj := info.ObjectOf(id); obj != nil {
							holders[obj] = true
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, rhs := range n.Values {
				if fromGet(rhs) && i < len(n.Names) {
					holders[info.ObjectOf(n.Names[i])] = true
				}
			}
		}
		return true
	})
	ok, returns := true, 0
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
				return false
			}
			r := ast.Unparen(n.Results[0])
			if fromGet(r) {
				returns++
				return false
			}
			if id, isID := stripAssert(info, r).(*ast.Ident); isID && holders[info.ObjectOf(id)] {
				returns++
				return false
			}
			if isFresh(info, r) {
				return false
			}
			ok = false
		}
		return true
	})
	return ok && returns > 0
}

// stripAssert returns e without the parentheses, type assertions and
// conversions around it.
func stripAssert(info *types.Info, e ast.Expr) ast.Expr {
	for {
		e = flow.Unconvert(info, e)
		ta, ok := e.(*ast.TypeAssertExpr)
		if !ok {
			return e
		}
		e = ta.X
	}
}

// isFresh reports whether e is &T{...} or new(T).
func isFresh(info *types.Info, e ast.Expr) bool {
	switch r := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(r.X).(*ast.CompositeLit)
		return lit && r.Op == token.AND
	case *ast.CallExpr:
		id, ok := ast.Unparen(r.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := info.Uses[id].(*types.Builtin)
		return ok && b.Name() == "new"
	}
	return false
}

// rootCall strips parens, type assertions and conversions and returns the
// call underneath, if any.
func rootCall(info *types.Info, e ast.Expr) *ast.CallExpr {
	for {
		switch x := flow.Unconvert(info, e).(type) {
		case *ast.TypeAssertExpr:
			e = x.X
		case *ast.CallExpr:
			return x
		default:
			return nil
		}
	}
}

func paramIndex(sig *types.Signature, obj types.Object) int {
	if obj == nil {
		return -1
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == obj {
			return i
		}
	}
	return -1
}

func isPkgName(obj types.Object) bool {
	_, ok := obj.(*types.PkgName)
	return ok
}

// suffix returns the selector path from root to the pool of inner
// (".pool" for &m.pool) and the field at its end; "" and nil when the pool
// is root itself.
func suffix(inner *Call, root *ast.Ident) (string, types.Object) {
	e := ast.Unparen(inner.PoolExpr)
	for {
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
			continue
		}
		if s, ok := e.(*ast.StarExpr); ok {
			e = ast.Unparen(s.X)
			continue
		}
		break
	}
	if e == ast.Expr(root) {
		return "", nil
	}
	s := types.ExprString(e)
	if !strings.HasPrefix(s, root.Name) || inner.Pool == nil {
		return "", nil
	}
	return s[len(root.Name):], inner.Pool
}
