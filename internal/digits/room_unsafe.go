//go:build !poolkit_nounsafe

package digits

import (
	"slices"
	"unsafe"
)

// PutAt writes the n = Len(u) digits of u to the n bytes at d, two at a
// time from the last, with one load from the table of pairs and one
// store each. It is the store-into-room form of Put, for a caller that
// has made room and checked it: the caller owns d[0:n], and PutAt writes
// nothing else. Every pointer it makes points into those bytes (d+n, one
// past the last, may be past the end of the caller's array, which even
// unsafe.Add must not point to). It is inlined, with no bounds checks.
//
// Built with the poolkit_nounsafe tag, the package has no PutAt: callers
// that build under that tag use Put.
func PutAt(d unsafe.Pointer, n int, u uint64) {
	for u >= 100 {
		q := u / 100
		n -= 2                                         // >= 1: u has three digits or more
		*(*[2]byte)(unsafe.Add(d, n)) = pairs[u-q*100] // < 100
		u = q
	}
	if u >= 10 {
		*(*[2]byte)(unsafe.Add(d, n-2)) = pairs[u] // n == 2
	} else {
		*(*byte)(unsafe.Add(d, n-1)) = byte('0' + u) // n == 1
	}
}

// AppendShortFloat appends f as strconv.AppendFloat(dst, f, 'f', -1, 64)
// does, the shortest decimal that reads back as f, when f is the float
// nearest to a decimal n/10^k with n < 10^15 and k <= places fractional
// digits, as prices, weights and ratings are, and 1e-6 <= |f| < 10^15.
// places is from 0 to MaxPlaces; the fewer, the sooner it gives up on a
// float that is no short decimal, such as math.Pi, trying each k in turn. For
// any other f (zero, NaN and the infinities among them) it returns dst
// unchanged and false, and the caller formats f with strconv. In the
// range 1e-4 <= |f| < 1e6 strconv's 'g' format writes the same text.
//
// This is the build without the poolkit_nounsafe tag: it writes through
// unsafe stores into the room it makes (room_safe.go, with the tag,
// through Put).
func AppendShortFloat(dst []byte, f float64, places int) ([]byte, bool) {
	u, k, ok := shortDecimal(f, places)
	if !ok {
		return dst, false
	}
	neg := f < 0
	if cap(dst)-len(dst) < shortLen {
		dst = slices.Grow(dst, shortLen)
	}
	at := len(dst)
	// d is dst[at:at+shortLen], within dst's capacity, made just above.
	// Every store below is within it: a sign, then at most 15 digits
	// with the point among them (u < 10^15), or "0." and k <= 12
	// places.
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), at)
	if neg {
		*(*byte)(d) = '-'
		d = unsafe.Add(d, 1)
		at++
	}
	if k == 0 {
		l := Len(u)
		PutAt(d, l, u)
		return dst[:at+l], true
	}
	// The integer part's digits, then the k places as the last k digits
	// of u%10^k + 10^k, whose leading 1 the point replaces.
	pk := pow10[k&31]
	ip, fp := u/pk, u%pk
	l := Len(ip)
	PutAt(unsafe.Add(d, l), 1+k, fp+pk)
	PutAt(d, l, ip)
	*(*byte)(unsafe.Add(d, l)) = '.'
	return dst[:at+l+1+k], true
}
