//go:build !poolkit_nounsafe

package jsonpool

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// stringsEncoder writes a slice of a string kind without methods (build
// refuses those with methods).
func stringsEncoder(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
	s := *(*[]string)(p)
	if s == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, e := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, e, html)
	}
	return append(b, ']'), true
}

// safeASCII holds, for each ASCII byte, whether the encoder copies it into
// a string as it is with HTML escaping off: every byte from 0x20 up but
// the quote and the backslash, the bytes stringClass leaves out.
// htmlSafeASCII is the same with HTML escaping on, without <, > and &
// (htmlClass).
var htmlSafeASCII, safeASCII [utf8.RuneSelf]bool

func init() {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		safe := c != '"' && c != '\\'
		safeASCII[c] = safe
		htmlSafeASCII[c] = safe && c != '<' && c != '>' && c != '&'
	}
}

const hexDigits = "0123456789abcdef"

func stringEncoder(b []byte, p unsafe.Pointer, html bool) ([]byte, bool) {
	return appendString(b, *(*string)(p), html), true
}

// appendString appends s as a JSON string the way encoding/json writes it:
// quotes and backslashes escaped, \b \f \n \r \t in their short forms,
// other bytes below 0x20 as \u00XX, <, > and & as \u003c, \u003e and
// \u0026 when html is set, U+2028 and U+2029 always escaped, and each byte
// of invalid UTF-8 replaced by \ufffd.
//
// Most strings need no escape at all. appendString makes room for the
// whole string and its quotes once, then copies it eight bytes at a time,
// testing each word as it goes (a string shorter than eight in one word
// of overlapping loads); the first word that needs an escape hands over
// to appendStringEscaped, which writes the string again from its opening
// quote. The words are stored whole, so it may write b's spare capacity
// beyond what it appends (never beyond its capacity): b is the encoder's
// own buffer, or memory nothing else reads.
func appendString(b []byte, s string, html bool) []byte {
	n := len(s)
	if cap(b)-len(b) < n+stringRoom {
		b = grow(b, n+stringRoom)
	}
	k := &stringClass
	if html {
		k = &htmlClass
	}
	at := len(b)
	// Every store below is within b[at:at+n+2], which the room made
	// above holds: the opening quote at at, the words of s at
	// at+1+i for i+8 <= n, the closing quote at at+1+n.
	d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), at)
	*(*byte)(d) = '"'
	if n >= 8 {
		// The words at 0, 8, ... before the last, then the last eight
		// bytes, overlapping the word before unless n is a multiple of 8.
		p := unsafe.Pointer(unsafe.StringData(s))
		for i := 0; i < n-8; i += 8 {
			x := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
			binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(d, 1+i))[:], x)
			if !k.none(x) {
				return appendStringEscaped(b[:at+1], s, i, html)
			}
		}
		x := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, n-8))[:])
		binary.LittleEndian.PutUint64((*[8]byte)(unsafe.Add(d, n-7))[:], x)
		if !k.none(x) {
			return appendStringEscaped(b[:at+1], s, n-8, html)
		}
	} else if n >= 4 {
		lo, hi := load4(s[:4]), load4(s[n-4:])
		if !k.none(uint64(lo) | uint64(hi)<<32) {
			return appendStringEscaped(b[:at+1], s, 0, html)
		}
		binary.LittleEndian.PutUint32((*[4]byte)(unsafe.Add(d, 1))[:], lo)
		binary.LittleEndian.PutUint32((*[4]byte)(unsafe.Add(d, n-3))[:], hi)
	} else if n > 0 {
		c0, c1, c2 := s[0], s[n>>1], s[n-1]
		if !k.none(uint64(c0) | uint64(c1)<<8 | uint64(c2)<<16 | 0x6161616161<<24) {
			return appendStringEscaped(b[:at+1], s, 0, html)
		}
		*(*byte)(unsafe.Add(d, 1)) = c0
		*(*byte)(unsafe.Add(d, 1+n>>1)) = c1
		*(*byte)(unsafe.Add(d, n)) = c2
	}
	*(*byte)(unsafe.Add(d, n+1)) = '"'
	return b[:at+n+2]
}

// stringRoom is the spare capacity appendString makes beyond the
// string's length: its two quotes.
const stringRoom = 2

// appendStringEscaped appends the rest of s's text, from an opening quote
// already written on: s[:i] needs no escape.
func appendStringEscaped(b []byte, s string, i int, html bool) []byte {
	safe := &htmlSafeASCII
	if !html {
		safe = &safeASCII
	}
	start := 0
	for i < len(s) {
		if len(s) >= 8 {
			// Find the next byte from i on that may need an escape, eight
			// bytes at a time: the window s[w:w+8] starts at i, or ends at
			// s's end when fewer than eight bytes are left, and the bytes
			// of it before i are shifted out. The mask is exact (see
			// byteClass): its lowest bit is the next byte that is not
			// copied as it is, which the byte test below then handles.
			w := min(i, len(s)-8)
			m := escapeMask(load8String(s[w:w+8]), html) >> (8 * uint(i-w) & 63)
			if m == 0 {
				i = w + 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		if c >= 0xc2 && c <= 0xdf && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
			// A valid two-byte sequence (U+0080 to U+07FF), written as
			// it is.
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, invalidUTF8Text...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
