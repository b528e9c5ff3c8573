package poolcall

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
)

// Assignee finds where the result of the Get call at cur is bound, looking
// through parentheses and type assertions: "x := Get()", "x = Get().(T)",
// "x, ok := Get().(T)" (one right-hand side, one or two left-hand sides)
// or "var x = Get()" (one value). It returns the cursor of the
// *ast.AssignStmt or *ast.ValueSpec and the identifier on its left that
// receives the value; id is nil when the Get is bound some other way (or
// to something other than an identifier, such as a field).
func Assignee(cur inspector.Cursor) (bind inspector.Cursor, id *ast.Ident) {
	p := cur.Parent()
	for {
		switch p.Node().(type) {
		case *ast.ParenExpr, *ast.TypeAssertExpr:
			p = p.Parent()
			continue
		}
		break
	}
	switch n := p.Node().(type) {
	case *ast.AssignStmt:
		if len(n.Rhs) == 1 && (len(n.Lhs) == 1 || len(n.Lhs) == 2) {
			id, _ = n.Lhs[0].(*ast.Ident)
		}
	case *ast.ValueSpec:
		if len(n.Values) == 1 && len(n.Names) >= 1 {
			id = n.Names[0]
		}
	}
	return p, id
}

// Binding is a Get whose result is assigned to a local variable.
type Binding struct {
	X    *types.Var
	Stmt ast.Stmt   // the statement assigning it (a DeclStmt for "var x = ...")
	Rest []ast.Stmt // the statements following it in its list
}

// BindGet returns the variable the Get call is assigned to (see Assignee)
// with the statement assigning it and the statements after it in the same
// block or clause, or nil when the call is not bound to a variable by a
// statement of a block.
func BindGet(info *types.Info, ins *inspector.Inspector, get *Call) *Binding {
	cur, ok := Find(ins, get)
	if !ok {
		return nil
	}
	p, id := Assignee(cur)
	if id == nil {
		return nil
	}
	stmtCur := p
	if _, ok := p.Node().(*ast.ValueSpec); ok {
		stmtCur = p.Parent().Parent() // ValueSpec -> GenDecl -> DeclStmt
	}
	x, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return nil
	}
	stmt, ok := stmtCur.Node().(ast.Stmt)
	if !ok {
		return nil
	}
	list := flow.StmtList(stmtCur.Parent().Node())
	for i, s := range list {
		if s == stmt {
			return &Binding{X: x, Stmt: stmt, Rest: list[i+1:]}
		}
	}
	return nil
}

// PlainGetWrapper reports whether fn is a wrapper of this package that
// only returns what the pool gives, without touching it, from a package
// variable or a parameter: func getBuf() *T { return pool.Get().(*T) }.
// A Get through such a wrapper can be followed as if it were direct.
func (info *Info) PlainGetWrapper(fn *types.Func) bool {
	w := info.Wrappers[fn]
	if w == nil || w.Decl == nil || w.Decl.Body == nil || len(w.Decl.Body.List) != 1 {
		return false
	}
	if w.PoolFrom != PoolGlobal && w.PoolFrom != PoolParam {
		return false
	}
	_, ok := w.Decl.Body.List[0].(*ast.ReturnStmt)
	return ok
}

// Unwrap follows a call through the wrappers declared in this package to
// the direct pool call it ends in (c itself for a direct call). It returns
// nil when it cannot: a wrapper from another package, or one nested more
// than four deep.
func (info *Info) Unwrap(c *Call) *Call {
	for depth := 0; c != nil && c.Wrapper != nil; depth++ {
		w := info.Wrappers[c.Wrapper]
		if w == nil || depth > 4 {
			return nil
		}
		c = w.Inner
	}
	return c
}

// PutValueVar returns the local variable a direct Put hands back (x in
// Put(x), Put(any(x)), and Put(&x) when addr is true) and the cursor of
// the statement the Put call is, or ok false.
func PutValueVar(info *types.Info, ins *inspector.Inspector, put *Call, addr bool) (x *types.Var, stmt inspector.Cursor, ok bool) {
	if put.Value == nil {
		return nil, stmt, false
	}
	v := flow.Unconvert(info, put.Value)
	if u, isU := v.(*ast.UnaryExpr); isU && u.Op == token.AND && addr {
		v = ast.Unparen(u.X)
	}
	id, isID := v.(*ast.Ident)
	if !isID {
		return nil, stmt, false
	}
	if x, ok = info.ObjectOf(id).(*types.Var); !ok {
		return nil, stmt, false
	}
	cur, found := Find(ins, put)
	if !found {
		return nil, stmt, false
	}
	stmt = cur.Parent()
	if _, isStmt := stmt.Node().(ast.Stmt); !isStmt {
		return nil, stmt, false
	}
	return x, stmt, true
}

// KitPoolMayReset reports whether the poolkit pool.Pool held by obj (a
// variable or field) may reset values on Put: it is built by pool.New with
// a WithReset option, or with options or a spread argument poolcall cannot
// see through, or it is not built by a visible pool.New at all. It returns
// false only when every assignment to obj in the package is a pool.New
// call whose options are all other pool options.
func KitPoolMayReset(pass *analysis.Pass, obj types.Object) bool {
	info := pass.TypesInfo
	var inits []ast.Expr
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if info.ObjectOf(id) == obj && i < len(n.Values) {
						inits = append(inits, n.Values[i])
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if ObjectOf(info, l) == obj && len(n.Lhs) == len(n.Rhs) {
						if _, isIdent := ast.Unparen(l).(*ast.Ident); isIdent || isSel(l) {
							inits = append(inits, n.Rhs[i])
						}
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && info.ObjectOf(id) == obj {
					inits = append(inits, n.Value)
				}
			}
			return true
		})
	}
	if len(inits) == 0 {
		return true
	}
	for _, e := range inits {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := typeutil.StaticCallee(info, call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != PoolkitPool || fn.Name() != "New" {
			return true
		}
		for _, opt := range call.Args[1:] {
			oc, ok := ast.Unparen(opt).(*ast.CallExpr)
			if !ok {
				return true // an option from a variable: may be WithReset
			}
			ofn := typeutil.StaticCallee(info, oc)
			if ofn == nil || ofn.Pkg() == nil || ofn.Pkg().Path() != PoolkitPool || ofn.Name() == "WithReset" {
				return true
			}
		}
		if call.Ellipsis.IsValid() {
			return true
		}
	}
	return false
}

func isSel(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok
}
