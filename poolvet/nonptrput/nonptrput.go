package nonptrput

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/poolkit/poolkit/poolvet/internal/analyzer"
	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports sync.Pool.Put of values that allocate when boxed.
var Analyzer = analyzer.New("nonptrput", doc, run)

func run(pass *analysis.Pass, info *poolcall.Info, _ *inspector.Inspector) (any, error) {
	for _, c := range info.Calls {
		if c.Op == poolcall.Put && (c.Kind == poolcall.SyncPool || c.Kind == poolcall.KitPool) && c.Value != nil {
			checkAddrOfCopy(pass, c)
		}
		if c.Op != poolcall.Put || c.Kind != poolcall.SyncPool || c.Value == nil || c.ValueType == nil || c.Converted {
			continue
		}
		// The conversion to any happens where the value meets a
		// parameter of interface or type-parameter type: at a direct
		// Put, or at the call of a wrapper taking any or T. A wrapper
		// taking a concrete type is reported inside, at its own Put.
		if !isBoxing(c.ValueType) {
			continue
		}
		tv, ok := pass.TypesInfo.Types[c.Value]
		if !ok || tv.Value != nil || tv.IsNil() {
			continue // constants are boxed statically
		}
		why := allocates(pass, tv.Type)
		if why == "" {
			continue
		}
		via := ""
		if c.Wrapper != nil {
			via = " (through " + c.Wrapper.Name() + ")"
		}
		ts := types.TypeString(tv.Type, types.RelativeTo(pass.Pkg))
		d := analysis.Diagnostic{
			Pos:     c.Value.Pos(),
			End:     c.Value.End(),
			Message: c.PoolName + ".Put" + via + " of " + ts + " (" + why + ") allocates on every call",
		}
		pass.Report(d)
	}
	checkPoolInterfaces(pass)
	return nil, nil
}

// checkAddrOfCopy reports Put(&s) where s is a slice or string header
// that is a parameter or a local copy of one (s := *bp, s := (*bp)[:n]):
// taking its address moves s to the heap, a new header on every call,
// while the pointer the header came from is the one to put back.
func checkAddrOfCopy(pass *analysis.Pass, c *poolcall.Call) {
	info := pass.TypesInfo
	u, ok := flow.Unconvert(info, c.Value).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return
	}
	what := ""
	switch t := v.Type().Underlying().(type) {
	case *types.Slice:
		what = "slice"
	case *types.Basic:
		if t.Info()&types.IsString != 0 {
			what = "string"
		}
	}
	if what == "" {
		return
	}
	kind := ""
	switch {
	case isParam(pass, v):
		kind = "parameter"
	case copiedHeader(pass, v):
		kind = "local copy"
	default:
		return
	}
	pass.Report(analysis.Diagnostic{
		Pos: c.Value.Pos(),
		End: c.Value.End(),
		Message: fmt.Sprintf("%s.Put(&%s) allocates a new %s header on every call (%s is a %s)",
			c.PoolName, v.Name(), what, v.Name(), kind),
	})
}

// isParam reports whether v is a parameter of the function declaring it.
func isParam(pass *analysis.Pass, v *types.Var) bool {
	for _, f := range pass.Files {
		if f.FileStart > v.Pos() || v.Pos() > f.FileEnd {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			var ft *ast.FuncType
			switch n := n.(type) {
			case *ast.FuncDecl:
				ft = n.Type
			case *ast.FuncLit:
				ft = n.Type
			default:
				return !found
			}
			if ft.Params != nil {
				for _, fl := range ft.Params.List {
					for _, name := range fl.Names {
						if pass.TypesInfo.Defs[name] == v {
							found = true
						}
					}
				}
			}
			return !found
		})
		return found
	}
	return false
}

