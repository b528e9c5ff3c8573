//go:build !poolkit_nounsafe

package jsonpool

import (
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/internal/rfc3339"
)

func timeEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendTime(b, (*time.Time)(p))
}

func kitTimeEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendTime(b, &(*Time)(p).Time)
}

// appendTime appends what t.MarshalJSON returns to b, as appendTimeJSON
// does. A time in UTC (the commonest in a response), of a year from 0 to
// 9999, it writes with internal/rfc3339, as time.RFC3339Nano formats it:
// the date and the clock, a point and the nanoseconds with no trailing
// zero unless they are 0, and Z. The rest, other zones and the errors
// included, are appendTimeJSON's.
func appendTime(b []byte, t *time.Time) ([]byte, bool) {
	if t.Location() != time.UTC {
		return appendTimeJSON(b, *t)
	}
	if s := t.Unix(); s < minYear0 || s > maxYear9999 {
		return appendTimeJSON(b, *t)
	}
	b = append(b, '"')
	b = rfc3339.Append(b, *t, true)
	return append(b, '"'), true
}

// minYear0 and maxYear9999 are the first and the last second, in Unix
// time, of the years 0 to 9999 in UTC.
const (
	minYear0    = -62167219200 // 0000-01-01T00:00:00Z
	maxYear9999 = 253402300799 // 9999-12-31T23:59:59Z
)
