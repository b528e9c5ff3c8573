package pooltest

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestPinGCRestores(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	gc := debug.SetGCPercent(100)
	defer debug.SetGCPercent(gc)
	t.Run("pinned", func(t *testing.T) {
		PinGC(t)
		if got := runtime.GOMAXPROCS(0); got != 1 {
			t.Errorf("GOMAXPROCS = %d inside PinGC, want 1", got)
		}
		if got := debug.SetGCPercent(-1); got != -1 {
			t.Errorf("GC percent = %d inside PinGC, want -1 (off)", got)
		}
	})
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("GOMAXPROCS = %d after the test, want %d restored", got, procs)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent = %d after the test, want 100 restored", got)
	}
}
