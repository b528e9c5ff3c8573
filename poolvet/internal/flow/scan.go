package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// EventKind is what a statement does to a pooled variable, as a Scanner
// sees it.
type EventKind int

// The kinds of event.
const (
	Clear  EventKind = iota + 1 // Path is reset, zeroed or overwritten
	Write                       // Path is written to, appended to or decoded into
	Escape                      // the variable reaches code we cannot see, or is reassigned
)

// Event is one thing a Scanner found a statement doing to a variable.
type Event struct {
	Kind EventKind
	Path string        // field path below the variable: "", ".buf", ".buf.x"
	Expr ast.Expr      // the expression written, when known
	Call *ast.CallExpr // the call doing it, when it is a call
	Name string        // what does it, for messages ("json.Unmarshal")
	Pos  token.Pos
}

// Scanner walks statements in source order and reports what they do to
// one variable, for analyzers that follow a pooled value from its Get (or
// back from its Put). The walk itself is shared: a closure mentioning the
// variable, or any use of it the hooks do not classify, is an Escape;
// reading a field (x.f, *x), comparing it (x == nil) and the right-hand
// sides of assignments are looked into. What assignments and calls do is
// the analyzer's to say.
type Scanner struct {
	Info *types.Info
	// Assign classifies the left-hand sides of an assignment, whose
	// right-hand sides were already scanned.
	Assign func(as *ast.AssignStmt, x *types.Var, emit func(Event))
	// Call classifies a call and returns whether to look inside it (its
	// arguments then go through the usual walk).
	Call func(call *ast.CallExpr, x *types.Var, emit func(Event)) bool
}

// Scan reports the events on x in n, in source order, until f returns
// false; it returns false if f did.
func (s *Scanner) Scan(n ast.Node, x *types.Var, f func(Event) bool) bool {
	info := s.Info
	goOn := true
	emit := func(ev Event) {
		if goOn && !f(ev) {
			goOn = false
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if !goOn {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if Mentions(info, n, x) {
				emit(Event{Kind: Escape, Pos: n.Pos()})
			}
			return false
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				s.Scan(r, x, func(ev Event) bool { emit(ev); return goOn })
			}
			s.Assign(n, x, emit)
			return false
		case *ast.CallExpr:
			return s.Call(n, x, emit)
		case *ast.Ident:
			if info.ObjectOf(n) == x {
				// A use we did not classify: x passed or stored somewhere.
				emit(Event{Kind: Escape, Pos: n.Pos()})
			}
		case *ast.SelectorExpr, *ast.StarExpr:
			if _, ok := Path(info, n.(ast.Expr), x); ok {
				return false // reading a field
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if IsVar(info, n.X, x) || IsVar(info, n.Y, x) {
					return false // x == nil
				}
			}
		}
		return true
	})
	return goOn
}

// ScanList scans the statements of list in order until f returns false.
func (s *Scanner) ScanList(list []ast.Stmt, x *types.Var, f func(Event) bool) {
	for _, st := range list {
		if !s.Scan(st, x, f) {
			return
		}
	}
}
