package allocs_test

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/allocs"
	"github.com/poolkit/poolkit/internal/race"
)

var (
	sinkInt   *int
	sinkBytes []byte
)

// everyN returns a function that allocates once on every n-th call.
func everyN(n int) func() {
	calls := 0
	return func() {
		calls++
		if calls%n == 0 {
			sinkInt = new(int)
		}
	}
}

func TestPerRun(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates on its own")
	}
	tests := []struct {
		name string
		runs int
		f    func()
		want float64
	}{
		{"never", 100, func() {}, 0},
		{"every call", 100, everyN(1), 1},
		{"three per call", 50, func() {
			sinkInt = new(int)
			sinkBytes = make([]byte, 64)
			sinkBytes = append(sinkBytes, make([]byte, 1000)...)
		}, 3},
		{"one in ten", 100, everyN(10), 0.1},
		{"one in ten, many runs", 10000, everyN(10), 0.1},
		{"one in four", 1000, everyN(4), 0.25},
		{"one in a thousand", 1000, everyN(1000), 0.001},
		{"runs 0 counts as 1", 0, everyN(1), 1},
		{"negative runs count as 1", -5, everyN(1), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := allocs.PerRun(tt.runs, tt.f); got != tt.want {
				t.Fatalf("PerRun(%d) = %v, want %v", tt.runs, got, tt.want)
			}
		})
	}
}

// TestPerRunIsNotTruncated shows what PerRun is for: testing.AllocsPerRun
// reports a function that allocates once in ten calls as allocation-free.
func TestPerRunIsNotTruncated(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates on its own")
	}
	if got := testing.AllocsPerRun(100, everyN(10)); got != 0 {
		t.Fatalf("testing.AllocsPerRun = %v; this test assumes it truncates 0.1 to 0", got)
	}
	if got := allocs.PerRun(100, everyN(10)); got != 0.1 {
		t.Fatalf("allocs.PerRun = %v, want 0.1", got)
	}
}

func TestPerRunRestoresSettings(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	gc := debug.SetGCPercent(77)
	defer debug.SetGCPercent(gc)
	allocs.PerRun(10, func() {
		if runtime.GOMAXPROCS(0) != 1 {
			t.Error("GOMAXPROCS is not 1 while measuring")
		}
	})
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("GOMAXPROCS = %d after PerRun, want %d", got, procs)
	}
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("GC percent = %d after PerRun, want 77", got)
	}
}

func TestFirst(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates on its own")
	}
	type obj struct{ _ [256]byte }
	pool := sync.Pool{New: func() any { return new(obj) }}
	getPut := func() { pool.Put(pool.Get()) }

	tests := []struct {
		name    string
		f       func()
		atLeast uint64
		atMost  uint64
	}{
		{"nothing", func() {}, 0, 0},
		{"two allocations", func() { sinkInt = new(int); sinkBytes = make([]byte, 100) }, 2, 2},
		// The pool is empty after the GCs, so Get calls New; the pool's
		// per-P storage is made again as well.
		{"cold pool", getPut, 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := allocs.First(tt.f)
			if got < tt.atLeast || got > tt.atMost {
				t.Fatalf("First = %d, want %d to %d", got, tt.atLeast, tt.atMost)
			}
		})
	}

	// The same Get/Put costs nothing once warm: the cost First exposes
	// is the one a warmed-up benchmark hides.
	if got := allocs.PerRun(100, getPut); got != 0 {
		t.Fatalf("warm Get/Put: PerRun = %v, want 0", got)
	}
}
