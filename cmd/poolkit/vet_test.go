package main

import (
	"regexp"
	"strings"
	"testing"
)

const vetBad = `package vetdemo

import "sync"

var pool = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

// Use takes a slice from the pool and puts it back by value, which boxes
// the slice header on every Put.
func Use() int {
	b := pool.Get().([]byte)
	n := cap(b)
	pool.Put(b[:0])
	return n
}
`

const vetGood = `package vetdemo

import "sync"

var pool = sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}

// Use takes a slice from the pool and puts its box back.
func Use() int {
	b := pool.Get().(*[]byte)
	n := cap(*b)
	*b = (*b)[:0]
	pool.Put(b)
	return n
}
`

func TestVet(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	writeModule(t, dir, map[string]string{"v.go": vetBad})
	code, out, errOut := runIn(t, dir, "vet", ".")
	if code != 3 {
		t.Fatalf("vet of a non-pointer Put: exit %d, want 3\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !regexp.MustCompile(`v\.go:12:\d+: .*\.Put of .* allocates on every call`).MatchString(out + errOut) {
		t.Errorf("no nonptrput report at v.go:12:\n%s%s", out, errOut)
	}

	writeModule(t, dir, map[string]string{"v.go": vetGood})
	if code, out, errOut := runIn(t, dir, "vet"); code != 0 {
		t.Errorf("vet of correct code: exit %d\n%s%s", code, out, errOut)
	}

	writeModule(t, dir, map[string]string{"v.go": "package vetdemo\n\nfunc F() int { return nope }\n"})
	if code, _, errOut := runIn(t, dir, "vet"); code != 1 || !strings.Contains(errOut, "undefined: nope") {
		t.Errorf("vet of code that does not compile: exit %d, stderr %q", code, errOut)
	}
}
