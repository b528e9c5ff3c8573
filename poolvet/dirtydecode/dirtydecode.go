package dirtydecode

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

// Analyzer reports decoding into a pooled struct or map that was not zeroed
// after Get.
var Analyzer = analyzer.New("dirtydecode", doc, run)

// decoders maps a decoding function or method to the index of the argument
// it decodes into. Each of them leaves alone the struct fields and map
// entries its input does not mention.
var decoders = map[string]int{
	"encoding/json.Unmarshal":                            1,
	"(*encoding/json.Decoder).Decode":                    0,
	"encoding/xml.Unmarshal":                             1,
	"(*encoding/xml.Decoder).Decode":                     0,
	"(*encoding/xml.Decoder).DecodeElement":              0,
	"(*encoding/gob.Decoder).Decode":                     0,
	"encoding/json/v2.Unmarshal":                         1,
	"encoding/json/v2.UnmarshalRead":                     1,
	"encoding/json/v2.UnmarshalDecode":                   1,
	"github.com/go-json-experiment/json.Unmarshal":       1,
	"github.com/go-json-experiment/json.UnmarshalRead":   1,
	"github.com/go-json-experiment/json.UnmarshalDecode": 1,
}

func run(pass *analysis.Pass, pc *poolcall.Info, ins *inspector.Inspector) (any, error) {
	if len(pc.Calls) == 0 {
		return nil, nil
	}
	st := &state{pass: pass, pc: pc, ins: ins, zeroes: map[types.Object]bool{}}
	st.sc = &flow.Scanner{Info: pass.TypesInfo, Assign: st.assignEvent, Call: st.callEvent}
	for _, c := range pc.Calls {
		if c.Op != poolcall.Get || c.Pool == nil || (c.Kind != poolcall.SyncPool && c.Kind != poolcall.KitPool) {
			continue
		}
		if c.Wrapper != nil && !pc.PlainGetWrapper(c.Wrapper) {
			continue // the wrapper may zero the value
		}
		b := poolcall.BindGet(pass.TypesInfo, ins, c)
		if b == nil || !decodable(b.X.Type()) {
			continue
		}
		if st.poolZeroes(c) {
			continue
		}
		st.check(c, b)
	}
	return nil, nil
}

// decodable reports whether decoding into a value of type t (through t or
// &t) merges into old contents: a pointer to a struct, a map, or a pointer
// to a map.
func decodable(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		switch p.Elem().Underlying().(type) {
		case *types.Struct, *types.Map:
			return true
		}
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

type state struct {
	pass   *analysis.Pass
	pc     *poolcall.Info
	ins    *inspector.Inspector
	zeroes map[types.Object]bool
	sc     *flow.Scanner
}

// poolZeroes reports whether every Put of get's pool zeroes the value
// first (vacuously true without Puts), or the pool is a poolkit pool.Pool
// that may reset, or we cannot tell.
func (st *state) poolZeroes(get *poolcall.Call) bool {
	if z, ok := st.zeroes[get.Pool]; ok {
		return z
	}
	z := true
	if get.Kind == poolcall.KitPool && poolcall.KitPoolMayReset(st.pass, get.Pool) {
		z = true // its reset function (WithReset) is not followed: stay quiet
	} else {
		for _, c := range st.pc.Calls {
			if c.Op == poolcall.Put && c.Pool == get.Pool && !st.putZeroes(c) {
				z = false
				break
			}
		}
	}
	st.zeroes[get.Pool] = z
	return z
}

func (st *state) putZeroes(put *poolcall.Call) bool {
	put = st.pc.Unwrap(put)
	if put == nil {
		return true
	}
	x, stmt, ok := poolcall.PutValueVar(st.pass.TypesInfo, st.ins, put, false)
	if !ok {
		return true
	}
	for _, s := range flow.Preceding(stmt) {
		zeroed := false
		st.sc.Scan(s, x, func(ev flow.Event) bool {
			if ev.Kind == flow.Clear {
				zeroed = true
				return false
			}
			return true
		})
		if zeroed {
			return true
		}
	}
	return false
}

// assignEvent classifies the left-hand sides of an assignment for scan.
func (st *state) assignEvent(n *ast.AssignStmt, x *types.Var, emit func(flow.Event)) {
	info := st.pass.TypesInfo
	for i, l := range n.Lhs {
		l = ast.Unparen(l)
		switch {
		case flow.IsVar(info, l, x):
			emit(flow.Event{Kind: flow.Escape}) // x reassigned
		case isDeref(info, l, x):
			emit(flow.Event{Kind: flow.Clear}) // *x = T{}
		case flow.Mentions(info, l, x):
			// x.f = v, x[k] = v: partial writes, neither zero nor escape.
		default:
			if len(n.Lhs) == len(n.Rhs) && flow.IsVar(info, n.Rhs[i], x) {
				emit(flow.Event{Kind: flow.Escape}) // stored elsewhere
			}
		}
	}
}

func (st *state) callEvent(call *ast.CallExpr, x *types.Var, emit func(flow.Event)) bool {
	info := st.pass.TypesInfo
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "clear":
				if len(call.Args) == 1 && (flow.IsVar(info, call.Args[0], x) || isDeref(info, call.Args[0], x)) {
					emit(flow.Event{Kind: flow.Clear})
					return false
				}
			case "len":
				return false
			}
			return true
		}
	}
	if c := st.pc.ByCall[call]; c != nil && c.Op == poolcall.Put {
		return false
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		return true
	}
	if i, ok := decoders[fn.FullName()]; ok && i < len(call.Args) {
		arg := ast.Unparen(call.Args[i])
		if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
			arg = ast.Unparen(u.X)
		}
		if flow.IsVar(info, arg, x) {
			emit(flow.Event{Kind: flow.Write, Call: call, Name: decoderName(fn)})
			for j, a := range call.Args {
				if j != i {
					st.sc.Scan(a, x, func(ev flow.Event) bool { emit(ev); return true })
				}
			}
			return false
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && flow.IsVar(info, sel.X, x) || ok && isDeref(info, sel.X, x) {
		if fn.Name() == "Reset" {
			emit(flow.Event{Kind: flow.Clear})
			return false
		}
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			emit(flow.Event{Kind: flow.Escape}) // a method may zero it
			return false
		}
	}
	return true
}

