//go:build !unix

package cputime

import "time"

// process cannot tell the CPU time on this platform.
func process() (time.Duration, bool) { return 0, false }
