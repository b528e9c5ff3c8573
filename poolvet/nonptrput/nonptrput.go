package nonptrput

import (
	"go/types"

	"github.com/poolkit/poolkit/poolvet/internal/ignore"
	"github.com/poolkit/poolkit/poolvet/internal/poolcall"
	"golang.org/x/tools/go/analysis"
)

// Analyzer reports sync.Pool.Put of values that allocate when boxed.
var Analyzer = &analysis.Analyzer{
	Name:     "nonptrput",
	Doc:      docText(),
	URL:      "https://pkg.go.dev/github.com/poolkit/poolkit/poolvet/nonptrput",
	Requires: []*analysis.Analyzer{poolcall.Analyzer},
	Run:      ignore.Run("nonptrput", run),
}

func run(pass *analysis.Pass) (any, error) {
	info := pass.ResultOf[poolcall.Analyzer].(*poolcall.Info)
	for _, c := range info.Calls {
		if c.Op != poolcall.Put || c.Kind != poolcall.SyncPool || c.Value == nil || c.ValueType == nil || c.Converted {
			continue
		}
		// The conversion to any happens where the value meets a
		// parameter of interface or type-parameter type: at a direct
		// Put, or at the call of a wrapper taking any or T. A wrapper
		// taking a concrete type is reported inside, at its own Put.
		if !isBoxing(c.ValueType) {
			continue
		}
		tv, ok := pass.TypesInfo.Types[c.Value]
		if !ok || tv.Value != nil || tv.IsNil() {
			continue // constants are boxed statically
		}
		why := allocates(pass, tv.Type)
		if why == "" {
			continue
		}
		via := ""
		if c.Wrapper != nil {
			via = " (through " + c.Wrapper.Name() + ")"
		}
		ts := types.TypeString(tv.Type, types.RelativeTo(pass.Pkg))
		d := analysis.Diagnostic{
			Pos: c.Value.Pos(),
			End: c.Value.End(),
			Message: "non-pointer put: " + c.PoolName + ".Put" + via + " of " + ts + " (" + why +
				") allocates on every call; pool a pointer such as *" + ts + " instead",
		}
		pass.Report(d)
	}
	return nil, nil
}

// isBoxing reports whether passing a value to a parameter of type t
// converts it to an interface.
func isBoxing(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	default:
		return types.IsInterface(t)
	}
}

// allocates returns a short reason when converting a value of type t to
// any allocates, or "" when it does not (or may not).
func allocates(pass *analysis.Pass, t types.Type) string {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		// Report a type parameter only when every type it can be
		// allocates, such as S ~[]E.
		why := ""
		ok := forEachTerm(tp, func(term types.Type) bool {
			w := allocates(pass, term)
			if w == "" {
				return false
			}
			why = w
			return true
		})
		if !ok || why == "" {
			return ""
		}
		return "type parameter " + tp.Obj().Name() + " is a " + why
	}
	if types.IsInterface(t) || directIface(t) {
		return ""
	}
	if pass.TypesSizes.Sizeof(t) <= 1 {
		return "" // zero-size and one-byte values use static storage
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return "a slice"
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return "a string"
		}
		return "a " + u.Name()
	case *types.Struct:
		return "a struct"
	case *types.Array:
		return "an array"
	}
	return ""
}

// forEachTerm calls f on each term of tp's type set; it returns false when
// the set is unrestricted (no terms) or f returns false.
func forEachTerm(tp *types.TypeParam, f func(types.Type) bool) bool {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	seen := false
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		u, ok := iface.EmbeddedType(i).(*types.Union)
		if !ok {
			if _, isIface := iface.EmbeddedType(i).Underlying().(*types.Interface); isIface {
				continue
			}
			seen = true
			if !f(iface.EmbeddedType(i)) {
				return false
			}
			continue
		}
		for j := 0; j < u.Len(); j++ {
			seen = true
			if !f(u.Term(j).Type()) {
				return false
			}
		}
	}
	return seen
}

// directIface reports whether values of t are stored in an interface
// directly, without allocation: pointer-shaped types, and structs and
// arrays wrapping exactly one of them (the gc compiler's isdirectiface).
func directIface(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Array:
		return u.Len() == 1 && directIface(u.Elem())
	case *types.Struct:
		return u.NumFields() == 1 && directIface(u.Field(0).Type())
	}
	return false
}
