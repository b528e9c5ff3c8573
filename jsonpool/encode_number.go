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
// putDecimal does what internal/digits' Put does, through unsafe stores
// into room already made rather than a bounds-checked slice: on the
// receipt of benchmarks/jsonpool/instructions.sh, the encoder's integers
// through digits.Put and digits.AppendInt cost about 1,300 more
// instructions per encode (44,100 against 42,800).

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
		if out, ok := digits.AppendShortFloat(b, f, digits.MaxPlaces); ok {
			return out, true
		}
	}
	return appendFloatStrconv(b, f, bits)
}

// appendFloatStrconv is appendFloat through strconv alone, for a
// float digits.AppendShortFloat does not take.
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
