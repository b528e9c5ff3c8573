package ignore

import "testing"

func TestIgnores(t *testing.T) {
	for _, tc := range []struct {
		text, name string
		want       bool
	}{
		{"//poolvet:ignore nonptrput the allocation is measured", "nonptrput", true},
		{"//poolvet:ignore nonptrput the allocation is measured", "getreset", false},
		{"//poolvet:ignore getreset,nonptrput both, on purpose", "nonptrput", true},
		{"//poolvet:ignore getreset,nonptrput both, on purpose", "poolcopy", false},
		{"//poolvet:ignore deliberate: the pool is a test double", "useafterput", true},
		{"//poolvet:ignore deliberate: the pool is a test double", "retention", true},
		{"//poolvet:ignore\tdeliberate", "getnoput", true},
		// No reason: not honoured.
		{"//poolvet:ignore", "nonptrput", false},
		{"//poolvet:ignore ", "nonptrput", false},
		{"//poolvet:ignore nonptrput", "nonptrput", false},
		{"//poolvet:ignore nonptrput   ", "nonptrput", false},
		{"//poolvet:ignore nonptrput // want `x`", "nonptrput", false},
		{"//poolvet:ignore // a trailing comment is no reason", "nonptrput", false},
		// Not the directive.
		{"//poolvet:ignored nonptrput reason", "nonptrput", false},
		{"// poolvet:ignore nonptrput reason", "nonptrput", false},
		{"//nolint:poolvet", "nonptrput", false},
		// staticcheck's SA6002 suppressions, for nonptrput only.
		{"//lint:ignore SA6002 deliberate", "nonptrput", true},
		{"//nolint:staticcheck // SA6002: deliberate", "nonptrput", true},
		{"//lint:ignore SA6002 deliberate", "getreset", false},
		{"//nolint:staticcheck // SA1019 another check", "nonptrput", false},
	} {
		if got := Ignores(tc.text, tc.name); got != tc.want {
			t.Errorf("Ignores(%q, %q) = %v, want %v", tc.text, tc.name, got, tc.want)
		}
	}
}
