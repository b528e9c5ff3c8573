// Package allocs measures heap allocations exactly.
//
// testing.AllocsPerRun truncates its mean to an integer and warms the
// function up first, so a function that allocates once every ten calls
// reports 0 and the cost of a cold first call never shows. PerRun returns the
// exact fractional mean and First returns the allocations of a call made
// after the garbage collector has emptied every sync.Pool.
//
// Both functions set GOMAXPROCS to 1 while they measure, as
// testing.AllocsPerRun does, so that other goroutines of the program do not
// add their allocations to the count. PerRun also turns the garbage
// collector off while it measures: a collection empties every sync.Pool,
// and the next call would then pay for a refill that steady state never
// pays, which an exact mean would show as a spurious fraction. They are
// not safe to run in parallel with each other or with tests that change
// GOMAXPROCS or the GC percentage.
package allocs

import (
	"runtime"
	"runtime/debug"
)

// PerRun calls f once to warm it up, then runs times more, and returns the
// mean number of heap allocations per call, as an exact fraction. A runs of
// zero or less is treated as 1.
//
// The garbage collector is off from the warm-up call to the end of the
// measurement, so everything the runs allocate stays on the heap until
// PerRun returns: keep runs times the bytes f allocates small.
func PerRun(runs int, f func()) float64 {
	if runs <= 0 {
		runs = 1
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	f() // warm up: lazily initialised state and first pool fills
	before := mallocs()
	for i := 0; i < runs; i++ {
		f()
	}
	return float64(mallocs()-before) / float64(runs)
}

// First returns the number of heap allocations made by one cold call of f:
// the call comes right after two garbage collections, which empty every
// sync.Pool (the first moves pooled objects to the victim cache, the second
// drops them), so f pays for everything it would pay for on a fresh start or
// after an idle period.
func First(f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	runtime.GC()
	runtime.GC()
	before := mallocs()
	f()
	return mallocs() - before
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}
