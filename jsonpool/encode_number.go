//go:build !poolkit_nounsafe

package jsonpool

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/poolkit/poolkit/internal/digits"
)

// Decimal integers for the fast encode path, written in place.
//
// strconv.AppendInt formats into an array of its own and copies the digits
// to dst, through a function that serves every base. The encoder's
// numbers are decimal and mostly short: appendDecimal counts the digits
// (digits.Len), makes room in b once, and putDecimal writes them straight
// into it, two at a time (one 16-bit load from digitPairs, one store),
// from the last to the first; appendFixedStruct does the same for its
// integer fields in the room it has made already. The text is the
// decimal notation of the value, as strconv writes it: the tests hold the
// two to each other at every power of ten, its neighbours and the
// extremes of each integer kind, and check that nothing is written past
// the room.
//
// putDecimal and appendShortDecimal do what internal/digits' Put and
// AppendShortFloat do, through unsafe stores into room already made
// rather than bounds-checked slices. On the receipt of
// benchmarks/jsonpool/instructions.sh (go1.26.8) the encode costs about
// 42,200 instructions with them, 42,800 with digits.AppendShortFloat for
// the floats, and 44,100 with digits' integer writers as well.

// grow returns b with room for at least n more bytes.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		b = append(b[:cap(b)], make([]byte, n)...)[:len(b)]
	}
	return b
}

// appendUint appends the decimal text of u to b, as strconv.AppendUint
// (b, u, 10) does.
func appendUint(b []byte, u uint64) []byte {
	if u < 10 {
		return append(b, byte('0'+u))
	}
	return appendDecimal(b, u, false)
}

// appendInt appends the decimal text of i to b, as strconv.AppendInt
// (b, i, 10) does.
func appendInt(b []byte, i int64) []byte {
	if uint64(i) < 10 {
		return append(b, byte('0'+i))
	}
	if i < 0 {
		return appendDecimal(b, -uint64(i), true) // -uint64 is |i|, MinInt64 included
	}
	return appendDecimal(b, uint64(i), false)
}

// appendDecimal appends u's decimal text to b, after a minus sign if
// neg.
func appendDecimal(b []byte, u uint64, neg bool) []byte {
	n := digits.Len(u)
	if neg {
		n++
	}
	if cap(b)-len(b) < n {
		b = grow(b, n)
	}
	at := len(b)
	// b[at:at+n] is within b's capacity: the minus sign at at, and the
	// digits, which putDecimal writes after it.
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)
	if neg {
		*(*byte)(d) = '-'
	}
	if neg {
		putDecimal(unsafe.Add(d, 1), n-1, u)
	} else {
		putDecimal(d, n, u)
	}
	return b[:at+n]
}

// digitPairs holds the two digits of every number below 100, as
// digits.Pairs does, as arrays that one load and one store copy.
var digitPairs = func() (p [100][2]byte) {
	for i := range p {
		p[i] = [2]byte{digits.Pairs[2*i], digits.Pairs[2*i+1]}
	}
	return p
}()

// putDecimal writes the n = digits.Len(u) digits of u to d[0:n],
// two at a time from the last. The caller owns those bytes. Every
// pointer it makes points into them: d+n, one past the last, may be past
// the end of b's array, which even unsafe.Add must not point to.
func putDecimal(d unsafe.Pointer, n int, u uint64) {
	for u >= 100 {
		q := u / 100
		n -= 2                                              // >= 1: u has three digits or more
		*(*[2]byte)(unsafe.Add(d, n)) = digitPairs[u-q*100] // < 100
		u = q
	}
	if u >= 10 {
		*(*[2]byte)(unsafe.Add(d, n-2)) = digitPairs[u] // n == 2
	} else {
		*(*byte)(unsafe.Add(d, n-1)) = byte('0' + u) // n == 1
	}
}

func boolEncoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	if *(*bool)(p) {
		return append(b, "true"...), true
	}
	return append(b, "false"...), true
}

// intEncoder and uintEncoder write an integer of type T, its decimal
// text, one function per T.
func intEncoder[T int | int8 | int16 | int32 | int64](b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendInt(b, int64(*(*T)(p))), true
}

func uintEncoder[T uint | uint8 | uint16 | uint32 | uint64 | uintptr](b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendUint(b, uint64(*(*T)(p))), true
}

func float32Encoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendFloat(b, float64(*(*float32)(p)), 32)
}

func float64Encoder(b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return appendFloat(b, *(*float64)(p), 64)
}

// appendFloat formats f as encoding/json does: the shortest decimal that
// reads back as the same float of the given bit size, in plain notation
// from 1e-6 up to but excluding 1e21 (and for zero), in exponent notation
// outside that range with a one-digit negative exponent left unpadded
// (1e-7, not 1e-07). NaN and the infinities are errors in encoding/json:
// ok is false.
func appendFloat(b []byte, f float64, bits int) ([]byte, bool) {
	if bits == 64 {
		if a := math.Abs(f); a >= 1e-6 && a < maxShortDecimal { // neither NaN nor infinite
			if out, ok := appendShortDecimal(b, f, a); ok {
				return out, true
			}
		}
	}
	return appendFloatStrconv(b, f, bits)
}

// appendFloatStrconv is appendFloat through strconv alone, for a
// float appendShortDecimal does not take.
func appendFloatStrconv(b []byte, f float64, bits int) ([]byte, bool) {
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

// maxShortDecimal bounds the floats appendShortDecimal formats, and the
// integers n it tries: below 10^15, a float64's spacing is less than half
// of 10^-k at the magnitude of any n/10^k.
const maxShortDecimal = 1e15

// shortPow10 are the powers of ten appendShortDecimal tries, all exact
// float64s.
var shortPow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

var shortPow10Int = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

// appendShortDecimal formats f (a = |f|, 1e-6 <= a < 10^15) as
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
func appendShortDecimal(b []byte, f, a float64) ([]byte, bool) {
	for k := 0; k < len(shortPow10); k++ {
		p := shortPow10[k]
		n := math.RoundToEven(a * p)
		if n >= maxShortDecimal {
			return b, false
		}
		if n/p != a {
			continue
		}
		u := uint64(n)
		// At most a sign, 15 digits and a point.
		if cap(b)-len(b) < 17 {
			b = grow(b, 17)
		}
		at := len(b)
		d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)
		if f < 0 {
			*(*byte)(d) = '-'
			d = unsafe.Add(d, 1)
			at++
		}
		if k == 0 {
			l := digits.Len(u)
			putDecimal(d, l, u)
			return b[:at+l], true
		}
		// The integer part's digits, then the k places as the last k
		// digits of u%10^k + 10^k, whose leading 1 the point replaces.
		// u < 10^15, so all of it fits in the 17 bytes made room for.
		pk := shortPow10Int[k]
		ip, fp := u/pk, u%pk
		l := digits.Len(ip)
		putDecimal(unsafe.Add(d, l), 1+k, fp+pk)
		putDecimal(d, l, ip)
		*(*byte)(unsafe.Add(d, l)) = '.'
		return b[:at+l+1+k], true
	}
	return b, false
}
