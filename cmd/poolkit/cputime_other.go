//go:build !unix

package main

import "time"

// processCPU is not implemented here: -clock cpu needs getrusage.
func processCPU() (time.Duration, bool) { return 0, false }
