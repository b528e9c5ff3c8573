package poolcall

import (
	"go/ast"
	"go/types"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
)

// FreshFact is exported for each function whose every return statement
// returns &T{...} or new(T), directly or through a local variable that
// only ever holds one (see ReturnsFresh): a constructor, whose result is a value no one
// else holds yet. poolcopy takes *NewPool() of such a function, from any
// package, for a fresh pool rather than a copy of one in use.
type FreshFact struct{}

func (*FreshFact) AFact() {}

func (*FreshFact) String() string { return "poolcall.Fresh" }

// Fresh reports whether fn returns a new pointer on every return: its body
// in this package returns only &T{...} or new(T), or, for a function of
// another package, it carries a FreshFact.
func (info *Info) Fresh(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	return info.fresh[fn.Origin()]
}

// collectFresh fills info.fresh with the constructors declared in the
// package (exporting a FreshFact for each) and those imported with one.
func (st *state) collectFresh(decls []*ast.FuncDecl) {
	info := st.pass.TypesInfo
	for _, fd := range decls {
		fn, _ := info.Defs[fd.Name].(*types.Func)
		if fn == nil || !ReturnsFresh(info, fd.Body) {
			continue
		}
		st.info.fresh[fn] = true
		st.pass.ExportObjectFact(fn, new(FreshFact))
	}
	for _, f := range st.pass.AllObjectFacts() {
		if _, ok := f.Fact.(*FreshFact); ok {
			if fn, ok := f.Object.(*types.Func); ok {
				st.info.fresh[fn] = true
			}
		}
	}
}

// ReturnsFresh reports whether every return statement of body (outside
// function literals) returns one value, &T{...} or new(T), or a local
// variable that only ever holds such a value, and there is at least one.
func ReturnsFresh(info *types.Info, body *ast.BlockStmt) bool {
	locals := freshLocals(info, body)
	ok, returns := true, 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns++
			if len(n.Results) != 1 {
				ok = false
				return false
			}
			r := ast.Unparen(n.Results[0])
			if id, isID := r.(*ast.Ident); isID && locals[info.Uses[id]] {
				return false
			}
			if !isFresh(info, r) {
				ok = false
			}
		}
		return ok
	})
	return ok && returns > 0
}

// freshLocals returns the variables declared in body that only ever hold
// a new pointer: every assignment to one (in body or a function literal
// in it) is &T{...} or new(T), its address is never taken, and what it
// points to is never overwritten as a whole (*v = x). Such a variable
// (app := &App{...}; app.x = ...; return app) returns a value no one else
// holds, as &T{...} does.
func freshLocals(info *types.Info, body *ast.BlockStmt) map[types.Object]bool {
	fresh := map[types.Object]bool{}
	spoilt := map[types.Object]bool{}
	local := func(id *ast.Ident) types.Object {
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.IsField() || v.Pos() < body.Pos() || v.Pos() >= body.End() {
			return nil
		}
		return v
	}
	flow.EachAssign(body, func(a flow.Assign) {
		obj := local(a.ID)
		if obj == nil {
			return
		}
		if !a.Deref && a.Rhs != nil && isFresh(info, a.Rhs) {
			fresh[obj] = true
		} else {
			spoilt[obj] = true // *v = x: the struct is a copy; &v: anything may store through it
		}
	})
	for obj := range spoilt {
		delete(fresh, obj)
	}
	return fresh
}
