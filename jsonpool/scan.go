package jsonpool

import (
	"encoding/binary"
	"math/bits"
)

// Eight bytes at a time: the encoder's escaping of strings, the fast
// decoder's reading of strings and isValid's checking of them all look for
// the first byte of a string that is not copied as it is, and all find it
// with one word-at-a-time test, byteClass, on eight bytes loaded into a
// uint64 (the first in the low byte), in place of a branch per byte.
//
// The test (byteClass.mask) is exact: it sets the high bit of a byte's
// position for each byte of the class and for no other byte. Why: with x7
// the low seven bits of each byte (x & 0x7f7f...), every byte of each sum
// below stays below 0x100, so no sum carries from one byte into the next
// and each byte's high bit depends on that byte alone. In each byte,
//   - x7 + 0x60 has its high bit set exactly when x7 >= 0x20;
//   - y + 0x7f, for a y of seven bits, has it set exactly when y != 0: with
//     y = x7 ^ c it tests x7 != c;
//   - the quote (0x22) and & (0x26) differ in bit 2 only, < (0x3c) and >
//     (0x3e) in bit 1 only, so y = (x7 ^ 0x22) & 0x7b is zero for both
//     the quote and &, and (x7 ^ 0x3c) & 0x7d for both < and >.
// The AND of the tests has the high bit set in exactly the bytes that pass
// all of them; its complement, masked to the high bits, flags the others.
// Bytes of 0x80 and above are classed by their low seven bits; the
// encoder, which must look at them (invalid UTF-8, U+2028), adds their own
// high bits.
//
// byteClass.none answers a weaker question, "is any byte of x flagged or
// 0x80 or above?", with subtractions in place of the additions: in each
// byte, x - 0x20 and y - 1 (y of seven bits: x ^ c, or (x ^ c) & m as
// above) borrow, and so set the byte's high bit, exactly when x < 0x20
// and y == 0. Why the answer is exact: if every byte of x is below 0x80
// and in none of the classes, no byte of any difference borrows, each
// byte of each difference is below 0x80, and no high bit is set; else
// take the lowest byte that is 0x80 or above (x itself sets its high
// bit) or in a class: the bytes below it borrow nothing, so its own
// difference is from -0x20 to -1, and its high bit is set. A borrow may
// also set high bits in the bytes above it; none only asks whether any
// is set. The encoder asks none of every word, so its one fewer
// operation per word counts.
// TestByteClass holds mask and none to a byte-at-a-time definition for
// every byte value at every position.

const (
	wordOnes  = 0x0101010101010101 // a 1 in every byte
	wordHighs = 0x8080808080808080 // the high bit of every byte
	wordLow7  = 0x7f * wordOnes    // the low seven bits of every byte
)

// byteClass is a set of ASCII bytes, as the constants of its word test:
// the bytes below 0x20, the backslash, the bytes equal to q in the bits
// of qm, and those equal to lt in the bits of ltm. The constants are read
// from memory rather than written as immediates: on amd64 a 64-bit
// immediate costs an instruction of its own at every use, where a load
// folds into the operation that uses it, and the encoder's choice of mode
// is then a choice of constants, not a branch per word.
type byteClass struct {
	lo7, c60, bs, q, qm, lt, ltm uint64
	ones, c20, highs             uint64 // for none
}

var (
	// stringClass is what JSON escapes in a string: the quote, the
	// backslash and the bytes below 0x20 (the quote is tested twice). The
	// decoder and isValid stop at these; the encoder escapes them when
	// HTML escaping is off.
	stringClass = byteClass{wordLow7, 0x60 * wordOnes, '\\' * wordOnes, '"' * wordOnes, wordLow7, '"' * wordOnes, wordLow7,
		wordOnes, 0x20 * wordOnes, wordHighs}
	// htmlClass is stringClass with <, > and &, which the encoder escapes
	// in HTML mode.
	htmlClass = byteClass{wordLow7, 0x60 * wordOnes, '\\' * wordOnes, '"' * wordOnes, 0x7b * wordOnes, '<' * wordOnes, 0x7d * wordOnes,
		wordOnes, 0x20 * wordOnes, wordHighs}
)

// mask returns the high bit of each byte's position in x set for each
// byte whose low seven bits are in k, and no other bit (see above).
func (k *byteClass) mask(x uint64) uint64 {
	lo7 := k.lo7
	x7 := x & lo7
	ok := (x7 + k.c60) & ((x7 ^ k.bs) + lo7) & (((x7 ^ k.q) & k.qm) + lo7) & (((x7 ^ k.lt) & k.ltm) + lo7)
	return ^ok & wordHighs
}

// none reports whether no byte of x is in k or is 0x80 or above: whether
// k.mask(x) | x&wordHighs is 0 (see above).
func (k *byteClass) none(x uint64) bool {
	ones := k.ones
	some := (x - k.c20) | ((x ^ k.bs) - ones) | (((x ^ k.q) & k.qm) - ones) | (((x ^ k.lt) & k.ltm) - ones)
	return (some|x)&k.highs == 0
}

// escapeMask returns, for the eight bytes of x, the high bit of each
// byte's position set for every byte the encoder does not copy as it is:
// control bytes, quotes, backslashes, bytes of 0x80 and above, and <, >
// and & if html. It is exact.
func escapeMask(x uint64, html bool) uint64 {
	k := &stringClass
	if html {
		k = &htmlClass
	}
	return k.mask(x) | x&wordHighs
}

// stopMask returns, for the eight bytes of x, 0 if none ends a run of
// verbatim string bytes (a quote, a backslash or a byte below 0x20), and
// otherwise a mask whose lowest set bit is the high bit of the first that
// does; bits above it may be set for bytes that do not. It is the borrow
// test of byteClass.none, for stringClass (a quote tested once), with the
// high bits of x cleared rather than added: bytes of 0x80 and above
// borrow in no difference, so they neither are flagged nor move the first
// flag. Callers look at the lowest set bit only.
func stopMask(x uint64) uint64 {
	k := &stringClass
	return ((x - k.c20) | ((x ^ k.bs) - k.ones) | ((x ^ k.q) - k.ones)) &^ x & k.highs
}

// isStop reports whether c ends a run of verbatim string bytes, as
// stopMask flags it.
func isStop(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// load8 returns the first eight bytes of b (len(b) >= 8), the first in
// the low byte.
func load8(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// load8String returns the first eight bytes of s, the first in the low
// byte.
func load8String(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// load4 returns the first four bytes of s, the first in the low byte.
func load4(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// scanVerbatim returns the index of the first byte of data at or after j
// that is a quote, a backslash or below 0x20, or len(data) if there is
// none; and whether any byte before it, from j, is 0x80 or above.
func scanVerbatim(data []byte, j int) (int, bool) {
	var high uint64
	for j+8 <= len(data) {
		x := load8(data[j:])
		if m := stopMask(x); m != 0 {
			k := bits.TrailingZeros64(m) // the high bit of the stop's byte
			high |= x & (1<<k - 1)       // the bytes below it
			return j + k>>3, high&wordHighs != 0
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
	return j, high&wordHighs != 0
}
