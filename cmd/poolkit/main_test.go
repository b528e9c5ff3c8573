package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestUsage checks that poolkit help lists every command, vet included,
// and that each answers -h with its own usage.
func TestUsage(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"help"}, &out, &bytes.Buffer{}); code != 0 {
		t.Fatalf("poolkit help: exit %d", code)
	}
	for _, name := range []string{"bench", "allocs", "vet"} {
		if !strings.Contains(out.String(), "\n  "+name+" ") {
			t.Errorf("usage does not list %s:\n%s", name, out.String())
		}
		var stderr bytes.Buffer
		if code := run([]string{name, "-h"}, &bytes.Buffer{}, &stderr); code != 0 ||
			!strings.Contains(stderr.String(), "usage: poolkit "+name) {
			t.Errorf("poolkit %s -h: exit %d, stderr %q", name, code, stderr.String())
		}
	}
}
