package workloads

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/poolkit/poolkit/allocs"
	"github.com/poolkit/poolkit/internal/check"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/race"
)

// TestRegistry checks the shape every workload file must give its cases.
func TestRegistry(t *testing.T) {
	all := All()
	if len(all) == 0 {
		t.Fatal("no cases registered")
	}
	naives := map[string]int{}
	variants := map[string]bool{}
	seen := map[string]bool{}
	for _, c := range all {
		key := c.Workload + "/" + c.Label()
		if c.Workload == "" || c.Op == nil {
			t.Errorf("%s: Workload and Op must be set", key)
		}
		if seen[key] {
			t.Errorf("%s: registered twice; give cases of one variant distinct Names", key)
		}
		seen[key] = true
		switch c.Variant {
		case Naive:
			naives[c.Workload]++
		case Seed, Poolkit:
		default:
			t.Errorf("%s: unknown variant %q", key, c.Variant)
		}
		variants[c.Workload] = true
		if c.Variant == Poolkit && c.WantAllocs < 0 {
			t.Errorf("%s: poolkit case without WantAllocs", key)
		}
		if c.Variant != Poolkit && c.WantAllocs >= 0 {
			t.Errorf("%s: WantAllocs is for poolkit cases only (got %v)", key, c.WantAllocs)
		}
		if p := c.Published; p != nil && p.Source == "" {
			t.Errorf("%s: published figure without a source", key)
		}
	}
	for w := range variants {
		if naives[w] != 1 {
			t.Errorf("workload %q has %d naive cases, want 1 (speed-ups are relative to it)", w, naives[w])
		}
	}
}

// TestCases runs every case: it must succeed (its result passes the
// workload's own check), and poolkit cases must allocate what their
// package's tests assert, in steady state: with the garbage collector off,
// since every collection empties the pools.
func TestCases(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, c := range All() {
		t.Run(c.Workload+"/"+c.Label(), func(t *testing.T) {
			for range 3 {
				if err := c.Op(); err != nil {
					t.Fatal(err)
				}
			}
			if c.Parallel {
				pooltest.RunConcurrently(t, 4, func(int) error {
					for range 200 {
						if err := c.Op(); err != nil {
							return err
						}
					}
					return nil
				})
			}
			if c.WantAllocs < 0 || race.Enabled || check.Enabled {
				return
			}
			// The smallest of three measurements: allocations made by
			// other goroutines of the test binary can only add to a count.
			var opErr error
			got := math.Inf(1)
			for range 3 {
				got = min(got, allocs.PerRun(200, func() {
					if err := c.Op(); err != nil {
						opErr = err
					}
				}))
			}
			if opErr != nil {
				t.Fatal(opErr)
			}
			if math.Abs(got-c.WantAllocs) > 1e-9 {
				t.Errorf("allocs/op = %v, want %v", got, c.WantAllocs)
			}
		})
	}
}
