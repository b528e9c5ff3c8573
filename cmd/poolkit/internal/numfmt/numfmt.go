// Package numfmt prints the figures of poolkit's reports: allocation
// means, counts and byte sizes.
package numfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Allocs prints an exact mean of allocations: integers as such, fractions
// with three decimals, so 1/1000 shows as 0.001 rather than 0.
func Allocs(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	if v >= 0.001 {
		s := strconv.FormatFloat(v, 'f', 3, 64)
		if t := strings.TrimRight(s, "0"); !strings.HasSuffix(t, ".") {
			s = t
		} // else keep "1.000": within 0.0005 of 1, but not exactly 1
		return s
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

// Count prints a count, rounded to an integer, with thousands separators.
func Count(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Size prints a byte count in B, KiB, MiB or GiB.
func Size(v float64) string {
	switch {
	case v >= 1<<30:
		return fmt.Sprintf("%.1f GiB", v/(1<<30))
	case v >= 1<<20:
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.1f KiB", v/(1<<10))
	}
	return fmt.Sprintf("%.0f B", v)
}
