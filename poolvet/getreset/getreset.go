package getreset

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/analyzer"
	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

// Analyzer reports pooled buffers, slices and structs written to before
// they are reset, when the pool does not reset them on Put.
var Analyzer = analyzer.New("getreset", doc, run)

func run(pass *analysis.Pass, pc *poolcall.Info, ins *inspector.Inspector) (any, error) {
	if len(pc.Calls) == 0 {
		return nil, nil
	}
	st := &state{pass: pass, pc: pc, ins: ins, covers: map[types.Object]*cover{}, methods: map[*types.Func]methodEffect{}}
	st.sc = &flow.Scanner{Info: pass.TypesInfo, Assign: st.assignEvent, Call: st.callEvent}
	st.helpers = map[helperKey]methodEffect{}
	st.appendOf = appendTargets(pass.TypesInfo, ins)
	for _, c := range pc.Calls {
		if c.Op != poolcall.Get || c.Pool == nil {
			continue
		}
		if c.Kind == poolcall.ByteBuf || c.Kind == poolcall.SlicePool {
			continue // bytebuf truncates on Put; slicepool.Get returns length 0
		}
		if c.Wrapper != nil && !pc.PlainGetWrapper(c.Wrapper) {
			continue // the wrapper may reset
		}
		b := poolcall.BindGet(pass.TypesInfo, ins, c)
		if b == nil {
			continue
		}
		cov := st.poolCover(c)
		if cov.full {
			continue
		}
		st.check(c, b, cov)
	}
	return nil, nil
}

type state struct {
	pass    *analysis.Pass
	pc      *poolcall.Info
	ins     *inspector.Inspector
	covers  map[types.Object]*cover // memo of poolCover
	methods map[*types.Func]methodEffect
	sc      *flow.Scanner
	helpers map[helperKey]methodEffect
	// appendOf maps a variable assigned append(e, ...) to the variable e
	// is rooted at: b in b := append(*bp, s...) maps to bp.
	appendOf map[*types.Var]*types.Var
	// deferredCalls holds the calls of defer statements (see deferred).
	deferredCalls map[*ast.CallExpr]bool
}

// cover says which parts of the values a pool hands out are known to be
// reset: all of them (full), or, for each Put of the pool, the field paths
// reset before it.
type cover struct {
	full   bool
	perPut [][]string
}

// covers reports whether a write to path is preceded by a reset on every
// path into the pool.
func (c *cover) covers(path string) bool {
	if c.full {
		return true
	}
	for _, resets := range c.perPut {
		if !coveredBy(resets, path) {
			return false
		}
	}
	return len(c.perPut) > 0
}

func coveredBy(resets []string, path string) bool {
	for _, r := range resets {
		if r == "" || path == r || strings.HasPrefix(path, r+".") {
			return true
		}
	}
	return false
}

// poolCover computes what the pool of get resets: everything when the
// package never puts into it, when it is a poolkit pool.Pool built with
// WithReset (or we cannot tell how it is built), or when every Put resets
// the whole value first; else the paths each Put resets.
func (st *state) poolCover(get *poolcall.Call) *cover {
	if c, ok := st.covers[get.Pool]; ok {
		return c
	}
	c := &cover{full: true}
	if get.Kind != poolcall.KitPool || !poolcall.KitPoolMayReset(st.pass, get.Pool) {
		for _, put := range st.pc.Calls {
			if put.Op != poolcall.Put || put.Pool != get.Pool {
				continue
			}
			full, paths := st.putResets(put)
			if !full {
				c.full = false
				c.perPut = append(c.perPut, paths)
			}
		}
	}
	st.covers[get.Pool] = c
	return c
}

// putResets reports whether the value handed to put is reset before it
// reaches the pool, or we cannot tell (full); else the field paths reset
// before it in its block.
func (st *state) putResets(put *poolcall.Call) (full bool, paths []string) {
	put = st.pc.Unwrap(put)
	if put == nil || put.Value == nil {
		return true, nil // a wrapper from elsewhere: cannot tell
	}
	info := st.pass.TypesInfo
	v := flow.Unconvert(info, put.Value)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = ast.Unparen(u.X)
	}
	if s, ok := v.(*ast.SliceExpr); ok && s.Low == nil && isZero(s.High) {
		return true, nil // Put(s[:0])
	}
	x, stmt, ok := poolcall.PutValueVar(info, st.ins, put, true)
	if !ok {
		return true, nil
	}
	for _, s := range flow.Preceding(stmt) {
		paths = append(paths, st.stmtClears(s, x)...)
	}
	if coveredBy(paths, "") {
		return true, nil
	}
	return false, paths
}

