package bytebuf

import (
	"time"

	"github.com/poolkit/poolkit/internal/digits"
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
// and the text goes after len(dst).
//
// It works out the calendar date from the Unix time once, and writes every
// field digit by digit, so it allocates nothing and does less work than
// calling t.Date and t.Clock, which each convert the time again.
func AppendRFC3339(dst []byte, t time.Time, nanos bool) []byte {
	_, offset := t.Zone()
	// Count seconds from the time package's absolute epoch as it does, in
	// wrapping unsigned arithmetic, so that the instants it cannot place
	// in the calendar come out exactly as garbled as in time.Format.
	abs := uint64(t.Unix()+int64(offset)) + unixToAbsolute
	rem := int64(abs % secondsPerDay)
	days := int64(abs/secondsPerDay) - absDaysToUnix
	year, month, day := civilDate(days)

	dst = appendYear(dst, year)
	dst = append(dst, '-')
	dst = append2(dst, month)
	dst = append(dst, '-')
	dst = append2(dst, day)
	dst = append(dst, 'T')
	dst = append2(dst, int(rem/3600))
	dst = append(dst, ':')
	dst = append2(dst, int(rem/60%60))
	dst = append(dst, ':')
	dst = append2(dst, int(rem%60))

	if nanos {
		dst = appendFraction(dst, t.Nanosecond())
	}
	if offset == 0 {
		return append(dst, 'Z')
	}
	zone := offset / 60 // minutes; seconds of offset are not shown, as in time.Format
	if zone < 0 {
		dst = append(dst, '-')
		zone = -zone
	} else {
		dst = append(dst, '+')
	}
	if h := zone / 60; h < 100 {
		dst = append2(dst, h)
	} else {
		// time.FixedZone accepts any offset; time.Format writes all the
		// digits of an offset of 100 hours or more.
		dst = appendDigits(dst, uint64(h), 3)
	}
	dst = append(dst, ':')
	return append2(dst, zone%60)
}

const secondsPerDay = 24 * 60 * 60

// The time package counts instants from an absolute epoch, March 1 of the
// year -292277022400 (a multiple of 400 years before year 0), so that
// seconds since then are never negative for the times it can place in the
// calendar. absDaysToUnix is the number of days from that epoch to
// 1970-01-01: 730692556 400-year eras, plus March to December of the epoch
// year (306 days), plus the 719162 days from 0001-01-01 to 1970-01-01.
const (
	absDaysToUnix  = 292277022400/400*146097 + 306 + 719162
	unixToAbsolute = uint64(absDaysToUnix) * secondsPerDay
)

// civilDate converts a count of days since 1970-01-01 into a proleptic
// Gregorian year, month and day, using the era-based method of Howard
// Hinnant's "chrono-Compatible Low-Level Date Algorithms": days are
// counted from 0000-03-01 so that the leap day falls at the end of a year,
// and split into 400-year eras of 146097 days.
func civilDate(days int64) (year, month, day int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097                                  // day of era, [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // year of era, [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // day of year from March 1, [0, 365]
	mp := (5*doy + 2) / 153                                // month from March, [0, 11]
	day = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		month = int(mp + 3)
	} else {
		month = int(mp - 9)
	}
	y := yoe + era*400
	if month <= 2 {
		y++
	}
	return int(y), month, day
}

// append2 appends v, which must be in [0, 99], as two digits.
func append2(dst []byte, v int) []byte {
	return append(dst, digits.Pairs[2*v], digits.Pairs[2*v+1])
}

// appendYear appends the year as time.Format's "2006" does: at least four
// digits, zero-padded, with a leading minus sign for years before 1 BCE.
func appendYear(dst []byte, year int) []byte {
	if year >= 0 && year <= 9999 {
		dst = append2(dst, year/100)
		return append2(dst, year%100)
	}
	u := uint64(year)
	if year < 0 {
		dst = append(dst, '-')
		u = uint64(-int64(year))
	}
	return appendDigits(dst, u, 4)
}

// appendDigits appends the decimal digits of u, zero-padded to at least
// width digits (width at most 20).
func appendDigits(dst []byte, u uint64, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for u >= 10 || len(tmp)-i < width-1 {
		i--
		tmp[i] = byte('0' + u%10)
		u /= 10
	}
	i--
	tmp[i] = byte('0' + u)
	return append(dst, tmp[i:]...)
}

// appendFraction appends ".fffffffff" with trailing zeros removed, or
// nothing when ns is zero, as the ".999999999" layout element does.
func appendFraction(dst []byte, ns int) []byte {
	if ns == 0 {
		return dst
	}
	var tmp [10]byte
	tmp[0] = '.'
	for i := 9; i >= 1; i-- {
		tmp[i] = byte('0' + ns%10)
		ns /= 10
	}
	n := 10
	for tmp[n-1] == '0' {
		n--
	}
	return append(dst, tmp[:n]...)
}
