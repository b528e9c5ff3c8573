package poolcall

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// isSyncPool reports whether t is sync.Pool (not a pointer to it).
func isSyncPool(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "sync" && named.Obj().Name() == "Pool"
}

// IsSyncPool reports whether t is sync.Pool or *sync.Pool.
func IsSyncPool(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return isSyncPool(t)
}

// collectNew fills Info.New: for each sync.Pool variable or field, the
// types its New function returns. New is followed where it is set:
//
//	var p = sync.Pool{New: f}          p := &sync.Pool{New: f}
//	T{pool: sync.Pool{New: f}}         x.pool.New = f
//	x.pool = sync.Pool{New: f}
//
// f may be a function literal or a function declared in the package. Any
// other way of giving the variable a value (assigning a pool from
// elsewhere, New from a func variable) marks it Unknown.
func (st *state) collectNew(ins *inspector.Inspector) {
	info := st.pass.TypesInfo
	get := func(obj types.Object) *NewInfo {
		n := st.info.New[obj]
		if n == nil {
			n = &NewInfo{}
			st.info.New[obj] = n
		}
		return n
	}
	// assign records that obj is given the value e.
	assign := func(obj types.Object, e ast.Expr) {
		if obj == nil || !IsSyncPool(obj.Type()) {
			return
		}
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok {
			e = ast.Unparen(u.X)
		}
		lit, ok := e.(*ast.CompositeLit)
		if !ok || !isSyncPool(info.TypeOf(lit)) {
			if st.info.New[obj] != nil || obj.Pkg() == st.pass.Pkg {
				get(obj).Unknown = true
			}
			return
		}
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "New" {
				st.addNew(get(obj), kv.Value)
			}
		}
	}
	ins.Preorder([]ast.Node{(*ast.ValueSpec)(nil), (*ast.AssignStmt)(nil), (*ast.CompositeLit)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if i < len(n.Values) && len(n.Values) == len(n.Names) {
					assign(info.Defs[name], n.Values[i])
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				for _, l := range n.Lhs {
					if obj := ObjectOf(info, l); obj != nil && IsSyncPool(obj.Type()) {
						get(obj).Unknown = true
					}
				}
				return
			}
			for i, l := range n.Lhs {
				l = ast.Unparen(l)
				// x.New = f, where x is a pool.
				if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" && IsSyncPool(info.TypeOf(sel.X)) {
					if obj := ObjectOf(info, sel.X); obj != nil {
						st.addNew(get(obj), n.Rhs[i])
					}
					continue
				}
				var obj types.Object
				if id, ok := l.(*ast.Ident); ok {
					obj = info.ObjectOf(id)
				} else {
					obj = ObjectOf(info, l)
				}
				assign(obj, n.Rhs[i])
			}
		case *ast.CompositeLit:
			// T{pool: sync.Pool{New: f}}: a keyed struct literal.
			t := info.TypeOf(n)
			if t == nil {
				return
			}
			if _, ok := t.Underlying().(*types.Struct); !ok {
				return
			}
			for _, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				k, ok := kv.Key.(*ast.Ident)
				if !ok {
					continue
				}
				if f, ok := info.ObjectOf(k).(*types.Var); ok && f.IsField() {
					assign(f, kv.Value)
				}
			}
		}
	})
}

// addNew records the result types of the function expression f.
func (st *state) addNew(n *NewInfo, f ast.Expr) {
	info := st.pass.TypesInfo
	n.Pos = append(n.Pos, f.Pos())
	var body *ast.BlockStmt
	switch x := ast.Unparen(f).(type) {
	case *ast.FuncLit:
		body = x.Body
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = x.(*ast.Ident)
		}
		fn, ok := info.Uses[id].(*types.Func)
		if ok && fn.Pkg() == st.pass.Pkg {
			body = st.funcBody(fn)
		}
	}
	if body == nil {
		n.Unknown = true
		return
	}
	ast.Inspect(body, func(nd ast.Node) bool {
		switch r := nd.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(r.Results) != 1 {
				n.Unknown = true
				return false
			}
			t := info.TypeOf(r.Results[0])
			if t == nil || types.IsInterface(t) {
				n.Unknown = true // New returns what another function made
				return false
			}
			n.Types = append(n.Types, t)
		}
		return true
	})
}

// funcBody finds the body of a function declared in the package.
func (st *state) funcBody(fn *types.Func) *ast.BlockStmt {
	for _, f := range st.pass.Files {
		if f.Pos() > fn.Pos() || fn.Pos() > f.End() {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && st.pass.TypesInfo.Defs[fd.Name] == fn {
				return fd.Body
			}
		}
	}
	return nil
}
