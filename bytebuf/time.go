package bytebuf

import (
	"time"

	"github.com/poolkit/poolkit/internal/rfc3339"
)

// AppendRFC3339 appends t to dst in RFC 3339 form and returns the extended
// slice. With nanos false it writes whole seconds, as time.RFC3339 does;
// with nanos true it adds the fractional seconds with trailing zeros
// removed, as time.RFC3339Nano does. The output is byte for byte that of
// t.Format with those layouts for every Time, including the instants near
// the ends of the int64 range where the time package's own calendar
// arithmetic wraps around.
//
// A Time holds no bytes that dst could overlap: whatever dst holds stays,
// and the text goes after len(dst), with nothing written past the length
// it returns.
//
// It works out the calendar date from the Unix time once, and writes every
// field digit by digit, so it allocates nothing unless dst grows, and does
// less work than calling t.Date and t.Clock, which each convert the time
// again.
func AppendRFC3339(dst []byte, t time.Time, nanos bool) []byte {
	return rfc3339.Append(dst, t, nanos)
}
