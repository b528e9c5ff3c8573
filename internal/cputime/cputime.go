// Package cputime reports a benchmark's CPU time per operation, as the
// cpu-ns/op metric. On a machine shared with other work, wall time per op
// also counts the time the benchmark waited for a core; the process's CPU
// time does not. It counts user and system time of every thread, so the
// garbage collector's work for the variants that allocate is in it.
package cputime

import (
	"testing"
	"time"
)

// Meter holds the process's CPU time at the start of a measurement.
type Meter struct {
	start time.Duration
	ok    bool
}

// Start reads the process's CPU time.
func Start() Meter {
	t, ok := Process()
	return Meter{t, ok}
}

// Report reports the CPU time used since Start, divided by b.N, as
// cpu-ns/op. It reports nothing where the platform cannot tell.
func (m Meter) Report(b *testing.B) {
	if end, ok := Process(); m.ok && ok && b.N > 0 {
		b.ReportMetric(float64(end-m.start)/float64(b.N), "cpu-ns/op")
	}
}
