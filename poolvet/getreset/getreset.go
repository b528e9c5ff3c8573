package getreset

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/docs"
	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
)

//go:embed doc.go
var doc string

// Analyzer reports pooled buffers, slices and structs written to before
// they are reset, when the pool does not reset them on Put.
var Analyzer = &analysis.Analyzer{
	Name:     "getreset",
	Doc:      docs.Extract(doc, "getreset"),
	URL:      "https://pkg.go.dev/github.com/poolkit/poolkit/poolvet/getreset",
	Requires: []*analysis.Analyzer{inspect.Analyzer, poolcall.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	pc := pass.ResultOf[poolcall.Analyzer].(*poolcall.Info)
	if len(pc.Calls) == 0 {
		return nil, nil
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	st := &state{pass: pass, pc: pc, ins: ins, covers: map[types.Object]*cover{}, methods: map[*types.Func]methodEffect{}}
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
		b := poolcall.BindGet(pass.TypesInfo, ins, c.Call)
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
			full, paths := st.putResets(put, 0)
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
func (st *state) putResets(put *poolcall.Call, depth int) (full bool, paths []string) {
	if put.Wrapper != nil {
		w := st.pc.Wrappers[put.Wrapper]
		if w == nil || w.Inner == nil || depth > 4 {
			return true, nil // a wrapper from elsewhere: cannot tell
		}
		return st.putResets(w.Inner, depth+1)
	}
	if put.Value == nil {
		return true, nil
	}
	info := st.pass.TypesInfo
	v := flow.Unconvert(info, put.Value)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = ast.Unparen(u.X)
	}
	if s, ok := v.(*ast.SliceExpr); ok && s.Low == nil && isZero(s.High) {
		return true, nil // Put(s[:0])
	}
	id, ok := v.(*ast.Ident)
	if !ok {
		return true, nil
	}
	x, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return true, nil
	}
	cur, ok := st.ins.Root().FindNode(put.Call)
	if !ok {
		return true, nil
	}
	stmt := cur.Parent()
	if _, ok := stmt.Node().(ast.Stmt); !ok {
		return true, nil
	}
	for _, s := range flow.Preceding(stmt) {
		st.scan(s, x, func(ev event) bool {
			if ev.kind == evReset {
				paths = append(paths, ev.path)
			}
			return true
		})
	}
	if coveredBy(paths, "") {
		return true, nil
	}
	return false, paths
}

// Event kinds found while scanning statements for a pooled variable.
const (
	evReset = iota + 1 // the path is reset or overwritten
	evWrite            // the path is written to or appended to
	evStop             // the variable escapes to unknown code or is reassigned
)

type event struct {
	kind int
	path string   // field path below the variable: "", ".buf", ".buf.x"
	expr ast.Expr // the written expression (receiver or assigned path)
	pos  token.Pos
}

// scan reports events on x in n, in source order, until f returns false.
func (st *state) scan(n ast.Node, x *types.Var, f func(event) bool) bool {
	info := st.pass.TypesInfo
	goOn := true
	emit := func(ev event) {
		if goOn && !f(ev) {
			goOn = false
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if !goOn {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if flow.Mentions(info, n, x) {
				emit(event{kind: evStop, pos: n.Pos()})
			}
			return false
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				st.scan(r, x, func(ev event) bool { emit(ev); return goOn })
			}
			for i, l := range n.Lhs {
				path, ok := pathOf(info, l, x)
				if !ok {
					if flow.Mentions(info, l, x) {
						// x[i] = v, m[k] = v: an element overwrite.
						continue
					}
					if len(n.Lhs) == len(n.Rhs) && flow.IsVar(info, n.Rhs[i], x) {
						emit(event{kind: evStop, pos: n.Pos()}) // x stored elsewhere
					}
					continue
				}
				var rhs ast.Expr
				if len(n.Lhs) == len(n.Rhs) {
					rhs = n.Rhs[i]
				}
				switch {
				case rhs != nil && isAppendTo(info, rhs, l, x):
					emit(event{kind: evWrite, path: path, expr: l, pos: l.Pos()})
				case flow.IsVar(info, l, x) && (rhs == nil || !isReslice0(info, rhs, x)):
					emit(event{kind: evStop, pos: l.Pos()}) // x itself reassigned
				default:
					emit(event{kind: evReset, path: path, pos: l.Pos()})
				}
			}
			return false
		case *ast.CallExpr:
			return st.callEvent(n, x, emit)
		case *ast.Ident:
			if info.ObjectOf(n) == x {
				// A use we did not classify: x passed or stored somewhere.
				emit(event{kind: evStop, pos: n.Pos()})
			}
		case *ast.SelectorExpr:
			if _, ok := pathOf(info, n, x); ok {
				return false // reading a field
			}
		case *ast.StarExpr:
			if _, ok := pathOf(info, n, x); ok {
				return false
			}
		case *ast.IndexExpr, *ast.SliceExpr:
			// reading x[i] or x[a:b]: descend into the indices only
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if flow.IsVar(info, n.X, x) || flow.IsVar(info, n.Y, x) {
					return false // x == nil
				}
			}
		}
		return true
	})
	return goOn
}

