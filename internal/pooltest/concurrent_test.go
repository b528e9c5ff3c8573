package pooltest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// stopRecorder is a recorder that also records FailNow.
type stopRecorder struct {
	recorder
	stopped bool
}

func (r *stopRecorder) FailNow() { r.stopped = true }

func TestRunConcurrently(t *testing.T) {
	const n = 8
	// Every goroutine waits until all have started: run one after the
	// other, they would time out.
	var started sync.WaitGroup
	started.Add(n)
	all := make(chan struct{})
	go func() { started.Wait(); close(all) }()
	seen := make([]int, n)
	RunConcurrently(t, n, func(g int) error {
		seen[g]++
		started.Done()
		select {
		case <-all:
			return nil
		case <-time.After(10 * time.Second):
			return fmt.Errorf("goroutine %d: the others did not start within 10s", g)
		}
	})
	for g, k := range seen {
		if k != 1 {
			t.Errorf("f(%d) called %d times, want 1", g, k)
		}
	}

	r := &stopRecorder{recorder: recorder{TB: t}}
	RunConcurrently(r, 4, func(g int) error {
		if g%2 == 1 {
			return fmt.Errorf("g%d failed", g)
		}
		return nil
	})
	slices.Sort(r.errors)
	if !r.stopped || !slices.Equal(r.errors, []string{"g1 failed", "g3 failed"}) {
		t.Errorf("with two failing goroutines: errors %q, stopped %v; want both errors and a stop", r.errors, r.stopped)
	}
	r = &stopRecorder{recorder: recorder{TB: t}}
	RunConcurrently(r, 4, func(int) error { return nil })
	if r.stopped || len(r.errors) != 0 {
		t.Errorf("with no failure: errors %q, stopped %v", r.errors, r.stopped)
	}
}
