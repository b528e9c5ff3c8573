package flow_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
)

const rootSrc = `package p

import "strings"

type T struct {
	f  *T
	s  []byte
	fn func()
}

type B []byte

var G T

func (t *T) M() {}

func f(x *T, ch chan *T, arr [][]byte, b B) {
	_ = x
	_ = &x
	_ = *x
	_ = x.f.s
	_ = (*x).f
	_ = arr[1][2:3]
	_ = []byte(b)
	_ = any(&x.s)
	_ = G.s
	_ = strings.ToUpper
	_ = <-ch
	_ = (<-ch).s
	_ = x.M
	_ = -len(arr)
	_ = T{}
	_ = (*[4]byte)(b)
	_ = any(b)
}
`

func TestRootPathAndConversions(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", rootSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "f" {
			fn = fd
		}
	}
	var exprs []ast.Expr
	for _, s := range fn.Body.List {
		exprs = append(exprs, s.(*ast.AssignStmt).Rhs[0])
	}
	// The root variable of each right-hand side, "" for none.
	want := []string{"x", "x", "x", "x", "x", "arr", "b", "x", "G", "", "", "", "", "", "", "b", "b"}
	for i, e := range exprs {
		got := ""
		if v := flow.Root(info, e); v != nil {
			got = v.Name()
		}
		if got != want[i] {
			t.Errorf("Root(%s) = %q, want %q", types.ExprString(e), got, want[i])
		}
	}
	x := flow.Root(info, exprs[0])
	for i, want := range map[int]string{0: "", 2: "", 3: ".f.s", 4: ".f"} {
		if got, ok := flow.Path(info, exprs[i], x); !ok || got != want {
			t.Errorf("Path(%s) = %q, %v, want %q", types.ExprString(exprs[i]), got, ok, want)
		}
	}
	for _, i := range []int{1, 5, 12} {
		if p, ok := flow.Path(info, exprs[i], x); ok {
			t.Errorf("Path(%s) = %q, true: want not a field path", types.ExprString(exprs[i]), p)
		}
	}
	// (*[4]byte)(b) and []byte(b) change the concrete type (b is a B);
	// any(b) and a plain x do not.
	for i, want := range map[int]bool{15: true, 16: false, 6: true, 0: false} {
		if _, changes := flow.StripConversions(info, exprs[i]); changes != want {
			t.Errorf("StripConversions(%s) changes = %v, want %v", types.ExprString(exprs[i]), changes, want)
		}
	}
}
