// Package newmismatch defines an Analyzer that reports type assertions on
// sync.Pool.Get, and values handed to Put, whose type the pool's New
// function never returns.
//
// # Analyzer newmismatch
//
// newmismatch: report Get/Put types that disagree with the pool's New
//
// When a sync.Pool is empty, Get returns what New returns. A Get asserted
// to another type panics the first time the pool is empty, typically
// under load or right after a garbage collection; a Put of another type
// makes a later Get panic instead. The check collects every New function
// set in the package (on package variables, struct fields through
// composite literals and assignments, and local variables) and reports:
//
//   - p.Get().(T), where New never returns a T;
//   - p.Put(x), where New never returns x's type and a Get of the same
//     pool asserts a type New does return, so the Get that receives x
//     panics.
//
// Bad:
//
//	var ints = sync.Pool{New: func() any { return new([]int) }}
//
//	s := ints.Get().(*[]string) // panics: New returns *[]int
//
// Good:
//
//	var ints = sync.Pool{New: func() any { return new([]int) }}
//
//	s := ints.Get().(*[]int)
//
// Generic wrappers are seen through: func get[T any](p *sync.Pool) T {
// return p.Get().(T) } called as get[*[]string](&ints) is reported at the
// call. Comma-ok assertions are not reported (they cannot panic), nor are
// pools whose New cannot be followed to its return statements.
package newmismatch

import _ "embed"

//go:embed doc.go
var doc string