// stmtClears returns the field paths of x that the statement s resets on
// every path through it: a reset inside an if counts only when both
// branches make it, or the condition tests x itself (if b.Len() > 0 {
// b.Reset() }), one inside a loop, switch or select not at all.
func (st *state) stmtClears(s ast.Stmt, x *types.Var) []string {
	switch s := s.(type) {
	case *ast.BlockStmt:
		var out []string
		for _, t := range s.List {
			out = append(out, st.stmtClears(t, x)...)
		}
		return out
	case *ast.IfStmt:
		var out []string
		if s.Init != nil {
			out = st.stmtClears(s.Init, x)
		}
		if s.Else == nil {
			if flow.Mentions(st.pass.TypesInfo, s.Cond, x) {
				// if b.Len() > 0 { b.Reset() }: the test is on x's own
				// state; when it fails there is nothing to reset.
				out = append(out, st.stmtClears(s.Body, x)...)
			}
			return out
		}
		els := st.stmtClears(s.Else, x)
		for _, p := range st.stmtClears(s.Body, x) {
			if coveredBy(els, p) {
				out = append(out, p)
			}
		}
		return out
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.LabeledStmt:
		return nil
	}
	var out []string
	st.sc.Scan(s, x, func(ev flow.Event) bool {
		if ev.Kind == flow.Clear {
			out = append(out, ev.Path)
		}
		return true
	})
	return out
}

// appendTargets maps each variable assigned append(e, ...), with e a
// field path of a variable, to that variable.
func appendTargets(info *types.Info, ins *inspector.Inspector) map[*types.Var]*types.Var {
	out := map[*types.Var]*types.Var{}
	record := func(lhs *ast.Ident, rhs ast.Expr) {
		call, ok := ast.Unparen(rhs).(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || !isBuiltin(info, id, "append") {
			return
		}
		root := flow.Root(info, call.Args[0])
		if root == nil {
			return
		}
		if _, ok := flow.Path(info, call.Args[0], root); !ok {
			return
		}
		if v, ok := info.ObjectOf(lhs).(*types.Var); ok && v != root {
			out[v] = root
		}
	}
	ins.Preorder([]ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok {
						record(id, n.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, id := range n.Names {
					record(id, n.Values[i])
				}
			}
		}
	})
	return out
}

// appendedTo reports whether rhs is a variable holding append(x..., ...).
func (st *state) appendedTo(rhs ast.Expr, x *types.Var) bool {
	id, ok := ast.Unparen(rhs).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := st.pass.TypesInfo.ObjectOf(id).(*types.Var)
	return ok && st.appendOf[v] == x
}

