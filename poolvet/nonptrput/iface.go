package nonptrput

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// checkPoolInterfaces reports Put, through an interface shaped like
// sync.Pool (Get() any and Put(any), such as a library's BufferPool
// option), of a value that allocates when boxed: whatever implements
// the interface, the conversion to any happens at the call.
func checkPoolInterfaces(pass *analysis.Pass) {
	// Most packages call no such method: look for one among the
	// package's selections before walking its syntax.
	found := false
	for _, s := range pass.TypesInfo.Selections {
		if s.Kind() == types.MethodVal && s.Obj().Name() == "Put" && poolInterface(s.Recv()) {
			found = true
			break
		}
	}
	if !found {
		return
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				checkInterfacePut(pass, call)
			}
			return true
		})
	}
}

// checkInterfacePut reports call when it is such a Put.
func checkInterfacePut(pass *analysis.Pass, call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Put" || len(call.Args) != 1 {
		return
	}
	s := pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || !poolInterface(s.Recv()) {
		return
	}
	tv, ok := pass.TypesInfo.Types[call.Args[0]]
	if !ok || tv.Value != nil || tv.IsNil() {
		return
	}
	why := allocates(pass, tv.Type)
	if why == "" {
		return
	}
	ts := types.TypeString(tv.Type, types.RelativeTo(pass.Pkg))
	pass.Report(analysis.Diagnostic{
		Pos:     call.Args[0].Pos(),
		End:     call.Args[0].End(),
		Message: types.ExprString(sel.X) + ".Put of " + ts + " (" + why + ") allocates on every call",
	})
}

// poolInterface reports whether t is an interface type whose method set
// has sync.Pool's Get() any and Put(any).
func poolInterface(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	var get, put bool
	for i := 0; i < iface.NumMethods(); i++ {
		sig := iface.Method(i).Type().(*types.Signature)
		switch iface.Method(i).Name() {
		case "Get":
			get = sig.Params().Len() == 0 && sig.Results().Len() == 1 && isEmptyInterface(sig.Results().At(0).Type())
		case "Put":
			put = sig.Params().Len() == 1 && sig.Results().Len() == 0 && !sig.Variadic() && isEmptyInterface(sig.Params().At(0).Type())
		}
	}
	return get && put
}

func isEmptyInterface(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	return ok && iface.Empty()
}
