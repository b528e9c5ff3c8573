// Package ctor copies pools returned by another package's functions.
package ctor

import (
	"sync"

	"lib"
)

var p, q sync.Pool

// A fresh pool from another package's constructor: nothing shares it.
func init() { p = *lib.NewPool() }

func fresh() {
	q = *lib.NewPoolMaybe(true)
	var r = *lib.NewPool()
	_ = r
}

// ---- flagged ----

func inUse() {
	p = *lib.Shared() // want `\*lib.Shared\(\) copies a sync.Pool`
	q = *lib.Cached() // want `\*lib.Cached\(\) copies a sync.Pool`
}

// A constructor that sets its value up in a local variable and returns it.
func freshLocal() {
	a := *lib.NewApp("x")
	b := *lib.NewAppVar(false)
	_, _ = a, b
}

func notFreshLocal() {
	a := *lib.Reused(true)  // want `\*lib.Reused\(true\) copies a sync.Pool`
	b := *lib.Overwritten() // want `\*lib.Overwritten\(\) copies a sync.Pool`
	c := *lib.Pointed()     // want `\*lib.Pointed\(\) copies a sync.Pool`
	_, _, _ = a, b, c
}