// copiedHeader reports whether every value given to the local v is a copy
// of an existing header: *p, (*p)[i:j], or a reslice of a parameter (a
// reslice of v, or a call given v whose first result replaces it, such as
// append(v, ...) or v, err = Decode(v, src), aside).
func copiedHeader(pass *analysis.Pass, v *types.Var) bool {
	info := pass.TypesInfo
	n, copies := 0, 0
	// grows reports whether e is a call given v (or a reslice of it):
	// b = append(b[:0], ...), b, err = Decode(b, src), which return the
	// memory of the header they were given, grown.
	grows := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		for _, a := range call.Args {
			if flow.Root(info, a) == v {
				return true
			}
		}
		return false
	}
	check := func(rhs ast.Expr) {
		e := ast.Unparen(rhs)
		if grows(e) {
			return // still the same header's memory
		}
		if sl, ok := e.(*ast.SliceExpr); ok && flow.Root(info, sl.X) == v {
			return // b = b[:0]
		}
		n++
		if sl, ok := e.(*ast.SliceExpr); ok {
			e = ast.Unparen(sl.X)
			if id, ok := e.(*ast.Ident); ok {
				if pv, ok := info.ObjectOf(id).(*types.Var); ok && isParam(pass, pv) {
					copies++
					return
				}
			}
		}
		if _, ok := e.(*ast.StarExpr); ok {
			copies++
		}
	}
	for _, f := range pass.Files {
		if f.FileStart > v.Pos() || v.Pos() > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(node ast.Node) bool {
			switch node := node.(type) {
			case *ast.AssignStmt:
				for i, l := range node.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
						if len(node.Lhs) != len(node.Rhs) {
							if i > 0 || !grows(node.Rhs[0]) {
								n++
							}
							continue
						}
						check(node.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				for i, id := range node.Names {
					if info.ObjectOf(id) == v {
						if i >= len(node.Values) {
							n++
							continue
						}
						check(node.Values[i])
					}
				}
			}
			return true
		})
	}
	return n > 0 && n == copies
}

// isBoxing reports whether passing a value to a parameter of type t
// converts it to an interface.
func isBoxing(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	default:
		return types.IsInterface(t)
	}
}

// allocates returns a short reason when converting a value of type t to
// any allocates, or "" when it does not (or may not).
func allocates(pass *analysis.Pass, t types.Type) string {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		// Report a type parameter only when every type it can be
		// allocates, such as S ~[]E.
		why := ""
		ok := forEachTerm(tp, func(term types.Type) bool {
			w := allocates(pass, term)
			if w == "" {
				return false
			}
			why = w
			return true
		})
		if !ok || why == "" {
			return ""
		}
		return "type parameter " + tp.Obj().Name() + " is a " + why
	}
	if types.IsInterface(t) || directIface(t) {
		return ""
	}
	if pass.TypesSizes.Sizeof(t) <= 1 {
		return "" // zero-size and one-byte values use static storage
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return "a slice"
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return "a string"
		}
		return "a " + u.Name()
	case *types.Struct:
		return "a struct"
	case *types.Array:
		return "an array"
	}
	return ""
}

// forEachTerm calls f on each term of tp's type set; it returns false when
// the set is unrestricted (no terms) or f returns false.
func forEachTerm(tp *types.TypeParam, f func(types.Type) bool) bool {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	seen := false
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		u, ok := iface.EmbeddedType(i).(*types.Union)
		if !ok {
			if _, isIface := iface.EmbeddedType(i).Underlying().(*types.Interface); isIface {
				continue
			}
			seen = true
			if !f(iface.EmbeddedType(i)) {
				return false
			}
			continue
		}
		for j := 0; j < u.Len(); j++ {
			seen = true
			if !f(u.Term(j).Type()) {
				return false
			}
		}
	}
	return seen
}

// directIface reports whether values of t are stored in an interface
// directly, without allocation: pointer-shaped types, and structs and
// arrays wrapping exactly one of them (the gc compiler's isdirectiface).
func directIface(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Array:
		return u.Len() == 1 && directIface(u.Elem())
	case *types.Struct:
		return u.NumFields() == 1 && directIface(u.Field(0).Type())
	}
	return false
}
