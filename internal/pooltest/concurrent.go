package pooltest

import (
	"sync"
	"testing"
)

// RunConcurrently runs f(g) on n goroutines at once, g from 0 to n-1, and
// waits for them all. It reports every error they return and then, if
// there was one, stops the test.
func RunConcurrently(t testing.TB, n int, f func(g int) error) {
	t.Helper()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Go(func() { errs[g] = f(g) })
	}
	wg.Wait()
	failed := false
	for _, err := range errs {
		if err != nil {
			t.Errorf("%v", err)
			failed = true
		}
	}
	if failed {
		t.FailNow()
	}
}
