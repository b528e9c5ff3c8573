package flow_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/poolkit/poolkit/poolvet/internal/flow"
)

const src = `package p

func f(small bool) {
	var b []byte
	b = b[:0]
	if small {
		_ = len(b)
		put(any((b)))
	}
	g := func() { _ = b }
	_ = g
}

func put(any) {}
`

// check parses and type-checks the one-file package source.
func check(t *testing.T, source string) (*ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", source, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return f, info
}

func load(t *testing.T) (*ast.File, *types.Info, *types.Var) {
	t.Helper()
	f, info := check(t, src)
	var b *types.Var
	for id, obj := range info.Defs {
		if id.Name == "b" {
			b = obj.(*types.Var)
		}
	}
	return f, info, b
}

func TestPrecedingAndUnconvert(t *testing.T) {
	f, info, b := load(t)
	ins := inspector.New([]*ast.File{f})
	var putCall *ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "put" {
				putCall = c
			}
		}
		return true
	})
	cur, ok := ins.Root().FindNode(putCall)
	if !ok {
		t.Fatal("put call not found")
	}
	stmt := cur.Parent() // the ExprStmt
	pre := flow.Preceding(stmt)
	// In the if block: _ = len(b); in the function body: var b, b = b[:0].
	if len(pre) != 3 {
		t.Fatalf("Preceding returned %d statements, want 3", len(pre))
	}
	if _, ok := pre[1].(*ast.DeclStmt); !ok {
		t.Errorf("Preceding()[1] = %T, want the var declaration of the function body", pre[1])
	}
	if body := flow.EnclosingBody(stmt); body == nil || len(body.List) != 5 {
		t.Errorf("EnclosingBody is not f's body")
	}
	if got := flow.Unconvert(info, putCall.Args[0]); !flow.IsVar(info, got, b) {
		t.Errorf("Unconvert(any((b))) = %T, want b", got)
	}
	if flow.IsVar(info, putCall, b) {
		t.Errorf("IsVar(put(...), b) = true")
	}
	lit := f.Decls[0].(*ast.FuncDecl).Body.List[3]
	if !flow.Mentions(info, lit, b) || flow.Mentions(info, f.Decls[1], b) {
		t.Errorf("Mentions: want true for the closure using b, false for put")
	}
	if n := len(flow.StmtList(f.Decls[0].(*ast.FuncDecl).Body)); n != 5 {
		t.Errorf("StmtList(body) has %d statements, want 5", n)
	}
}
