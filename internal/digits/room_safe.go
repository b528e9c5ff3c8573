//go:build poolkit_nounsafe

package digits

import "slices"

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
// This is the build with the poolkit_nounsafe tag: it writes through Put
// (room_unsafe.go, without the tag, through unsafe stores).
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
	w := dst[at : at+shortLen : at+shortLen]
	s := 0
	if neg {
		s = 1
	}
	// The digits of the integer part, zero-padded over the sign's place,
	// then the k places as the last k digits of u%10^k + 10^k, whose
	// leading 1 the point replaces.
	ip, l, e := u, s+Len(u), 0
	if k > 0 {
		pk := pow10[k&31]
		ip = u / pk
		l = s + Len(ip)
		e = l + 1 + k
		Put(w[l:e:e], u-ip*pk+pk)
		w[l] = '.'
	} else {
		e = l
	}
	Put(w[:l:l], ip)
	if neg {
		w[0] = '-'
	}
	return dst[:at+e], true
}
