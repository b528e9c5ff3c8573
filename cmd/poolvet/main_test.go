package main

import (
	"reflect"
	"testing"
)

func TestTakeAll(t *testing.T) {
	for _, tc := range []struct {
		args []string
		all  bool
		rest []string
	}{
		{[]string{"./..."}, false, []string{"./..."}},
		{[]string{"-all", "./..."}, true, []string{"./..."}},
		{[]string{"--all=true", "-json", "./..."}, true, []string{"-json", "./..."}},
		{[]string{"-all", "-all=false", "x"}, false, []string{"x"}},
	} {
		all, rest := takeAll(tc.args)
		if all != tc.all || !reflect.DeepEqual(rest, tc.rest) {
			t.Errorf("takeAll(%q) = %v, %q; want %v, %q", tc.args, all, rest, tc.all, tc.rest)
		}
	}
}
