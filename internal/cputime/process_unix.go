//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the user and system CPU time the process has used so
// far, on all its threads, and false where the platform cannot tell.
func Process() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
