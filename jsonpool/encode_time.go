//go:build !poolkit_nounsafe

package jsonpool

import (
	"time"
	"unsafe"
)

func timeEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendTime(b, (*time.Time)(p))
}

func kitTimeEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendTime(b, &(*Time)(p).Time)
}

// appendTime appends what t.MarshalJSON returns to b, as appendTimeJSON
// does. A time in UTC (the commonest in a response), of a year from 0 to
// 9999, it writes itself, as time.RFC3339Nano formats it: the date and
// the clock, a point and the nanoseconds with no trailing zero unless
// they are 0, and Z. The rest, other zones and the errors included, are
// appendTimeJSON's.
func appendTime(b []byte, t *time.Time) ([]byte, bool) {
	if t.Location() != time.UTC {
		return appendTimeJSON(b, *t)
	}
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return appendTimeJSON(b, *t)
	}
	h, mi, s := t.Clock()
	ns := t.Nanosecond()
	// "2006-01-02T15:04:05.999999999Z" and its quotes: 32 bytes.
	if cap(b)-len(b) < 32 {
		b = grow(b, 32)
	}
	at := len(b)
	w := (*[32]byte)(b[at : at+32])
	w[0] = '"'
	w[1], w[2] = digitPairs[y/100][0], digitPairs[y/100][1]
	w[3], w[4] = digitPairs[y%100][0], digitPairs[y%100][1]
	w[5] = '-'
	w[6], w[7] = digitPairs[mo][0], digitPairs[mo][1]
	w[8] = '-'
	w[9], w[10] = digitPairs[d][0], digitPairs[d][1]
	w[11] = 'T'
	w[12], w[13] = digitPairs[h][0], digitPairs[h][1]
	w[14] = ':'
	w[15], w[16] = digitPairs[mi][0], digitPairs[mi][1]
	w[17] = ':'
	w[18], w[19] = digitPairs[s][0], digitPairs[s][1]
	n := 20
	if ns != 0 {
		// The nine digits of ns, zero-padded, as the last nine of
		// ns+10^9, whose leading 1 the point replaces; then no
		// trailing zero (ns is not 0, so a digit other than 0 stays).
		putDecimal(unsafe.Pointer(&w[20]), 10, uint64(ns)+1e9)
		w[20] = '.'
		n = 30
		for w[n-1] == '0' {
			n--
		}
	}
	w[n] = 'Z'
	w[n+1] = '"'
	return b[:at+n+2], true
}