// decoderName names a decoder the way a user calls it: json.Unmarshal,
// (*json.Decoder).Decode.
func decoderName(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return "(*" + fn.Pkg().Name() + "." + n.Obj().Name() + ")." + fn.Name()
	}
	return fn.Name()
}

// check reports the first decode into b.X not preceded by a zeroing.
func (st *state) check(get *poolcall.Call, b *poolcall.Binding) {
	st.sc.ScanList(b.Rest, b.X, func(ev flow.Event) bool {
		if ev.Kind == flow.Write {
			st.report(get, b, ev)
		}
		return false
	})
}

func (st *state) report(get *poolcall.Call, b *poolcall.Binding, ev flow.Event) {
	pass := st.pass
	what := "fields absent from the input keep the previous user's values"
	if !isPtr(b.X.Type()) || isMapPtr(b.X.Type()) {
		what = "keys absent from the input keep the previous user's entries"
	}
	diag := analysis.Diagnostic{
		Pos: ev.Call.Pos(), End: ev.Call.End(),
		Message: fmt.Sprintf("%s decodes into %s, taken from %s on line %d and not zeroed (%s)",
			ev.Name, b.X.Name(), get.PoolName, pass.Fset.Position(get.Pos()).Line, what),
	}
	if text := st.zeroText(b); text != "" {
		pos := pass.Fset.Position(b.Stmt.Pos())
		indent := strings.Repeat("\t", max(pos.Column-1, 0))
		diag.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   "Zero " + b.X.Name() + " right after Get",
			TextEdits: []analysis.TextEdit{{Pos: b.Stmt.End(), End: b.Stmt.End(), NewText: []byte("\n" + indent + text)}},
		}}
	}
	pass.Report(diag)
}

// zeroText returns a statement zeroing b.X, or "".
func (st *state) zeroText(b *poolcall.Binding) string {
	x := b.X.Name()
	t := b.X.Type()
	if _, ok := t.Underlying().(*types.Map); ok {
		return "clear(" + x + ")"
	}
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	if _, ok := p.Elem().Underlying().(*types.Map); ok {
		return "clear(*" + x + ")"
	}
	if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Reset"); obj != nil {
		if fn, ok := obj.(*types.Func); ok {
			if sig := fn.Type().(*types.Signature); sig.Params().Len() == 0 && sig.Results().Len() == 0 {
				return x + ".Reset()"
			}
		}
		return ""
	}
	name := st.typeName(p.Elem(), b.Stmt.Pos())
	if name == "" {
		return ""
	}
	return "*" + x + " = " + name + "{}"
}

// typeName spells the named type t as the file containing pos refers to
// it, or returns "" if it cannot.
func (st *state) typeName(t types.Type, pos token.Pos) string {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.TypeArgs().Len() > 0 {
		return ""
	}
	obj := named.Obj()
	if obj.Pkg() == nil {
		return ""
	}
	if obj.Pkg() == st.pass.Pkg {
		return obj.Name()
	}
	for _, f := range st.pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) != obj.Pkg().Path() {
				continue
			}
			name := obj.Pkg().Name()
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if name == "_" || name == "." {
				return ""
			}
			return name + "." + obj.Name()
		}
	}
	return ""
}

func isPtr(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

func isMapPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Map)
	return ok
}

func isDeref(info *types.Info, e ast.Expr, x *types.Var) bool {
	s, ok := ast.Unparen(e).(*ast.StarExpr)
	return ok && flow.IsVar(info, s.X, x)
}
