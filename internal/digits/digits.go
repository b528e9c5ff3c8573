// Package digits writes decimal numbers the way strconv does, without
// allocating: unsigned and signed integers, fixed-width zero-padded
// fields, and floats that are short decimals. It holds poolkit's one table
// of powers of ten and its one table of digit pairs.
//
// The writers count a number's digits first, make room in dst once, and
// write the digits straight into it, two at a time from the last, where
// strconv formats into an array of its own and copies. Each writes only
// within the length it returns. For a caller that has made room itself,
// Len and Put (and, built without the poolkit_nounsafe tag, PutAt, which
// stores through a pointer) inline into the caller and write in place.
package digits

import (
	"math"
	"math/bits"
	"slices"
)

// Pairs holds the two digits of every number below 100, 00 to 99:
// Pairs[2*n] and Pairs[2*n+1] are n's tens and ones.
const Pairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// pairs is Pairs as arrays, which one load and one store copy.
var pairs = func() (p [100][2]byte) {
	for i := range p {
		p[i] = [2]byte{Pairs[2*i], Pairs[2*i+1]}
	}
	return p
}()

// pow10[i] is 10^i for every power of ten a uint64 holds, 10^0 to 10^19;
// the rest of the 32 is never read, and lets an index masked by 31 go
// unchecked.
var pow10 = [32]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// Len returns the number of decimal digits of u, 1 for 0.
//
// Why: with b = bits.Len64(u), 2^(b-1) <= u < 2^b. t = b*1233>>12 is
// b·1233/4096 rounded down, and 1233/4096 is below log10(2) by less than
// 5e-6, so t <= b·log10(2); for every b from 1 to 64 (TestLen tries each)
// b·log10(2) is not within 3e-4 above an integer, so t+1 > b·log10(2)
// too. Hence 10^(t-1) < 2^(b-1) <= u < 2^b <= 10^(t+1): u has t digits
// when u < 10^t, and t+1 otherwise.
func Len(u uint64) int {
	u |= 1 // 0 has a digit, as 1 does
	t := uint(bits.Len64(u)) * 1233 >> 12
	if u < pow10[t&31] {
		return int(t)
	}
	return int(t) + 1
}

// MaxLen is the longest decimal text of a 64-bit integer: the sign and
// 19 digits of an int64, or the 20 digits of a uint64.
const MaxLen = 20

// Put writes u into b as len(b) decimal digits, zero-padded on the left:
// Put(b[:4], 7) writes "0007". u must be below 10^len(b); with len(b) ==
// Len(u) it writes u's digits exactly. It writes two digits at a time,
// from the last, with one load from a table of pairs and one store each,
// and is small enough to be inlined: a caller that has made room writes
// in place, with no call. Given a slice whose capacity is its length, as
// Put(w[:n:n], u), the compiler proves every store in bounds.
func Put(b []byte, u uint64) {
	for i := len(b) - 2; i > 0; i -= 2 {
		q := u / 100
		*(*[2]byte)(b[i:]) = pairs[u-q*100]
		u = q
	}
	if len(b)%2 == 1 {
		b[0] = byte('0' + u) // u < 10: the digit left
	} else if len(b) >= 2 {
		*(*[2]byte)(b) = pairs[u] // u < 100: the pair left
	}
}

// AppendUint appends the decimal digits of u to dst, as
// strconv.AppendUint(dst, u, 10) does, and returns the extended slice.
func AppendUint(dst []byte, u uint64) []byte {
	if u < 10 {
		return append(dst, byte('0'+u))
	}
	return AppendPadded(dst, u, 0)
}

// AppendInt appends the decimal text of i to dst, as
// strconv.AppendInt(dst, i, 10) does, and returns the extended slice.
func AppendInt(dst []byte, i int64) []byte {
	if uint64(i) < 10 {
		return append(dst, byte('0'+i))
	}
	if i < 0 {
		dst = append(dst, '-')
		return AppendPadded(dst, -uint64(i), 0) // -uint64 is |i|, math.MinInt64 included
	}
	return AppendPadded(dst, uint64(i), 0)
}

// AppendPadded appends the decimal digits of u to dst, zero-padded on the
// left to at least width digits, and returns the extended slice.
func AppendPadded(dst []byte, u uint64, width int) []byte {
	n := max(Len(u), width)
	dst = slices.Grow(dst, n)
	at := len(dst)
	dst = dst[:at+n]
	Put(dst[at:at+n:at+n], u)
	return dst
}

// pow10f[k] is pow10[k] as a float64, exact, for AppendShortFloat.
var pow10f = func() (p [MaxPlaces + 1]float64) {
	for k := range p {
		p[k] = float64(pow10[k])
	}
	return p
}()

// shortMax bounds the floats AppendShortFloat writes and the integers n
// it tries: below 10^15 a float64's spacing is less than a quarter of
// 10^-k at the magnitude of any n/10^k.
const shortMax = 1e15

// MaxPlaces is the most fractional digits AppendShortFloat tries.
const MaxPlaces = 12

// shortDecimal returns u and k such that |f| is the float nearest to
// u/10^k, k the least such, if there is one with u < 10^15 and k <=
// places, and 1e-6 <= |f| < 10^15; ok is false otherwise.
//
// Why the output is strconv's: take the least k such that, with a = |f|
// and n = a·10^k rounded to an integer, float64(n)/10^k == a. The decimal
// n/10^k reads back as a (IEEE division and strconv's parsing both round
// correctly), and it is the only decimal of k places that does, since
// floats around a are less than 10^-k apart. a·10^k is computed within
// 0.5 of n, so the least such k is not missed, and n has no trailing zero
// (else a smaller k would have matched). A decimal with fewer digits would
// have fewer places and be found at a smaller k; so n/10^k is the
// shortest, which strconv writes. Rounding is to nearest, ties to even: a
// tie, a·10^k exactly half way between two integers, is never within 0.5
// of an n that passes, and whichever neighbour it picks is checked by the
// division like any other. It is done by adding and subtracting 2^52
// (two instructions, where math.RoundToEven tests the CPU for SSE4.1
// first): from 2^52 to 2^53 float64s are the integers, so the sum is
// a·10^k rounded to an integer, to nearest, ties to even, plus 2^52,
// and the difference is exact. That holds for a·10^k below 2^52; at
// 2^52 and above the result is not n, but is at least 10^15, and
// refused as any n that large is.
func shortDecimal(f float64, places int) (u uint64, k int, ok bool) {
	if a := math.Abs(f); a >= 1e-6 && a < shortMax {
		for k := range min(places, MaxPlaces) + 1 {
			p := pow10f[k]
			n := float64(a*p) + 0x1p52 - 0x1p52 // float64(): rounded, never fused
			if n >= shortMax {
				break
			}
			if n/p == a {
				return uint64(n), k, true
			}
		}
	}
	return 0, 0, false
}

// shortLen is the room AppendShortFloat makes: a sign, 15 digits and a
// point.
const shortLen = 17
