// Package rfc3339 writes times in RFC 3339 form, byte for byte as
// time.Format writes time.RFC3339 and time.RFC3339Nano, without
// allocating.
package rfc3339

import (
	"slices"
	"time"

	"github.com/poolkit/poolkit/internal/digits"
)

// Append appends t to dst in RFC 3339 form and returns the extended slice.
// With nanos false it writes whole seconds, as time.RFC3339 does; with
// nanos true it adds the fractional seconds with trailing zeros removed,
// as time.RFC3339Nano does. The output is byte for byte that of t.Format
// with those layouts for every Time, including the instants near the ends
// of the int64 range where the time package's own calendar arithmetic
// wraps around. It writes only within the length it returns.
//
// It works out the calendar date from the Unix time once, where t.Date
// and t.Clock each convert the time again, makes room in dst once for the
// usual 35 bytes at most, and writes every field into it two digits at a
// time.
func Append(dst []byte, t time.Time, nanos bool) []byte {
	_, offset := t.Zone()
	// Count seconds from the time package's absolute epoch as it does, in
	// wrapping unsigned arithmetic, so that the instants it cannot place
	// in the calendar come out exactly as garbled as in time.Format.
	abs := uint64(t.Unix()+int64(offset)) + unixToAbsolute
	rem := int(abs % secondsPerDay)
	days := int64(abs/secondsPerDay) - absDaysToUnix
	year, month, day := civilDate(days)

	// "2006-01-02T15:04:05.999999999-07:00" is 35 bytes; the year and the
	// zone's hours can be longer, and are then written on their own.
	dst = slices.Grow(dst, 35)
	if year >= 0 && year <= 9999 {
		at := len(dst)
		dst = dst[:at+4]
		put2(dst[at:], year/100)
		put2(dst[at+2:], year%100)
	} else {
		dst = appendWideYear(dst, year)
		dst = slices.Grow(dst, 31)
	}
	at := len(dst)
	w := (*[31]byte)(dst[at : at+31])
	w[0] = '-'
	put2(w[1:], month)
	w[3] = '-'
	put2(w[4:], day)
	w[6] = 'T'
	put2(w[7:], rem/3600)
	w[9] = ':'
	put2(w[10:], rem/60%60)
	w[12] = ':'
	put2(w[13:], rem%60)
	n := 15
	if ns := t.Nanosecond(); nanos && ns != 0 {
		// ".999999999" with the trailing zeros removed, as the layout
		// element does; ns is not 0, so a digit other than 0 stays.
		places := 9
		for ns%10 == 0 {
			ns /= 10
			places--
		}
		w[15] = '.'
		n = 16 + places
		digits.Put(w[16:n], uint64(ns))
	}
	if offset == 0 {
		w[n] = 'Z'
		return dst[:at+n+1]
	}
	zone := offset / 60 // minutes; seconds of offset are not shown, as in time.Format
	w[n] = '+'
	if zone < 0 {
		w[n] = '-'
		zone = -zone
	}
	if h := zone / 60; h < 100 {
		put2(w[n+1:], h)
		w[n+3] = ':'
		put2(w[n+4:], zone%60)
		return dst[:at+n+6]
	}
	// time.FixedZone accepts any offset; time.Format writes all the digits
	// of an offset of 100 hours or more.
	dst = digits.AppendUint(dst[:at+n+1], uint64(zone/60))
	return append(dst, ':', digits.Pairs[2*(zone%60)], digits.Pairs[2*(zone%60)+1])
}

// put2 writes v, which must be in [0, 99], as two digits to b[0:2].
func put2(b []byte, v int) {
	b[0], b[1] = digits.Pairs[2*v], digits.Pairs[2*v+1]
}

// appendWideYear appends a year outside 0 to 9999 as time.Format's "2006"
// does: at least four digits, with a leading minus sign before 1 BCE.
func appendWideYear(dst []byte, year int) []byte {
	u := uint64(year)
	if year < 0 {
		dst = append(dst, '-')
		u = uint64(-int64(year))
	}
	return digits.AppendPadded(dst, u, 4)
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
