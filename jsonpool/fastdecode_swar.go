package jsonpool

import (
	"encoding/binary"
	"math/bits"
)

// Eight bytes at a time (SWAR): the scans of string contents in isValid
// and the fast decoder load eight bytes into a uint64 and find the first
// byte that ends a run of plain string bytes with a few integer
// operations, instead of a branch per byte.

const (
	decOnes  = 0x0101010101010101
	decHighs = 0x8080808080808080
)

// decLoad8 returns the first eight bytes of b (len(b) >= 8), the first in
// the low byte.
func decLoad8(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// decHasZero sets the high bit of each byte's position in x that is zero.
// The lowest set bit is exact; above it a non-zero byte may be flagged too
// (by the borrow from a zero byte below).
func decHasZero(x uint64) uint64 { return (x - decOnes) & ^x & decHighs }

// decStop returns a mask with the high bit of each byte's position set for
// every byte of x that ends a run of plain string bytes: a quote, a
// backslash or a byte below 0x20. As with decHasZero, only the lowest set
// bit is exact.
func decStop(x uint64) uint64 {
	return (x-0x20*decOnes)&^x&decHighs | decHasZero(x^('"'*decOnes)) | decHasZero(x^('\\'*decOnes))
}

// isStop reports whether c ends a run of plain string bytes, as decStop
// flags it.
func isStop(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// scanPlain returns the index of the first byte of data at or after j that
// is a quote, a backslash or below 0x20, or len(data) if there is none;
// and whether any byte before it, from j, is 0x80 or above.
func scanPlain(data []byte, j int) (int, bool) {
	var high uint64
	for j+8 <= len(data) {
		x := decLoad8(data[j:])
		if m := decStop(x); m != 0 {
			k := bits.TrailingZeros64(m) // the high bit of the stop's byte
			high |= x & (1<<k - 1)       // the bytes below it
			return j + k>>3, high&decHighs != 0
		}
		high |= x
		j += 8
	}
	for ; j < len(data); j++ {
		c := data[j]
		if isStop(c) {
			break
		}
		high |= uint64(c)
	}
	return j, high&decHighs != 0
}
