package logfmt_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time, user and system, that the process has
// used so far, for the cpu-ns/op metric of the benchmarks.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
