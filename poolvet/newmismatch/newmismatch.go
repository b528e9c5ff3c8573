package newmismatch

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/poolkit/poolkit/poolvet/internal/analyzer"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports Get assertions and Puts whose type the pool's New never
// returns.
var Analyzer = analyzer.New("newmismatch", doc, run)

// get is a Get whose result is asserted to a concrete type and would panic
// on a mismatch.
type get struct {
	call *poolcall.Call
	typ  types.Type
	at   ast.Node // the assertion (or the wrapper call)
}

func run(pass *analysis.Pass, info *poolcall.Info, ins *inspector.Inspector) (any, error) {
	if len(info.New) == 0 {
		return nil, nil
	}

	// Find the panicking assertions on direct Gets: a TypeAssertExpr
	// whose operand is the Get, not used in a comma-ok form.
	commaOK := map[*ast.TypeAssertExpr]bool{}
	ins.Preorder([]ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)}, func(n ast.Node) {
		var rhs []ast.Expr
		var lhs int
		switch n := n.(type) {
		case *ast.AssignStmt:
			rhs, lhs = n.Rhs, len(n.Lhs)
		case *ast.ValueSpec:
			rhs, lhs = n.Values, len(n.Names)
		}
		if len(rhs) == 1 && lhs == 2 {
			if ta, ok := ast.Unparen(rhs[0]).(*ast.TypeAssertExpr); ok {
				commaOK[ta] = true
			}
		}
	})
	var gets []get
	ins.Preorder([]ast.Node{(*ast.TypeAssertExpr)(nil)}, func(n ast.Node) {
		ta := n.(*ast.TypeAssertExpr)
		if ta.Type == nil || commaOK[ta] {
			return
		}
		call, ok := ast.Unparen(ta.X).(*ast.CallExpr)
		if !ok {
			return
		}
		c := info.ByCall[call]
		if c == nil || c.Op != poolcall.Get || c.Kind != poolcall.SyncPool || c.Wrapper != nil {
			return
		}
		t := pass.TypesInfo.TypeOf(ta.Type)
		if t == nil || types.IsInterface(t) {
			return
		}
		gets = append(gets, get{c, t, ta})
	})
	// Gets through wrappers whose result type is the wrapper's type
	// parameter: the type asserted inside is the instantiated result.
	for _, c := range info.Calls {
		if c.Op != poolcall.Get || c.Kind != poolcall.SyncPool || c.Wrapper == nil {
			continue
		}
		res := c.Wrapper.Type().(*types.Signature).Results()
		if res.Len() != 1 {
			continue
		}
		if _, ok := types.Unalias(res.At(0).Type()).(*types.TypeParam); !ok {
			continue
		}
		t := pass.TypesInfo.TypeOf(c.Call)
		if t == nil || types.IsInterface(t) {
			continue
		}
		gets = append(gets, get{c, t, c.Call})
	}

	for _, g := range gets {
		n := known(info, g.call.Pool)
		if n == nil || n.Has(g.typ) {
			continue
		}
		via := ""
		if g.call.Wrapper != nil {
			via = " (through " + g.call.Wrapper.Name() + ")"
		}
		pass.ReportRangef(g.at, "%s.Get()%s asserted to %s panics when the pool is empty (New on line %d returns only %s)",
			g.call.PoolName, via, typeString(pass, g.typ), line(pass, n.Pos[0]), typeList(pass, n.Types))
	}

	// Puts of a type New never returns, on a pool whose Gets assert a
	// type New does return.
	for _, c := range info.Calls {
		if c.Op != poolcall.Put || c.Kind != poolcall.SyncPool || c.Value == nil || c.Converted {
			continue
		}
		n := known(info, c.Pool)
		if n == nil {
			continue
		}
		tv, ok := pass.TypesInfo.Types[c.Value]
		if !ok || tv.IsNil() || types.IsInterface(tv.Type) {
			continue
		}
		t := tv.Type
		if _, ok := types.Unalias(t).(*types.TypeParam); ok || n.Has(t) {
			continue
		}
		var victim *get
		for i := range gets {
			g := &gets[i]
			if g.call.Pool == c.Pool && n.Has(g.typ) && !types.Identical(g.typ, t) {
				victim = g
				break
			}
		}
		if victim == nil {
			continue
		}
		pass.ReportRangef(c.Value, "%s.Put of %s makes the assertion to %s on line %d panic (New on line %d never returns %s)",
			c.PoolName, typeString(pass, t), typeString(pass, victim.typ), line(pass, victim.at.Pos()), line(pass, n.Pos[0]), typeString(pass, t))
	}
	return nil, nil
}

// known returns the New information of pool when it is complete enough to
// prove a mismatch.
func known(info *poolcall.Info, pool types.Object) *poolcall.NewInfo {
	if pool == nil {
		return nil
	}
	n := info.New[pool]
	if n == nil || n.Unknown || len(n.Types) == 0 || len(n.Pos) == 0 {
		return nil
	}
	for _, t := range n.Types {
		if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
			return nil // New may return nil: callers must cope anyway
		}
		if mentionsTypeParam(t, 0) {
			return nil // new(T) in generic code: compared per instance, not here
		}
	}
	return n
}

// mentionsTypeParam reports whether t is or contains a type parameter.
func mentionsTypeParam(t types.Type, depth int) bool {
	if depth > 8 {
		return true // deep enough to stay quiet
	}
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return mentionsTypeParam(t.Elem(), depth+1)
	case *types.Slice:
		return mentionsTypeParam(t.Elem(), depth+1)
	case *types.Array:
		return mentionsTypeParam(t.Elem(), depth+1)
	case *types.Chan:
		return mentionsTypeParam(t.Elem(), depth+1)
	case *types.Map:
		return mentionsTypeParam(t.Key(), depth+1) || mentionsTypeParam(t.Elem(), depth+1)
	case *types.Named:
		for a := range t.TypeArgs().Types() {
			if mentionsTypeParam(a, depth+1) {
				return true
			}
		}
	}
	return false
}

func typeString(pass *analysis.Pass, t types.Type) string {
	return types.TypeString(t, types.RelativeTo(pass.Pkg))
}

func typeList(pass *analysis.Pass, ts []types.Type) string {
	var out []string
	for _, t := range ts {
		s := typeString(pass, t)
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return strings.Join(out, " or ")
}

func line(pass *analysis.Pass, pos token.Pos) int {
	return pass.Fset.Position(pos).Line
}
