package jsonpool

import (
	"math/bits"
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
