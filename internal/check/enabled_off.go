//go:build !poolkitcheck

package check

// Enabled reports whether the program was built with -tags poolkitcheck.
const Enabled = false
