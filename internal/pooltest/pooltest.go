// Package pooltest holds the helpers the pool packages' tests share to make
// pool behaviour deterministic, as sync's own pool tests do.
package pooltest

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/poolkit/poolkit/internal/race"
)

// PinGC disables the garbage collector and pins the test to one P until the
// test ends, so that nothing empties the pool behind the test's back and
// every Get and Put meets the same per-P cache.
func PinGC(t testing.TB) {
	t.Helper()
	gcPercent := debug.SetGCPercent(-1)
	procs := runtime.GOMAXPROCS(1)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(procs)
		debug.SetGCPercent(gcPercent)
	})
}

// SkipIfRace skips tests that need an object put into a pool to come back,
// or that count allocations: under the race detector sync.Pool drops one
// Put in four on purpose, and the detector's instrumentation allocates.
func SkipIfRace(t testing.TB) {
	t.Helper()
	if race.Enabled {
		t.Skip("sync.Pool drops Puts at random under -race")
	}
}
