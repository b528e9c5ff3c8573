// Package pooltest holds the helpers poolkit's tests share: deterministic
// pools, exact allocation counts, goroutines run at once.
//
// Pools are made deterministic as sync's own pool tests do it. The package
// also finds the go command for the tests that build programs.
package pooltest

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/poolkit/poolkit/allocs"
	"github.com/poolkit/poolkit/internal/check"
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

// CollectConcurrently runs the garbage collector over and over on a
// goroutine of its own until the test ends, so that a pointer written
// without a write barrier, or memory freed while still reachable, shows up
// in what the test checks. It is PinGC's opposite.
func CollectConcurrently(t testing.TB) {
	t.Helper()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
}

// SkipIfRace skips tests that need an object put into a pool to come back,
// or that count allocations: under the race detector sync.Pool drops one
// Put in four on purpose, and the detector's instrumentation allocates.
func SkipIfRace(t testing.TB) {
	t.Helper()
	if race.Enabled {
		t.Skip("sync.Pool drops Puts at random under -race")
	}
	SkipIfChecked(t)
}

// SkipIfChecked skips the same tests in checked mode (-tags poolkitcheck):
// its pools hold every Put value back in a quarantine before handing it
// out again, and its bookkeeping allocates.
func SkipIfChecked(t testing.TB) {
	t.Helper()
	if check.Enabled {
		t.Skip("checked mode (-tags poolkitcheck) holds values Put in a quarantine and allocates")
	}
}

// WantSteadyAllocs is WantAllocs after warmups calls of f, which fill the
// pools and caches f uses, so that only the steady state is counted. Like
// WantAllocs it skips under the race detector, before the warm-up.
func WantSteadyAllocs(t testing.TB, want float64, warmups int, f func()) bool {
	t.Helper()
	SkipIfRace(t)
	for range warmups {
		f()
	}
	return WantAllocs(t, want, f)
}

// WantAllocs measures in rounds of wantAllocsRuns calls, at most
// wantAllocsRounds of them.
const (
	wantAllocsRuns   = 1000
	wantAllocsRounds = 5
)

// WantAllocs fails the test unless f makes want heap allocations per call,
// counted exactly: allocs.PerRun's fractional mean over 1000 calls, where
// testing.AllocsPerRun would truncate 0.1 to 0. An allocation made once,
// not per call, such as the runtime growing a call site's type-assertion
// cache (done at random, on about one call in 1024 until it is cached),
// would show as a fraction in one round of 1000 calls, so WantAllocs takes
// the smallest count of up to five rounds: other allocations only add to a
// count, and one that f makes in steady state shows in every round.
//
// It skips the test where counts mean nothing (SkipIfRace) and pins the
// garbage collector and GOMAXPROCS for the rest of the test (PinGC), so no
// collection empties the pools f uses. It reports whether the count was
// want, for callers that add context to a failure.
func WantAllocs(t testing.TB, want float64, f func()) bool {
	t.Helper()
	SkipIfRace(t)
	PinGC(t)
	got := allocs.PerRun(wantAllocsRuns, f)
	for round := 1; round < wantAllocsRounds && got != want; round++ {
		got = min(got, allocs.PerRun(wantAllocsRuns, f))
	}
	if got != want {
		t.Errorf("%v allocations per call (the least of %d rounds of %d calls), want %v",
			got, wantAllocsRounds, wantAllocsRuns, want)
		return false
	}
	return true
}

// WantAllocsAmortized is WantAllocs for f that makes want allocations
// per call plus one, amortized, every per calls (a slab cut into per
// pieces, say): it fails the test unless the count lies between want and
// want plus one allocation per per calls, counted over rounds of 50*per
// calls, the least of up to five rounds.
func WantAllocsAmortized(t testing.TB, want float64, per int, f func()) bool {
	t.Helper()
	SkipIfRace(t)
	PinGC(t)
	runs := 50 * per
	// 50 slabs in a round, and maybe one begun in it.
	most := want + 51/float64(runs)
	got := allocs.PerRun(runs, f)
	for round := 1; round < wantAllocsRounds && (got < want || got > most); round++ {
		got = min(got, allocs.PerRun(runs, f))
	}
	if got < want || got > most {
		t.Errorf("%.4f allocations per call (the least of %d rounds of %d calls), want %v and at most one more every %d calls (%.4f)",
			got, wantAllocsRounds, runs, want, per, most)
		return false
	}
	return true
}

// Stress runs n goroutines, numbered 1 to n, for iters rounds each. In
// every round a goroutine calls acquire one to three times, holding what
// it got, yields, then calls the returned release functions in reverse
// order. acquire takes an object from the pool under test, claims it in
// holders (LoadOrStore of a key that identifies its memory, failing if
// another holder has it), fills it with a pattern of goroutine g's own and
// returns a release that checks the pattern, deletes the claim and puts the
// object back. The first error any acquire or release returns stops every
// goroutine and fails the test.
func Stress(t testing.TB, n, iters int, acquire func(g int, holders *sync.Map) (release func() error, err error)) {
	t.Helper()
	var (
		holders sync.Map
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
		failed  atomic.Bool
	)
	fail := func(err error) {
		errOnce.Do(func() { first = err })
		failed.Store(true)
	}
	for g := 1; g <= n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var releases []func() error
			for i := range iters {
				if failed.Load() {
					return
				}
				releases = releases[:0]
				for range 1 + (i+g)%3 {
					release, err := acquire(g, &holders)
					if err != nil {
						fail(err)
						return
					}
					releases = append(releases, release)
				}
				runtime.Gosched()
				for j := len(releases) - 1; j >= 0; j-- {
					if err := releases[j](); err != nil {
						fail(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		t.Fatal(first)
	}
}

// Claim records that goroutine g holds the memory identified by key, and
// returns an error naming both holders if another holder has it already.
func Claim(holders *sync.Map, key any, g int) error {
	if prev, loaded := holders.LoadOrStore(key, g); loaded {
		return fmt.Errorf("%T %p handed to goroutine %d while goroutine %v holds it", key, key, g, prev)
	}
	return nil
}
