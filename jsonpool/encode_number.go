package jsonpool

import (
	"math"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/poolkit/poolkit/internal/digits"
)

// Decimal integers for the fast encode path, written in place.
//
// strconv.AppendInt formats into an array of its own and copies the digits
// to dst, through a function that serves every base. The encoder's
// numbers are decimal and mostly short: encAppendDecimal counts the
// digits first, makes room in b once, and encPutDecimal writes them
// straight into it, two at a time (one 16-bit load from encPairs, one
// store), from the last to the first; encPlainStruct does the same for
// its integer fields in the room it has made already. The text is the decimal notation of
// the value, as strconv writes it: the tests hold the two to each other
// at every power of ten, its neighbours and the extremes of each integer
// kind, and check that nothing is written past the room.

// encPow10U64[i] is 10^i, for every power of ten a uint64 holds (the
// rest of the 32 is never read: the length lets an index masked by 31
// go unchecked).
var encPow10U64 = [32]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// encDecimalLen returns the number of decimal digits of u, 1 for 0.
func encDecimalLen(u uint64) int {
	// bits.Len64(u)*1233>>12 is floor(log10(2^Len64(u))), at most 19: u
	// has that many digits plus one, or one fewer when it is below the
	// power of ten.
	t := uint(bits.Len64(u)) * 1233 >> 12
	n := int(t) + 1
	if u < encPow10U64[t&31] {
		n--
	}
	if n == 0 {
		return 1 // u == 0
	}
	return n
}

// encGrow returns b with room for at least n more bytes.
func encGrow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		b = append(b[:cap(b)], make([]byte, n)...)[:len(b)]
	}
	return b
}

// encAppendUint appends the decimal text of u to b, as strconv.AppendUint
// (b, u, 10) does.
func encAppendUint(b []byte, u uint64) []byte {
	if u < 10 {
		return append(b, byte('0'+u))
	}
	return encAppendDecimal(b, u, false)
}

// encAppendInt appends the decimal text of i to b, as strconv.AppendInt
// (b, i, 10) does.
func encAppendInt(b []byte, i int64) []byte {
	if uint64(i) < 10 {
		return append(b, byte('0'+i))
	}
	if i < 0 {
		return encAppendDecimal(b, -uint64(i), true) // -uint64 is |i|, MinInt64 included
	}
	return encAppendDecimal(b, uint64(i), false)
}

// encAppendDecimal appends u's decimal text to b, after a minus sign if
// neg.
func encAppendDecimal(b []byte, u uint64, neg bool) []byte {
	n := encDecimalLen(u)
	if neg {
		n++
	}
	if cap(b)-len(b) < n {
		b = encGrow(b, n)
	}
	at := len(b)
	// b[at:at+n] is within b's capacity: the minus sign at at, and the
	// digits, which encPutDecimal writes after it.
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)
	if neg {
		*(*byte)(d) = '-'
	}
	if neg {
		encPutDecimal(unsafe.Add(d, 1), n-1, u)
	} else {
		encPutDecimal(d, n, u)
	}
	return b[:at+n]
}

// encPairs holds the two digits of every number below 100, as
// digits.Pairs does, as arrays that one load and one store copy.
var encPairs = func() (p [100][2]byte) {
	for i := range p {
		p[i] = [2]byte{digits.Pairs[2*i], digits.Pairs[2*i+1]}
	}
	return p
}()

// encPutDecimal writes the n = encDecimalLen(u) digits of u to d[0:n],
// two at a time from the last. The caller owns those bytes. Every
// pointer it makes points into them: d+n, one past the last, may be past
// the end of b's array, which even unsafe.Add must not point to.
func encPutDecimal(d unsafe.Pointer, n int, u uint64) {
	for u >= 100 {
		q := u / 100
		n -= 2                                            // >= 1: u has three digits or more
		*(*[2]byte)(unsafe.Add(d, n)) = encPairs[u-q*100] // < 100
		u = q
	}
	if u >= 10 {
		*(*[2]byte)(unsafe.Add(d, n-2)) = encPairs[u] // n == 2
	} else {
		*(*byte)(unsafe.Add(d, n-1)) = byte('0' + u) // n == 1
	}
}

func encBool(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	if *(*bool)(p) {
		return append(b, "true"...), true
	}
	return append(b, "false"...), true
}

func encInt(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int)(p))), true
}

func encInt8(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int8)(p))), true
}

func encInt16(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int16)(p))), true
}

func encInt32(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, int64(*(*int32)(p))), true
}

