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