func isBuiltin(info *types.Info, id *ast.Ident, name string) bool {
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// assignEvent classifies the left-hand sides of an assignment for scan.
func (st *state) assignEvent(n *ast.AssignStmt, x *types.Var, emit func(flow.Event)) {
	info := st.pass.TypesInfo
	for i, l := range n.Lhs {
		path, ok := flow.Path(info, l, x)
		if !ok {
			if flow.Mentions(info, l, x) {
				// x[i] = v, m[k] = v: an element overwrite.
				continue
			}
			if len(n.Lhs) == len(n.Rhs) && flow.IsVar(info, n.Rhs[i], x) {
				emit(flow.Event{Kind: flow.Escape, Pos: n.Pos()}) // x stored elsewhere
			}
			continue
		}
		var rhs ast.Expr
		if len(n.Lhs) == len(n.Rhs) {
			rhs = n.Rhs[i]
		}
		switch {
		case rhs != nil && isAppendTo(info, rhs, l, x):
			emit(flow.Event{Kind: flow.Write, Path: path, Expr: l, Pos: l.Pos()})
		case flow.IsVar(info, l, x) && (rhs == nil || !isReslice0(info, rhs, x)):
			emit(flow.Event{Kind: flow.Escape, Pos: l.Pos()}) // x itself reassigned
		case rhs != nil && st.appendedTo(rhs, x):
			// *bp = b after b := append(*bp, ...): the old elements are
			// written back, not dropped.
			emit(flow.Event{Kind: flow.Write, Path: path, Expr: l, Pos: l.Pos()})
		default:
			emit(flow.Event{Kind: flow.Clear, Path: path, Pos: l.Pos()})
		}
	}
}

// callEvent classifies a call for scan; it returns whether to descend.
func (st *state) callEvent(call *ast.CallExpr, x *types.Var, emit func(flow.Event)) bool {
	info := st.pass.TypesInfo
	// Builtins.
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "clear":
				if len(call.Args) == 1 {
					if path, ok := flow.Path(info, call.Args[0], x); ok {
						emit(flow.Event{Kind: flow.Clear, Path: path, Pos: call.Pos()})
						return false
					}
				}
			case "len", "cap":
				return false
			case "append":
				// append(*bp, ...) adds to the previous user's elements;
				// append((*bp)[:0], ...) does not.
				if len(call.Args) > 0 {
					if path, ok := flow.Path(info, call.Args[0], x); ok {
						emit(flow.Event{Kind: flow.Write, Path: path, Expr: call.Args[0], Pos: call.Pos()})
						for _, a := range call.Args[1:] {
							st.sc.Scan(a, x, func(ev flow.Event) bool { emit(ev); return true })
						}
						return false
					}
				}
			}
			return true
		}
	}
	if c := st.pc.ByCall[call]; c != nil && c.Op == poolcall.Put {
		return false // handing x back is not a use that resets or writes it
	}
	fn := typeutil.StaticCallee(info, call)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn != nil && fn.Type().(*types.Signature).Recv() != nil {
		if path, ok := flow.Path(info, sel.X, x); ok {
			kind, sub := st.methodKind(fn, call)
			switch kind {
			case flow.Clear:
				for _, p := range sub {
					emit(flow.Event{Kind: flow.Clear, Path: path + p, Pos: call.Pos()})
				}
			case flow.Write:
				emit(flow.Event{Kind: flow.Write, Path: path, Expr: sel.X, Pos: call.Pos()})
			case flow.Escape:
				emit(flow.Event{Kind: flow.Escape, Pos: call.Pos()})
				return false
			}
			// Arguments: x handed to a Reset of one of its fields is fine
			// (gw.w.Reset(gw.buf)); elsewhere it escapes.
			for _, a := range call.Args {
				if fn.Name() == "Reset" {
					if _, ok := flow.Path(info, a, x); ok {
						continue
					}
				}
				st.sc.Scan(a, x, func(ev flow.Event) bool { emit(ev); return true })
			}
			return false
		}
	}
	if fn != nil && fn.Pkg() != nil {
		if i, ok := writerArg[fn.Pkg().Path()+"."+fn.Name()]; ok && i < len(call.Args) {
			if path, ok := flow.Path(info, call.Args[i], x); ok {
				emit(flow.Event{Kind: flow.Write, Path: path, Expr: call.Args[i], Pos: call.Pos()})
				for j, a := range call.Args {
					if j != i && flow.Mentions(info, a, x) {
						emit(flow.Event{Kind: flow.Escape, Pos: a.Pos()})
					}
				}
				return false
			}
		}
	}
	if fn != nil && fn.Pkg() == st.pass.Pkg {
		// A function, or a method of another value (e.writeTo(b)).
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && flow.Mentions(info, sel.X, x) {
			return true
		}
		if st.helperCall(fn, call, x, emit) {
			return false
		}
	}
	return true // other calls: arguments mentioning x stop the scan via the Ident case
}

