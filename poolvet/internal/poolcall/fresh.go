package poolcall

import (
	"go/ast"
	"go/types"
)

// FreshFact is exported for each function whose every return statement
// returns &T{...} or new(T): a constructor, whose result is a value no one
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
// function literals) returns one value, &T{...} or new(T), and there is
// at least one.
func ReturnsFresh(info *types.Info, body *ast.BlockStmt) bool {
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
			if !isFresh(info, n.Results[0]) {
				ok = false
			}
		}
		return ok
	})
	return ok && returns > 0
}
