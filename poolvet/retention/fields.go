package retention

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// A fieldGrowth is a byte buffer field that grows from input in one
// function of the package while the pool traffic is in others.
type fieldGrowth struct {
	pos  token.Pos
	what string // "readN", "append", "x.buf.ReadFrom"
}

// fields finds the byte buffer fields of the package that grow far from
// where their values are put back:
//
//   - grownByMethods: fields of a package type that one of its pointer
//     methods grows from the method's parameters (d.buf, err =
//     readN(d.r, d.buf, n); s.buf = append(s.buf, p...)), with no check
//     of the field's length or capacity in that method;
//   - checked: fields whose length or capacity the package compares
//     anywhere (cap(x.buf) > max): such a field is bounded somewhere,
//     and none of the rules here report it.
type fields struct {
	pass           *analysis.Pass
	grownByMethods map[*types.Var]fieldGrowth
	checked        map[*types.Var]bool
	checkedTypes   map[*types.TypeName]bool // s.Len() > n, s of this type
	decls          map[*types.Func]*ast.FuncDecl
}

func newFields(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl) *fields {
	fs := &fields{pass: pass, grownByMethods: map[*types.Var]fieldGrowth{}, checked: map[*types.Var]bool{}, checkedTypes: map[*types.TypeName]bool{}, decls: decls}
	ti := pass.TypesInfo
	for _, f := range pass.Files {
		eachCompared(f, func(e ast.Expr) {
			if fv := fieldOf(ti, e); fv != nil {
				fs.checked[fv] = true
			}
			if tn := typeName(ti.TypeOf(e)); tn != nil {
				fs.checkedTypes[tn] = true
			}
		})
	}
	for fn, fd := range decls {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			continue
		}
		if _, ptr := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer); !ptr {
			continue // a value receiver grows a copy
		}
		recv, _ := ti.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
		if recv == nil {
			continue
		}
		fs.scanMethod(fd, recv)
	}
	return fs
}

// scanMethod records the byte buffer fields of recv that the method fd
// grows from its parameters.
func (fs *fields) scanMethod(fd *ast.FuncDecl, recv *types.Var) {
	ti := fs.pass.TypesInfo
	params := paramSet(ti, fd.Type, nil)
	local := map[*types.Var]fieldGrowth{}
	compared := map[*types.Var]bool{}
	eachCompared(fd.Body, func(e ast.Expr) {
		if fv := recvField(ti, e, recv); fv != nil {
			compared[fv] = true
		}
	})
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if fv, what := fs.growthAt(n, recv, params); fv != nil {
			if _, seen := local[fv]; !seen {
				local[fv] = fieldGrowth{pos: n.Pos(), what: what}
			}
		}
		return true
	})
	for fv, g := range local {
		if compared[fv] {
			continue
		}
		g.what += " in " + recvTypeName(recv) + "." + fd.Name.Name
		if _, seen := fs.grownByMethods[fv]; !seen || g.pos < fs.grownByMethods[fv].pos {
			fs.grownByMethods[fv] = g
		}
	}
}

// growthAt returns the byte buffer field of recv that the node n grows
// from params, and what grows it: an assignment of the field (s.buf =
// append(s.buf, p...), see growsFrom), or a call on a buffer field
// (s.buf.Write(p), s.buf.ReadFrom(r)).
func (fs *fields) growthAt(n ast.Node, recv *types.Var, params map[types.Object]bool) (*types.Var, string) {
	ti := fs.pass.TypesInfo
	if as, ok := n.(*ast.AssignStmt); ok {
		for i, l := range as.Lhs {
			fv := recvField(ti, l, recv)
			if fv == nil || !isBytes(fv.Type()) {
				continue
			}
			var r ast.Expr
			if len(as.Rhs) == len(as.Lhs) {
				r = as.Rhs[i]
			} else if len(as.Rhs) == 1 && i == 0 {
				r = as.Rhs[0]
			}
			if what := growsFrom(ti, r, fv, recv, params); what != "" {
				return fv, what
			}
		}
		return nil, ""
	}
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	if fv := recvField(ti, sel.X, recv); fv != nil && knownBuffer(fv.Type()) {
		if v, what := grows(fs.pass, call, params); v == recv {
			return fv, what
		}
	}
	return nil, ""
}

// growsFrom says what grows field fv of recv in the value r assigned to
// it: append(recv.f[:0], p...) or a call given recv.f that returns it
// grown, its other arguments mentioning params; "" otherwise.
func growsFrom(ti *types.Info, r ast.Expr, fv, recv *types.Var, params map[types.Object]bool) string {
	call, ok := ast.Unparen(r).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return ""
	}
	if tv, ok := ti.Types[call.Fun]; ok && tv.IsType() {
		return ""
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := ti.Uses[id].(*types.Builtin); ok {
			if b.Name() == "append" && recvField(ti, call.Args[0], recv) == fv && fromParams(ti, call.Args[1:], params) {
				return "append"
			}
			return ""
		}
	}
	for i, a := range call.Args {
		if recvField(ti, a, recv) != fv {
			continue
		}
		rest := append(append([]ast.Expr(nil), call.Args[:i]...), call.Args[i+1:]...)
		if fromParams(ti, rest, params) {
			return types.ExprString(call.Fun)
		}
	}
	return ""
}