// helperCall classifies a call of a function or method of this package
// that is given x itself: it writes to x (writeHeader(b, name), which calls
// fmt.Fprintf on its io.Writer), resets it, or does nothing to it that
// matters. It returns false when the function hands x on, or x is not
// one of its arguments, so that the usual walk stops at x.
func (st *state) helperCall(fn *types.Func, call *ast.CallExpr, x *types.Var, emit func(flow.Event)) bool {
	info := st.pass.TypesInfo
	param := -1
	for i, a := range call.Args {
		if flow.IsVar(info, flow.Unconvert(info, a), x) {
			if param >= 0 {
				return false // passed twice
			}
			param = i
		} else if flow.Mentions(info, a, x) {
			return false
		}
	}
	if param < 0 || call.Ellipsis.IsValid() {
		return false
	}
	eff := st.helperEffect(fn.Origin(), param)
	switch eff.kind {
	case flow.Escape:
		return false
	case flow.Write:
		// One event per field path written; the whole value (path "")
		// can be reset right after Get, a field only by the code.
		for _, p := range eff.paths {
			var e ast.Expr
			if p == "" {
				e = call.Args[param]
			}
			emit(flow.Event{Kind: flow.Write, Path: p, Expr: e, Call: call, Pos: call.Pos()})
		}
	case flow.Clear:
		emit(flow.Event{Kind: flow.Clear, Path: "", Pos: call.Pos()})
	}
	return true
}

type helperKey struct {
	fn    *types.Func
	param int
}

// helperEffect says what the function fn of this package does to its
// parameter i before anything else that matters: Write, with the field
// paths it writes ("" for the whole value; seen.c = append(c.seen, x)
// writes ".seen") that it has not reset itself first; Clear (a reset of
// the whole value); Escape (it hands it on, or we cannot tell); or 0
// (nothing: it only reads it).
func (st *state) helperEffect(fn *types.Func, i int) methodEffect {
	key := helperKey{fn, i}
	if e, ok := st.helpers[key]; ok {
		return e
	}
	st.helpers[key] = methodEffect{kind: flow.Escape} // recursion guard
	result := methodEffect{kind: flow.Escape}
	if decl := st.funcDecl(fn); decl != nil && decl.Body != nil {
		sig := fn.Type().(*types.Signature)
		if i < sig.Params().Len() && !(sig.Variadic() && i == sig.Params().Len()-1) {
			p := sig.Params().At(i)
			result = methodEffect{}
			var cleared []string
			st.sc.Scan(decl.Body, p, func(ev flow.Event) bool {
				switch ev.Kind {
				case flow.Write:
					if !coveredBy(cleared, ev.Path) {
						result.kind = flow.Write
						result.paths = append(result.paths, ev.Path)
					}
				case flow.Escape:
					if result.kind != flow.Write {
						result = methodEffect{kind: flow.Escape}
					}
					return false
				case flow.Clear:
					if ev.Path == "" && result.kind != flow.Write {
						result.kind = flow.Clear
						return false
					}
					cleared = append(cleared, ev.Path)
				}
				return true
			})
		}
	}
	st.helpers[key] = result
	return result
}

