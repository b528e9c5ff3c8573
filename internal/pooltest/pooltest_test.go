package pooltest

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
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

// recorder is a testing.TB that keeps the failures reported to it, so a
// test can check that a helper fails; everything else goes to the real test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

var sink *int

func TestWantAllocs(t *testing.T) {
	SkipIfRace(t)
	calls := 0
	oneInTen := func() {
		calls++
		if calls%10 == 0 {
			sink = new(int)
		}
	}
	tests := []struct {
		name    string
		want    float64
		f       func()
		wantErr string
	}{
		{"none", 0, func() {}, ""},
		{"one", 1, func() { sink = new(int) }, ""},
		{"one, want none", 0, func() { sink = new(int) }, "1 allocations per call (the least of 5 rounds of 1000 calls), want 0"},
		// testing.AllocsPerRun would report 0 here.
		{"one in ten, want none", 0, oneInTen, "0.1 allocations per call (the least of 5 rounds of 1000 calls), want 0"},
		{"one in ten", 0.1, oneInTen, ""},
		// An allocation made once, in the first round, is not per call.
		{"once", 0, func() {
			calls++
			if calls == 500 {
				sink = new(int)
			}
		}, ""},
		{"one in ten, and once", 0.1, func() {
			oneInTen()
			if calls == 500 {
				sink = new(int)
			}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls = 0
			r := &recorder{TB: t}
			ok := WantAllocs(r, tt.want, tt.f)
			var got string
			if len(r.errors) > 0 {
				got = strings.Join(r.errors, "; ")
			}
			if got != tt.wantErr || ok != (tt.wantErr == "") {
				t.Errorf("WantAllocs = %v, failures %q; want %v, %q", ok, got, tt.wantErr == "", tt.wantErr)
			}
			if got := runtime.GOMAXPROCS(0); got != 1 {
				t.Errorf("GOMAXPROCS = %d after WantAllocs, want 1 until the test ends", got)
			}
		})
	}
}

// TestCollectConcurrently checks that collections run while the test does,
// and that the collecting goroutine has stopped once the test's cleanup
// ran: no collection starts after it.
func TestCollectConcurrently(t *testing.T) {
	var ms runtime.MemStats
	t.Run("collecting", func(t *testing.T) {
		runtime.ReadMemStats(&ms)
		before := ms.NumGC
		CollectConcurrently(t)
		// A loaded machine may not schedule the collecting goroutine
		// for a while: wait for it as long as a test may reasonably
		// take, not for a fixed number of yields.
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
			runtime.ReadMemStats(&ms)
			if ms.NumGC >= before+3 {
				return
			}
			time.Sleep(time.Millisecond)
		}
		t.Errorf("NumGC went from %d to %d while collecting, want 3 more", before, ms.NumGC)
	})
	runtime.ReadMemStats(&ms)
	after := ms.NumGC
	for i := 0; i < 100; i++ {
		runtime.Gosched()
	}
	runtime.ReadMemStats(&ms)
	if ms.NumGC != after {
		t.Errorf("NumGC went from %d to %d after the test that collected ended", after, ms.NumGC)
	}
}

// failRecorder records Errorf instead of failing the test it wraps.
type failRecorder struct {
	testing.TB
	failed bool
}

func (r *failRecorder) Errorf(string, ...any) { r.failed = true }

func TestWithinLength(t *testing.T) {
	cases := []struct {
		name     string
		appendTo func(dst []byte) ([]byte, error)
		fail     bool
	}{
		{"in place", func(dst []byte) ([]byte, error) { return append(dst, "abc"...), nil }, false},
		{"grown", func(dst []byte) ([]byte, error) { return append(dst, make([]byte, 100)...), nil }, false},
		{"a byte past the result", func(dst []byte) ([]byte, error) {
			out := append(dst, "abc"...)
			_ = append(out, '\n')
			return out, nil
		}, true},
		{"dst back after writing its spare capacity", func(dst []byte) ([]byte, error) {
			_ = append(dst, "partial"...)
			return dst, nil
		}, true},
		{"empty result after writing", func(dst []byte) ([]byte, error) {
			_ = append(dst, 'x')
			return dst[:0], nil
		}, true},
		{"prefix changed", func(dst []byte) ([]byte, error) {
			dst[0] = 'X'
			return dst, nil
		}, true},
	}
	for _, c := range cases {
		r := &failRecorder{TB: t}
		WithinLength(r, c.name, []byte("pre"), 16, c.appendTo)
		if r.failed != c.fail {
			t.Errorf("%s: WithinLength failed=%v, want %v", c.name, r.failed, c.fail)
		}
	}
}

// TestWantSteadyAllocs checks that the warm-up calls are not counted: f
// allocates on each of its first 6,000 calls, more than every round of
// WantAllocs together makes.
func TestWantSteadyAllocs(t *testing.T) {
	SkipIfRace(t)
	calls := 0
	f := func() {
		calls++
		if calls <= 6000 {
			sink = new(int)
		}
	}
	r := &recorder{TB: t}
	if !WantSteadyAllocs(r, 0, 6000, f) || len(r.errors) > 0 {
		t.Errorf("after 6000 warm-up calls: failures %q, want none", r.errors)
	}
	calls = 0
	r = &recorder{TB: t}
	if WantSteadyAllocs(r, 0, 10, f) || len(r.errors) != 1 {
		t.Errorf("after 10 warm-up calls: failures %q, want one", r.errors)
	}
}
