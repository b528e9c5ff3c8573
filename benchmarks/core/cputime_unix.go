//go:build unix

package core

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time, user and system, the process has used so
// far. Benchmarks report it per operation next to the wall-clock time:
// on a machine shared with other work, time spent waiting for a core
// inflates ns/op but not cpu-ns/op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