// callEvent classifies a call for scan; it returns whether to descend.
func (st *state) callEvent(call *ast.CallExpr, x *types.Var, emit func(event)) bool {
	info := st.pass.TypesInfo
	// Builtins.
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "clear":
				if len(call.Args) == 1 {
					if path, ok := pathOf(info, call.Args[0], x); ok {
						emit(event{kind: evReset, path: path, pos: call.Pos()})
						return false
					}
				}
			case "len", "cap":
				return false
			}
			return true
		}
	}
	if c := st.pc.ByCall[call]; c != nil && c.Op == poolcall.Put {
		return false // handing x back is not a use that resets or writes it
	}
	fn := typeutil.StaticCallee(info, call)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn != nil && fn.Type().(*types.Signature).Recv() != nil {
		if path, ok := pathOf(info, sel.X, x); ok {
			kind, sub := st.methodKind(fn, call)
			switch kind {
			case evReset:
				for _, p := range sub {
					emit(event{kind: evReset, path: path + p, pos: call.Pos()})
				}
			case evWrite:
				emit(event{kind: evWrite, path: path, expr: sel.X, pos: call.Pos()})
			case evStop:
				emit(event{kind: evStop, pos: call.Pos()})
				return false
			}
			// Arguments: x handed to a Reset of one of its fields is fine
			// (gw.w.Reset(gw.buf)); elsewhere it escapes.
			for _, a := range call.Args {
				if fn.Name() == "Reset" {
					if _, ok := pathOf(info, a, x); ok {
						continue
					}
				}
				st.scan(a, x, func(ev event) bool { emit(ev); return true })
			}
			return false
		}
	}
	if fn != nil && fn.Pkg() != nil {
		if i, ok := writerArg[fn.Pkg().Path()+"."+fn.Name()]; ok && i < len(call.Args) {
			if path, ok := pathOf(info, call.Args[i], x); ok {
				emit(event{kind: evWrite, path: path, expr: call.Args[i], pos: call.Pos()})
				for j, a := range call.Args {
					if j != i && flow.Mentions(info, a, x) {
						emit(event{kind: evStop, pos: a.Pos()})
					}
				}
				return false
			}
		}
	}
	return true // other calls: arguments mentioning x stop the scan via the Ident case
}

// writerArg lists functions that write to their argument i.
var writerArg = map[string]int{
	"fmt.Fprint":                 0,
	"fmt.Fprintf":                0,
	"fmt.Fprintln":               0,
	"io.Copy":                    0,
	"io.CopyN":                   0,
	"io.CopyBuffer":              0,
	"io.WriteString":             0,
	"encoding/json.NewEncoder":   0,
	"encoding/binary.Write":      0,
	"encoding/xml.NewEncoder":    0,
	"encoding/gob.NewEncoder":    0,
	"encoding/csv.NewWriter":     0,
	"encoding/json.Indent":       0,
	"encoding/json.Compact":      0,
	"encoding/json.HTMLEscape":   0,
	"encoding/hex.NewEncoder":    0,
	"compress/gzip.NewWriter":    0,
	"text/template.Execute":      0,
	"html/template.Execute":      0,
	"encoding/base64.NewEncoder": 1,
}

// methodEffect is what a method declared in the package does to its
// receiver.
type methodEffect struct {
	kind  int
	paths []string // field paths reset, when kind is evReset
}