// methodGrowth returns, for a direct Put of a pointer to a struct of the
// package, a byte buffer field of that struct that a method grows from
// input, when neither the function holding the Put nor the methods it
// calls on the value reset or check that field, and no caller of that
// function checks the value's size.
func (fs *fields) methodGrowth(c *poolcall.Call, body *ast.BlockStmt) (*types.Var, fieldGrowth, bool) {
	ti := fs.pass.TypesInfo
	ptr, ok := types.Unalias(ti.TypeOf(c.Value)).(*types.Pointer)
	if !ok {
		return nil, fieldGrowth{}, false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() != fs.pass.Pkg || fs.checkedTypes[named.Obj()] {
		return nil, fieldGrowth{}, false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil, fieldGrowth{}, false
	}
	v := flow.Root(ti, c.Value)
	if v == nil {
		return nil, fieldGrowth{}, false
	}
	for i := 0; i < st.NumFields(); i++ {
		fv := st.Field(i)
		g, ok := fs.grownByMethods[fv]
		if !ok || fs.checked[fv] {
			continue
		}
		if fs.resets(body, v, fv, 0) {
			continue
		}
		return fv, g, true
	}
	return nil, fieldGrowth{}, false
}

// resets reports whether body assigns field fv of v anything but its own
// memory (v.buf = nil, v.buf = make(...)), or calls a method of the
// package on v that does (depth bounds the descent).
func (fs *fields) resets(body *ast.BlockStmt, v, fv *types.Var, depth int) bool {
	ti := fs.pass.TypesInfo
	for n := range ast.Preorder(body) {
		if as, ok := n.(*ast.AssignStmt); ok {
			for i, l := range as.Lhs {
				if recvField(ti, l, v) == fv && (len(as.Lhs) != len(as.Rhs) || !keepsMemory(ti, as.Rhs[i], v, fv)) {
					return true
				}
			}
			continue
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || flow.Root(ti, sel.X) != v {
			continue
		}
		// A method of the package called on v: look inside.
		fn := typeutil.StaticCallee(ti, call)
		if fn == nil {
			continue
		}
		fd := fs.decls[fn.Origin()]
		if fd == nil || fd.Recv == nil || len(fd.Recv.List[0].Names) != 1 {
			continue
		}
		if recv, _ := ti.Defs[fd.Recv.List[0].Names[0]].(*types.Var); recv != nil && (depth >= 2 || fs.resets(fd.Body, recv, fv, depth+1)) {
			return true
		}
	}
	return false
}

// keepsMemory reports whether e is field fv of v resliced (v.buf[:0]), so
// that assigning it back keeps the grown memory.
func keepsMemory(ti *types.Info, e ast.Expr, v, fv *types.Var) bool {
	sl, ok := ast.Unparen(e).(*ast.SliceExpr)
	return ok && recvField(ti, sl.X, v) == fv
}

// recvField returns the field f when e is v.f, possibly resliced,
// dereferenced or addressed (v.f[:0], &v.f); nil otherwise.
func recvField(ti *types.Info, e ast.Expr, v *types.Var) *types.Var {
	sel, fv := fieldSel(ti, e)
	if fv == nil || len(ti.Selections[sel].Index()) != 1 {
		return nil
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || ti.ObjectOf(id) != v {
		return nil
	}
	return fv
}

// fieldOf returns the field e selects (x.f, x.f[:n], *x.f, &x.f),
// whatever x.
func fieldOf(ti *types.Info, e ast.Expr) *types.Var {
	_, fv := fieldSel(ti, e)
	return fv
}

// fieldSel returns the field selection under the reslices, dereferences
// and address-of operators of e, and its field.
func fieldSel(ti *types.Info, e ast.Expr) (*ast.SelectorExpr, *types.Var) {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SliceExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil, nil
			}
			e = x.X
		case *ast.SelectorExpr:
			if s := ti.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				fv, _ := s.Obj().(*types.Var)
				return x, fv
			}
			return nil, nil
		default:
			return nil, nil
		}
	}
}

// eachCompared calls f with x for each len(x), cap(x), x.Len(), x.Cap()
// and x.Size() that n compares with <, >, <= or >=.
func eachCompared(n ast.Node, f func(x ast.Expr)) {
	ast.Inspect(n, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if !ok || !isOrder(be.Op) {
			return true
		}
		ast.Inspect(be, func(n ast.Node) bool {
			if e := sizeOperand(n); e != nil {
				f(e)
			}
			return true
		})
		return false
	})
}

