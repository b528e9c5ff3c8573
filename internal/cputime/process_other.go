//go:build !unix

package cputime

import "time"

// Process cannot tell the CPU time on this platform: it returns false.
func Process() (time.Duration, bool) { return 0, false }
