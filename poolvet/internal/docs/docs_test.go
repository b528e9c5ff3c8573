package docs

import (
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	src := "// Package x does things.\n//\n// # Analyzer foo\n//\n// foo: find foos\n//\n// It finds them.\n//\n// # Other\n//\n// not this\npackage x\n"
	got := Extract(src, "foo")
	if want := "foo: find foos\n\nIt finds them."; got != want {
		t.Errorf("Extract = %q, want %q", got, want)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "# Analyzer bar") {
			t.Errorf("missing heading: recovered %v, want a panic naming the heading", r)
		}
	}()
	Extract(src, "bar")
}
