//go:build !race

// Package race reports whether the race detector is built in, so tests can
// skip allocation assertions that the detector's instrumentation breaks.
package race

// Enabled reports whether the binary was built with -race.
const Enabled = false