// methodKind says what calling fn does to its receiver: evReset (of the
// field paths returned, "" for the whole value), evWrite, 0 (nothing that
// matters) or evStop (unknown).
func (st *state) methodKind(fn *types.Func, call *ast.CallExpr) (int, []string) {
	k := st.methodKind1(fn, call)
	if k == evReset {
		return evReset, []string{""}
	}
	if k == evLocal {
		m := st.localMethod(fn.Origin())
		return m.kind, m.paths
	}
	return k, nil
}

// evLocal is methodKind1's answer for a method declared in the package.
const evLocal = -1

func (st *state) methodKind1(fn *types.Func, call *ast.CallExpr) int {
	name := fn.Name()
	recv := fn.Type().(*types.Signature).Recv().Type()
	if p, ok := recv.Underlying().(*types.Pointer); ok {
		recv = p.Elem()
	}
	switch name {
	case "Reset":
		return evReset
	case "Truncate":
		if len(call.Args) == 1 && isZero(call.Args[0]) {
			return evReset
		}
		return evStop
	}
	if t := knownType(recv); t != "" {
		if t == "bufio.Reader" {
			if strings.HasPrefix(name, "Read") || name == "Peek" || name == "Discard" || name == "WriteTo" || name == "UnreadByte" || name == "UnreadRune" {
				return evWrite // reads from the previous user's source
			}
			return 0
		}
		switch name {
		case "Write", "WriteString", "WriteByte", "WriteRune", "ReadFrom", "Flush":
			if name == "Flush" && t != "bufio.Writer" {
				return 0
			}
			return evWrite
		}
		if strings.HasPrefix(name, "Append") && t == poolcall.PoolkitByteBuf+".Buffer" {
			return evWrite
		}
		return 0
	}
	// A method of this package: look inside for a reset of its receiver.
	if fn.Pkg() == st.pass.Pkg {
		return evLocal
	}
	return evStop
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

// localMethod classifies a method declared in the package: evReset with
// the field paths its body resets, evStop when it hands the receiver on or
// cannot be found, 0 otherwise.
func (st *state) localMethod(fn *types.Func) methodEffect {
	if e, ok := st.methods[fn]; ok {
		return e
	}
	st.methods[fn] = methodEffect{kind: evStop} // recursion guard
	var decl *ast.FuncDecl
	for _, f := range st.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && st.pass.TypesInfo.Defs[fd.Name] == fn {
				decl = fd
			}
		}
	}
	result := methodEffect{kind: evStop}
	if decl != nil && decl.Body != nil && decl.Recv != nil && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		recv, _ := st.pass.TypesInfo.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
		if recv != nil {
			result = methodEffect{}
			st.scan(decl.Body, recv, func(ev event) bool {
				switch ev.kind {
				case evReset:
					result.kind = evReset
					result.paths = append(result.paths, ev.path)
				case evStop:
					result = methodEffect{kind: evStop}
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
	for _, s := range b.Rest {
		done := false
		st.scan(s, b.X, func(ev event) bool {
			switch ev.kind {
			case evReset:
				resets = append(resets, ev.path)
			case evStop:
				done = true
			case evWrite:
				if !coveredBy(resets, ev.path) && !cov.covers(ev.path) {
					st.report(get, b, ev)
				}
				done = true
			}
			return !done
		})
		if done {
			return
		}
	}
}

func (st *state) report(get *poolcall.Call, b *poolcall.Binding, ev event) {
	pass := st.pass
	name := b.X.Name() + ev.path
	line := pass.Fset.Position(get.Pos()).Line
	diag := analysis.Diagnostic{
		Pos: ev.pos,
		Message: fmt.Sprintf("get without reset: %s from %s (Get on line %d) is written before it is reset, and no Put of %s resets it: the previous user's content is still there",
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
func (st *state) resetText(ev event) string {
	if ev.expr == nil {
		return ""
	}
	e := ast.Unparen(ev.expr)
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

// pathOf returns the field path of e below x ("" for x or *x, ".f.g" for
// x.f.g or (*x).f.g), and whether e is such a path.
func pathOf(info *types.Info, e ast.Expr, x *types.Var) (string, bool) {
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
	p1, ok1 := pathOf(info, call.Args[0], x)
	p2, ok2 := pathOf(info, l, x)
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
