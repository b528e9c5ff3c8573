package jsonpool

import (
	"encoding/binary"
	"math/bits"
)

// Eight bytes at a time (SWAR): the scans of string contents in isValid
// and the fast decoder load eight bytes into a uint64 and find the first
// byte that ends a run of plain string bytes with a few integer
// operations, instead of a branch per byte.

// load8 returns the first eight bytes of b (len(b) >= 8), the first in
// the low byte.
func load8(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// hasZeroByte sets the high bit of each byte's position in x that is zero.
// The lowest set bit is exact; above it a non-zero byte may be flagged too
// (by the borrow from a zero byte below).
func hasZeroByte(x uint64) uint64 { return (x - wordOnes) & ^x & wordHighs }

// stopMask returns a mask with the high bit of each byte's position set for
// every byte of x that ends a run of plain string bytes: a quote, a
// backslash or a byte below 0x20. As with hasZeroByte, only the lowest set
// bit is exact.
func stopMask(x uint64) uint64 {
	return (x-0x20*wordOnes)&^x&wordHighs | hasZeroByte(x^('"'*wordOnes)) | hasZeroByte(x^('\\'*wordOnes))
}

// isStop reports whether c ends a run of plain string bytes, as stopMask
// flags it.
func isStop(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// scanVerbatim returns the index of the first byte of data at or after j that
// is a quote, a backslash or below 0x20, or len(data) if there is none;
// and whether any byte before it, from j, is 0x80 or above.
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

// escapeWord holds the constants of escapeWord.plain for one mode. They are
// read from memory, not written as constants: on amd64 a 64-bit
// immediate costs an instruction of its own at every use, where a load
// folds into the operation that uses it; and the mode is then a choice
// of constants, not a branch per word.
type escapeWord struct {
	lo7, c60, bs, q, qm, lt, ltm uint64
}

// htmlEscapeWord tests for ", &, < and > (and the rest) in html mode;
// noHTMLEscapeWord tests for the quote alone, twice.
var (
	htmlEscapeWord   = escapeWord{0x7f * wordOnes, 0x60 * wordOnes, '\\' * wordOnes, '"' * wordOnes, 0x7b * wordOnes, '<' * wordOnes, 0x7d * wordOnes}
	noHTMLEscapeWord = escapeWord{0x7f * wordOnes, 0x60 * wordOnes, '\\' * wordOnes, '"' * wordOnes, 0x7f * wordOnes, '"' * wordOnes, 0x7f * wordOnes}
)

// plain reports whether the eight bytes of x (the first in the low byte)
// all need no escape: each is ASCII from 0x20 up, not a quote or a
// backslash, nor <, > or & in html mode.
//
// When every byte is below 0x80 no byte of the sums carries into the
// next: x+0x60 has its high bit set for a byte of 0x20 and above, and
// y+0x7f for y (of seven bits) other than 0, so the AND of the tests
// has the high bit of every plain byte set and of no other. The quote
// (0x22) and & (0x26) differ in bit 2 only, < (0x3c) and > (0x3e) in
// bit 1 only: masking that bit out after the XOR (qm, ltm) makes both
// bytes of each pair zero at once; without html the quote is tested
// twice, so that & is not flagged. A byte of 0x80 and above clears its
// own high bit through &^x, whatever the carries into it: the word is
// then not plain, as it should be.
func (k *escapeWord) plain(x uint64) bool {
	lo7 := k.lo7
	ok := (x + k.c60) & ((x ^ k.bs) + lo7) & (((x ^ k.q) & k.qm) + lo7) & (((x ^ k.lt) & k.ltm) + lo7)
	return ok&^x|lo7 == ^uint64(0)
}

// load4 returns the first four bytes of s, the first in the low byte.
func load4(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// Word-at-a-time tests on eight bytes in a uint64: a byte of y is zero
// exactly when the corresponding high bit of (y-wordOnes)&^y is set in
// the lowest such byte (above it, a byte of 1 may be flagged too, by the
// borrow), so the result is 0 exactly when no byte is zero.
const (
	wordOnes  = 0x0101010101010101
	wordHighs = 0x8080808080808080
)

// escapeMask8 returns, for the eight bytes of s (len(s) == 8), a mask
// with the high bit of each byte's position set for every byte that is
// not ASCII needing no escape: control bytes, quotes, backslashes, bytes of
// 0x80 and above, and <, > and & if html. The lowest set bit is exact;
// above it a plain byte may be flagged too (a borrow from the byte below).
func escapeMask8(s string, html bool) uint64 {
	return escapeMask(load8String(s), html)
}

// escapeMask is escapeMask8 on the eight bytes of x, the first in the low
// byte. Its mask is exact: it flags no plain byte.
//
// With x7 the low seven bits of each byte, no byte of the sums below
// carries into the next: x7+0x60 has its high bit set for x7 of 0x20 and
// above, and y+0x7f for y other than 0 (y of seven bits). The quote
// (0x22) and & (0x26) differ in bit 2 only, < (0x3c) and > (0x3e) in bit
// 1 only: masking that bit out after the XOR makes both bytes of each
// pair zero at once. Without html the quote is tested alone, so that &
// is not flagged. Bytes of 0x80 and above are flagged by their own high
// bit.
func escapeMask(x uint64, html bool) uint64 {
	const lo7 = 0x7f * wordOnes
	x7 := x & lo7
	ok := (x7 + 0x60*wordOnes) & ((x7 ^ '\\'*wordOnes) + lo7)
	if html {
		ok &= ((x7^'"'*wordOnes)&(0x7b*wordOnes) + lo7) & ((x7^'<'*wordOnes)&(0x7d*wordOnes) + lo7)
	} else {
		ok &= (x7 ^ '"'*wordOnes) + lo7
	}
	return (^ok | x) & wordHighs
}

// load8String returns the first eight bytes of s, the first in the low byte.
func load8String(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