func encInt64(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendInt(b, *(*int64)(p)), true
}

func encUint(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint)(p))), true
}

func encUint8(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint8)(p))), true
}

func encUint16(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint16)(p))), true
}

func encUint32(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uint32)(p))), true
}

func encUint64(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, *(*uint64)(p)), true
}

func encUintptr(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendUint(b, uint64(*(*uintptr)(p))), true
}

func encFloat32(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendFloat(b, float64(*(*float32)(p)), 32)
}

func encFloat64(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return encAppendFloat(b, *(*float64)(p), 64)
}

// encAppendFloat formats f as encoding/json does: the shortest decimal that
// reads back as the same float of the given bit size, in plain notation
// from 1e-6 up to but excluding 1e21 (and for zero), in exponent notation
// outside that range with a one-digit negative exponent left unpadded
// (1e-7, not 1e-07). NaN and the infinities are errors in encoding/json:
// ok is false.
func encAppendFloat(b []byte, f float64, bits int) ([]byte, bool) {
	if bits == 64 {
		if a := math.Abs(f); a >= 1e-6 && a < encMaxShort { // neither NaN nor infinite
			if out, ok := encAppendShortDecimal(b, f, a); ok {
				return out, true
			}
		}
	}
	return encAppendFloatStrconv(b, f, bits)
}

// encAppendFloatStrconv is encAppendFloat through strconv alone, for a
// float encAppendShortDecimal does not take.
func encAppendFloatStrconv(b []byte, f float64, bits int) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 {
		if bits == 64 && (a < 1e-6 || a >= 1e21) ||
			bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// strconv pads the exponent to two digits: e-07 becomes e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// encMaxShort bounds the floats encAppendShortDecimal formats, and the
// integers n it tries: below 10^15, a float64's spacing is less than half
// of 10^-k at the magnitude of any n/10^k.
const encMaxShort = 1e15

// encPow10 are the powers of ten encAppendShortDecimal tries, all exact
// float64s.
var encPow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

var encPow10Int = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

// encAppendShortDecimal formats f (a = |f|, 1e-6 <= a < 10^15) as
// strconv.AppendFloat(b, f, 'f', -1, 64) does, without its shortest-digit
// search, when f is the float nearest to a decimal n/10^k with few digits
// (n < 10^15, k <= 12), as prices, weights and ratings are; ok is false
// otherwise, and b unchanged.
//
// Why the output is strconv's: for the smallest k such that
// float64(n)/10^k == a with n = round(a*10^k), the decimal n/10^k reads
// back as a (IEEE division and strconv's parsing both round correctly),
// and it is the only decimal of k places that does, since floats around
// a are less than 10^-k apart; a*10^k is computed within 0.5 of n, so
// the smallest such k is not missed, and n has no trailing zero (else a
// smaller k would have matched). The shortest round-tripping decimal is
// therefore n/10^k, which is what strconv writes. The rounding is to
// nearest, ties to even (one instruction where math.Round is a call): a
// tie, a*10^k computed exactly half-way between two integers, is never
// within 0.5 of an integer n that passes the test, and whichever
// neighbour it picks is checked by the division like any other.
func encAppendShortDecimal(b []byte, f, a float64) ([]byte, bool) {
	for k := 0; k < len(encPow10); k++ {
		p := encPow10[k]
		n := math.RoundToEven(a * p)
		if n >= encMaxShort {
			return b, false
		}
		if n/p != a {
			continue
		}
		u := uint64(n)
		// At most a sign, 15 digits and a point.
		if cap(b)-len(b) < 17 {
			b = encGrow(b, 17)
		}
		at := len(b)
		d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)
		if f < 0 {
			*(*byte)(d) = '-'
			d = unsafe.Add(d, 1)
			at++
		}
		if k == 0 {
			l := encDecimalLen(u)
			encPutDecimal(d, l, u)
			return b[:at+l], true
		}
		// The integer part's digits, then the k places as the last k
		// digits of u%10^k + 10^k, whose leading 1 the point replaces.
		// u < 10^15, so all of it fits in the 17 bytes made room for.
		pk := encPow10Int[k]
		ip, fp := u/pk, u%pk
		l := encDecimalLen(ip)
		encPutDecimal(unsafe.Add(d, l), 1+k, fp+pk)
		encPutDecimal(d, l, ip)
		*(*byte)(unsafe.Add(d, l)) = '.'
		return b[:at+l+1+k], true
	}
	return b, false
}
