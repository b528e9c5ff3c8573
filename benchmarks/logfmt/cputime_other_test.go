//go:build !linux

package logfmt_test

import "time"

// processCPU is not implemented here; the benchmarks then report no
// cpu-ns/op.
func processCPU() (time.Duration, bool) { return 0, false }
