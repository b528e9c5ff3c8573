//go:build !unix

package core

import "time"

// cpuTime is not measured on this platform; the cpu-ns/op metric is then
// not reported.
func cpuTime() time.Duration { return 0 }
