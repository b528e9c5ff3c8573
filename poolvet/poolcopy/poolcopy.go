package poolcopy

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/poolkit/poolkit/poolvet/internal/analyzer"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Analyzer reports pool copies that copylocks misses.
var Analyzer = analyzer.New("poolcopy", doc, run)

// copying lists the functions of slices, maps and sort that copy or move
// the elements of their slice or map arguments.
var copying = map[string]map[string]bool{
	"slices": set("Clone", "Concat", "Insert", "Replace", "Repeat", "Grow", "Delete", "DeleteFunc",
		"Compact", "CompactFunc", "Reverse", "SortFunc", "SortStableFunc", "AppendSeq", "Collect",
		"Sorted", "SortedFunc", "SortedStableFunc", "Max", "MaxFunc", "Min", "MinFunc", "Chunk"),
	"maps": set("Clone", "Copy", "Collect", "Insert"),
	"sort": set("Slice", "SliceStable"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

func run(pass *analysis.Pass, _ *poolcall.Info, ins *inspector.Inspector) (any, error) {
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil), (*ast.SendStmt)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.SendStmt:
			if fresh(pass, n.Value) {
				return
			}
			if path := poolPath(pass.TypesInfo.TypeOf(n.Value), nil); path != "" {
				pass.ReportRangef(n.Value, "sending %s on a channel copies %s",
					types.ExprString(n.Value), path)
			}
		case *ast.CallExpr:
			checkCall(pass, n)
		}
	})
	checkDerefs(pass, ins)
	return nil, nil
}

// checkDerefs reports *p used as a value (assigned, declared, returned,
// passed, put in a literal) where *p holds a pool: the copy shares the
// pool's per-processor caches with the original. vet's copylocks reports
// these for sync.Pool, but not the dereference of a call (*Default()),
// nor poolkit's pools.
func checkDerefs(pass *analysis.Pass, ins *inspector.Inspector) {
	info := pass.TypesInfo
	for cur := range ins.Root().Preorder((*ast.StarExpr)(nil)) {
		star := cur.Node().(*ast.StarExpr)
		if tv, ok := info.Types[star]; !ok || !tv.IsValue() {
			continue // a pointer type, not a dereference
		}
		path := poolPath(info.TypeOf(star), nil)
		if path == "" || fresh(pass, star) {
			continue
		}
		if !copiedAt(cur) {
			continue
		}
		pass.ReportRangef(star, "%s copies %s", types.ExprString(star), path)
	}
}

// copiedAt reports whether the expression at cur is copied as a value by
// its context: the right-hand side of an assignment or declaration, a
// returned value, a call argument, an element of a composite literal.
func copiedAt(cur inspector.Cursor) bool {
	e := cur.Node()
	p := cur.Parent()
	for {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			break
		}
		e, p = p.Node(), p.Parent()
	}
	x, _ := e.(ast.Expr)
	switch n := p.Node().(type) {
	case *ast.AssignStmt:
		return slices.Contains(n.Rhs, x)
	case *ast.ValueSpec:
		return slices.Contains(n.Values, x)
	case *ast.ReturnStmt:
		return true
	case *ast.CallExpr:
		return slices.Contains(n.Args, x)
	case *ast.CompositeLit:
		return true // an element (not the type: a type is not a value)
	case *ast.KeyValueExpr:
		return n.Value == e
	}
	return false
}