// sizeOperand returns x when n is len(x), cap(x), x.Len(), x.Cap() or
// x.Size(); nil otherwise.
func sizeOperand(n ast.Node) ast.Expr {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if (fun.Name == "cap" || fun.Name == "len") && len(call.Args) == 1 {
			return call.Args[0]
		}
	case *ast.SelectorExpr:
		if (fun.Sel.Name == "Cap" || fun.Sel.Name == "Len" || fun.Sel.Name == "Size") && len(call.Args) == 0 {
			return fun.X
		}
	}
	return nil
}

func isOrder(op token.Token) bool {
	switch op {
	case token.LSS, token.GTR, token.LEQ, token.GEQ:
		return true
	}
	return false
}

// isBytes reports whether t is a byte slice, or one of the known buffer
// types (by value or pointer).
func isBytes(t types.Type) bool {
	if s, ok := t.Underlying().(*types.Slice); ok {
		b, ok := s.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return knownBuffer(t)
}

// knownBuffer reports whether t is one of knownGrowable's buffer types,
// or a pointer to one.
func knownBuffer(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && knownGrowable[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
}

// paramSet returns the parameters of a function type, but skip.
func paramSet(ti *types.Info, typ *ast.FuncType, skip types.Object) map[types.Object]bool {
	params := map[types.Object]bool{}
	for _, f := range typ.Params.List {
		for _, name := range f.Names {
			if obj := ti.Defs[name]; obj != nil && obj != skip {
				params[obj] = true
			}
		}
	}
	return params
}

// A pooledField is a buffer field that holds values from a sync.Pool
// (x.buf = bufPool.Get().(*bytes.Buffer), or T{buf: acquire()}).
type pooledField struct {
	get  *poolcall.Call
	grow fieldGrowth // zero until some function grows the field
}

// pooledFields finds the buffer fields of the package's structs that are
// given values from a sync.Pool and grow from input somewhere: a
// ReadFrom or io.Copy into x.buf, or x.buf.Write of the caller's data,
// the field's size compared nowhere.
func (fs *fields) pooledFields(info *poolcall.Info) map[*types.Var]*pooledField {
	ti := fs.pass.TypesInfo
	out := map[*types.Var]*pooledField{}
	note := func(fv *types.Var, r ast.Expr) {
		if fv == nil || !knownBuffer(fv.Type()) && !isBytes(fv.Type()) {
			return
		}
		call := getCall(r)
		if call == nil {
			return
		}
		c := info.ByCall[call]
		if c == nil || c.Op != poolcall.Get || c.Kind != poolcall.SyncPool || c.Pool == nil {
			return
		}
		if _, seen := out[fv]; !seen {
			out[fv] = &pooledField{get: c}
		}
	}
	for _, f := range fs.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						note(fieldOf(ti, l), n.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					if fv, ok := ti.Uses[id].(*types.Var); ok && fv.IsField() {
						note(fv, n.Value)
					}
				}
			}
			return true
		})
	}
	if len(out) == 0 {
		return nil
	}
	for _, fd := range fs.decls {
		params := paramSet(ti, fd.Type, nil)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var target ast.Expr
			what := ""
			if fn := typeutil.StaticCallee(ti, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "io" && len(call.Args) >= 2 {
				switch fn.Name() {
				case "Copy", "CopyN", "CopyBuffer":
					target, what = call.Args[0], "io."+fn.Name()
				}
			} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "ReadFrom":
					target, what = sel.X, types.ExprString(sel.X)+".ReadFrom"
				case "Write", "WriteString":
					if fromParams(ti, call.Args, params) {
						target, what = sel.X, types.ExprString(sel.X)+"."+sel.Sel.Name+" of caller data"
					}
				}
			}
			if target == nil {
				return true
			}
			fv := fieldOf(ti, target)
			pf := out[fv]
			if pf == nil || fs.checked[fv] || !knownBuffer(fv.Type()) {
				return true
			}
			if pf.grow.what == "" || call.Pos() < pf.grow.pos {
				pf.grow = fieldGrowth{pos: call.Pos(), what: what}
			}
			return true
		})
	}
	for fv, pf := range out {
		if pf.grow.what == "" {
			delete(out, fv)
		}
	}
	return out
}

// typeName returns the type name of t or of what t points to, nil for
// unnamed types.
func typeName(t types.Type) *types.TypeName {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// recvTypeName names the type of a method's receiver: "Decoder" for
// d *Decoder.
func recvTypeName(recv *types.Var) string {
	if tn := typeName(recv.Type()); tn != nil {
		return tn.Name()
	}
	return types.TypeString(recv.Type(), nil)
}