// funcDecl finds the declaration of a function of this package.
func (st *state) funcDecl(fn *types.Func) *ast.FuncDecl {
	for _, f := range st.pass.Files {
		if f.FileStart > fn.Pos() || fn.Pos() > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && st.pass.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// writerArg lists functions that write to their argument i.
var writerArg = map[string]int{
	"fmt.Fprint":                    0,
	"fmt.Fprintf":                   0,
	"fmt.Fprintln":                  0,
	"io.Copy":                       0,
	"io.CopyN":                      0,
	"io.CopyBuffer":                 0,
	"io.WriteString":                0,
	"encoding/json.NewEncoder":      0,
	"encoding/binary.Write":         0,
	"encoding/xml.NewEncoder":       0,
	"encoding/gob.NewEncoder":       0,
	"encoding/csv.NewWriter":        0,
	"encoding/json.Indent":          0,
	"encoding/json.Compact":         0,
	"encoding/json.HTMLEscape":      0,
	"encoding/hex.NewEncoder":       0,
	"compress/gzip.NewWriter":       0,
	"text/template.Execute":         0,
	"html/template.Execute":         0,
	"text/template.ExecuteTemplate": 0,
	"html/template.ExecuteTemplate": 0,
	"encoding/base64.NewEncoder":    1,
}

// methodEffect is what a method declared in the package does to its
// receiver.
type methodEffect struct {
	kind  flow.EventKind
	paths []string // field paths reset, when kind is flow.Clear
}

// methodKind says what calling fn does to its receiver: flow.Clear (of the
// field paths returned, "" for the whole value), flow.Write, 0 (nothing that
// matters) or flow.Escape (unknown).
func (st *state) methodKind(fn *types.Func, call *ast.CallExpr) (flow.EventKind, []string) {
	k := st.methodKind1(fn, call)
	if k == flow.Clear {
		return flow.Clear, []string{""}
	}
	if k == evLocal {
		m := st.localMethod(fn.Origin())
		return m.kind, m.paths
	}
	return k, nil
}

// evLocal is methodKind1's answer for a method declared in the package.
const evLocal flow.EventKind = -1

func (st *state) methodKind1(fn *types.Func, call *ast.CallExpr) flow.EventKind {
	name := fn.Name()
	recv := fn.Type().(*types.Signature).Recv().Type()
	if p, ok := recv.Underlying().(*types.Pointer); ok {
		recv = p.Elem()
	}
	if types.IsInterface(recv) {
		switch name {
		case "Write", "WriteString", "WriteByte", "WriteRune":
			return flow.Write // w.Write(p) on the io.Writer a helper is given
		}
	}
	switch name {
	case "Reset":
		return flow.Clear
	case "Truncate":
		if len(call.Args) == 1 && isZero(call.Args[0]) {
			return flow.Clear
		}
		return flow.Escape
	}
	if t := knownType(recv); t != "" {
		if t == "bufio.Reader" {
			if strings.HasPrefix(name, "Read") || name == "Peek" || name == "Discard" || name == "WriteTo" || name == "UnreadByte" || name == "UnreadRune" {
				return flow.Write // reads from the previous user's source
			}
			return 0
		}
		switch name {
		case "Write", "WriteString", "WriteByte", "WriteRune", "ReadFrom", "Flush":
			if name == "Flush" && t != "bufio.Writer" {
				return 0
			}
			return flow.Write
		}
		if strings.HasPrefix(name, "Append") && t == poolcall.PoolkitByteBuf+".Buffer" {
			return flow.Write
		}
		return 0
	}
	// A method of this package: look inside for a reset of its receiver.
	if fn.Pkg() == st.pass.Pkg {
		return evLocal
	}
	// A method of another package named Reset-something (ResetDict(r,
	// dict), ResetReader(r), ResetState()): its body is out of sight, and
	// by Go's convention such a method puts the value back in a fresh
	// state, whatever else it takes.
	if strings.HasPrefix(name, "Reset") {
		return flow.Clear
	}
	if streamReset(recv) {
		if st.deferred()[call] {
			return 0 // defer zw.Close(): runs at return, after the Reset
		}
		// A compressor or decompressor (gzip.Writer, zlib, flate, zstd)
		// keeps the previous user's destination or source until
		// Reset(w): writing, reading, flushing or closing it before
		// that goes to the wrong stream.
		switch name {
		case "Write", "WriteString", "WriteByte", "Read", "ReadByte", "Flush", "Close", "ReadFrom", "WriteTo":
			return flow.Write
		}
		return 0
	}
	return flow.Escape
}

// deferred returns the calls of the package's defer statements.
func (st *state) deferred() map[*ast.CallExpr]bool {
	if st.deferredCalls == nil {
		st.deferredCalls = map[*ast.CallExpr]bool{}
		st.ins.Preorder([]ast.Node{(*ast.DeferStmt)(nil)}, func(n ast.Node) {
			st.deferredCalls[n.(*ast.DeferStmt).Call] = true
		})
	}
	return st.deferredCalls
}

// streamReset reports whether *t has a method Reset taking one io.Writer
// or io.Reader: a stream wrapper whose state names its destination or
// source.
func streamReset(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, "Reset")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 1 {
		return false
	}
	n, ok := types.Unalias(sig.Params().At(0).Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "io" && (n.Obj().Name() == "Writer" || n.Obj().Name() == "Reader")
}

// knownType returns "pkg.Name" for the buffer types whose methods we know.
func knownType(t types.Type) string {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	s := named.Obj().Pkg().Path() + "." + named.Obj().Name()
	switch s {
	case "bytes.Buffer", "strings.Builder", "bufio.Writer", "bufio.Reader", poolcall.PoolkitByteBuf + ".Buffer":
		return s
	}
	return ""
}

// localMethod classifies a method declared in the package: flow.Clear with
// the field paths its body resets, flow.Escape when it hands the receiver on or
// cannot be found, 0 otherwise.
func (st *state) localMethod(fn *types.Func) methodEffect {
	if e, ok := st.methods[fn]; ok {
		return e
	}
	st.methods[fn] = methodEffect{kind: flow.Escape} // recursion guard
	var decl *ast.FuncDecl
	for _, f := range st.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && st.pass.TypesInfo.Defs[fd.Name] == fn {
				decl = fd
			}
		}
	}
	result := methodEffect{kind: flow.Escape}
	if decl != nil && decl.Body != nil && decl.Recv != nil && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		recv, _ := st.pass.TypesInfo.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
		if recv != nil {
			result = methodEffect{}
			st.sc.Scan(decl.Body, recv, func(ev flow.Event) bool {
				switch ev.Kind {
				case flow.Clear:
					result.kind = flow.Clear
					result.paths = append(result.paths, ev.Path)
				case flow.Escape:
					result = methodEffect{kind: flow.Escape}
					return false
				}
				return true
			})
		}
	}
	st.methods[fn] = result
	return result
}