func checkCall(pass *analysis.Pass, call *ast.CallExpr) {
	info := pass.TypesInfo
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch {
			case b.Name() == "copy" && len(call.Args) == 2:
				if path := elemPath(info.TypeOf(call.Args[0])); path != "" {
					pass.ReportRangef(call, "copy(%s, %s) copies elements that hold %s",
						types.ExprString(call.Args[0]), types.ExprString(call.Args[1]), path)
				}
			case b.Name() == "append" && call.Ellipsis.IsValid() && len(call.Args) == 2:
				if path := elemPath(info.TypeOf(call.Args[0])); path != "" {
					pass.ReportRangef(call, "append(%s, %s...) copies elements that hold %s",
						types.ExprString(call.Args[0]), types.ExprString(call.Args[1]), path)
				}
			}
			return
		}
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return
	}
	names := copying[fn.Pkg().Path()]
	if !names[fn.Name()] {
		return
	}
	for _, arg := range call.Args {
		t := info.TypeOf(arg) // for sort.Slice(x any, ...), the operand's own type
		if path := elemPath(t); path != "" {
			pass.ReportRangef(call, "%s.%s copies or moves the elements of %s, which hold %s",
				fn.Pkg().Name(), fn.Name(), types.ExprString(arg), path)
			return
		}
	}
}

// fresh reports whether e makes a new value rather than naming an existing
// one: a composite literal, a call, or the dereference of new(T) or of a
// call of a function (of any package) that returns only &T{...} or new(T).
// Unlike copylocks, *f() of any other function (e := *Default()) is not
// fresh: it may well return a pool in use.
func fresh(pass *analysis.Pass, e ast.Expr) bool {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.CompositeLit, *ast.CallExpr:
		return true
	case *ast.StarExpr:
		call, ok := ast.Unparen(x.X).(*ast.CallExpr)
		return ok && freshPointer(pass, call)
	}
	return false
}

// freshPointer reports whether call is new(T), or a call of a function
// whose every return is &T{...} or new(T): one of this package, or one of
// another package known by poolcall's FreshFact.
func freshPointer(pass *analysis.Pass, call *ast.CallExpr) bool {
	info := pass.TypesInfo
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			return b.Name() == "new"
		}
	}
	fn := typeutil.StaticCallee(info, call)
	if pc, _ := pass.ResultOf[poolcall.Analyzer].(*poolcall.Info); pc != nil && pc.Fresh(fn) {
		return true // a constructor, of this package or another
	}
	if fn == nil || fn.Pkg() != pass.Pkg {
		return false
	}
	var body *ast.BlockStmt
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && info.Defs[fd.Name] == fn.Origin() {
				body = fd.Body
			}
		}
	}
	if body == nil {
		return false
	}
	return poolcall.ReturnsFresh(info, body)
}

// elemPath returns poolPath of the element (or map value) type of a slice,
// array pointer or map type t.
func elemPath(t types.Type) string {
	if t == nil {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return poolPath(u.Elem(), nil)
	case *types.Map:
		if p := poolPath(u.Key(), nil); p != "" {
			return p
		}
		return poolPath(u.Elem(), nil)
	case *types.Array:
		return poolPath(u.Elem(), nil)
	}
	return ""
}

// poolPath says where a value of type t holds a pool by value, such as
// "a sync.Pool (shard.bufs)", or returns "".
func poolPath(t types.Type, seen map[types.Type]bool) string {
	if t == nil || seen[t] {
		return ""
	}
	if seen == nil {
		seen = map[types.Type]bool{}
	}
	seen[t] = true
	if name := poolName(t); name != "" {
		return "a " + name
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		return poolPath(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if name := poolName(f.Type()); name != "" {
				return "a " + name + " (" + typeName(t) + "." + f.Name() + ")"
			}
			if p := poolPath(f.Type(), seen); p != "" {
				return p
			}
		}
	}
	return ""
}

func typeName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return "struct"
}

// poolName returns "sync.Pool", "pool.Pool", ... when t is a pool type.
func poolName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Name() != "Pool" {
		return ""
	}
	switch n.Obj().Pkg().Path() {
	case "sync":
		return "sync.Pool"
	case poolcall.PoolkitPool:
		return "pool.Pool"
	case poolcall.PoolkitSlicePool:
		return "slicepool.Pool"
	case poolcall.PoolkitByteBuf:
		return "bytebuf.Pool"
	}
	return ""
}
