package cputime

import (
	"runtime"
	"testing"
	"time"
)

func TestProcessAdvancesWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no getrusage here")
	}
	m := Start()
	if !m.ok {
		t.Fatal("getrusage failed")
	}
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	end, ok := Process()
	if !ok || end <= m.start {
		t.Fatalf("CPU time did not advance over 50 ms of busy work: start %v, end %v (x=%d)", m.start, end, x)
	}
}