// check reports the first write to the pooled variable of b, or to one of
// its fields, not preceded by a reset covering it, here or at every Put.
func (st *state) check(get *poolcall.Call, b *poolcall.Binding, cov *cover) {
	var resets []string
	var helper *ast.CallExpr // a helper whose writes are being looked at
	st.sc.ScanList(b.Rest, b.X, func(ev flow.Event) bool {
		if helper != nil && ev.Call != helper {
			return false // the helper's writes were all covered
		}
		switch ev.Kind {
		case flow.Clear:
			resets = append(resets, ev.Path)
			return true
		case flow.Write:
			if !coveredBy(resets, ev.Path) && !cov.covers(ev.Path) {
				st.report(get, b, ev)
				return false
			}
			if ev.Call != nil {
				helper = ev.Call // a helper's: its other paths come next
				return true
			}
		}
		return false
	})
}

func (st *state) report(get *poolcall.Call, b *poolcall.Binding, ev flow.Event) {
	pass := st.pass
	name := b.X.Name() + ev.Path
	line := pass.Fset.Position(get.Pos()).Line
	diag := analysis.Diagnostic{
		Pos: ev.Pos,
		Message: fmt.Sprintf("%s from %s (Get on line %d) is written before it is reset (no Put of %s resets it)",
			name, get.PoolName, line, get.PoolName),
	}
	if text := st.resetText(ev); text != "" {
		pos := pass.Fset.Position(b.Stmt.Pos())
		indent := strings.Repeat("\t", max(pos.Column-1, 0))
		diag.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   "Reset " + name + " right after Get",
			TextEdits: []analysis.TextEdit{{Pos: b.Stmt.End(), End: b.Stmt.End(), NewText: []byte("\n" + indent + text)}},
		}}
	}
	pass.Report(diag)
}

// resetText returns a statement resetting the written expression, or "".
func (st *state) resetText(ev flow.Event) string {
	if ev.Expr == nil {
		return ""
	}
	e := ast.Unparen(ev.Expr)
	t := st.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return ""
	}
	src := types.ExprString(e)
	if hasNiladicReset(t) {
		return src + ".Reset()"
	}
	if _, ok := t.Underlying().(*types.Slice); ok {
		if _, isStar := e.(*ast.StarExpr); isStar {
			return src + " = (" + src + ")[:0]"
		}
		return src + " = " + src + "[:0]"
	}
	return ""
}

// hasNiladicReset reports whether t (or *t) has a method Reset().
func hasNiladicReset(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Reset")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 0
}

// isAppendTo reports whether rhs is append(l, ...) with l rooted at x.
func isAppendTo(info *types.Info, rhs, l ast.Expr, x *types.Var) bool {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "append" {
		return false
	}
	p1, ok1 := flow.Path(info, call.Args[0], x)
	p2, ok2 := flow.Path(info, l, x)
	return ok1 && ok2 && p1 == p2
}

// isReslice0 reports whether e is x[:0].
func isReslice0(info *types.Info, e ast.Expr, x *types.Var) bool {
	s, ok := ast.Unparen(e).(*ast.SliceExpr)
	return ok && s.Low == nil && isZero(s.High) && flow.IsVar(info, s.X, x)
}

func isZero(e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value == "0"
}
