//go:build !poolkit_nounsafe

package jsonpool

import (
	"unicode/utf16"
	"unicode/utf8"
)

// key reads the string at d.i, a member's name, and returns its bytes
// unescaped (in d.data or d.scratch, valid until the next string read),
// and whether they are all ASCII.
func (d *decodeState) key() (key []byte, ascii, ok bool) {
	start := d.i + 1
	j, high := scanVerbatim(d.data, start)
	if j < len(d.data) && d.data[j] == '"' && !high {
		d.i = j + 1
		return d.data[start:j], true, true
	}
	if !d.unescapeFrom(start, j, high) {
		return nil, false, false
	}
	for _, c := range d.scratch {
		if c >= utf8.RuneSelf {
			return d.scratch, false, true
		}
	}
	return d.scratch, true, true
}

// str reads the string at d.i and returns it as a new string, with one
// allocation if it is not empty.
func (d *decodeState) str() (string, bool) {
	start := d.i + 1
	j, high := scanVerbatim(d.data, start)
	if j < len(d.data) && d.data[j] == '"' && (!high || utf8.Valid(d.data[start:j])) {
		// No escapes, and valid UTF-8: the string is its bytes.
		d.i = j + 1
		if j == start {
			return "", true
		}
		return string(d.data[start:j]), true
	}
	if !d.unescapeFrom(start, j, high) {
		return "", false
	}
	if len(d.scratch) == 0 {
		return "", true
	}
	return string(d.scratch), true
}

// unescapeFrom reads the string at d.i into d.scratch as encoding/json
// decodes it: escapes replaced, \u escapes of UTF-16 surrogate pairs
// combined, and a lone surrogate and each byte that is not part of valid
// UTF-8 replaced by U+FFFD. The string's contents start at start, and
// scanVerbatim(d.data, start) returned stop and high.
func (d *decodeState) unescapeFrom(start, stop int, high bool) bool {
	b := d.scratch[:0]
	data := d.data
	for j := start; j < len(data); {
		if j < stop {
			// data[j:stop] holds no quote, backslash or control byte.
			if high && !utf8.Valid(data[j:stop]) {
				b = appendValidUTF8(b, data[j:stop])
			} else {
				b = append(b, data[j:stop]...)
			}
			j = stop
			continue
		}
		c := data[j]
		switch {
		case c == '"':
			d.i = j + 1
			d.scratch = b
			return true
		case c == '\\':
			if j+1 >= len(data) {
				return false
			}
			switch e := data[j+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(data, j+2)
				if r < 0 {
					return false
				}
				j += 6
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if j+1 < len(data) && data[j] == '\\' && data[j+1] == 'u' {
						r2 = hex4(data, j+2)
					}
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r = pair
						j += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return false
			}
			j += 2
		case c < 0x20:
			return false
		default:
			stop, high = scanVerbatim(data, j)
		}
	}
	d.scratch = b
	return false
}

// appendValidUTF8 appends s to b with each byte that is not part of valid
// UTF-8 replaced by U+FFFD.
func appendValidUTF8(b, s []byte) []byte {
	for j := 0; j < len(s); {
		if c := s[j]; c < utf8.RuneSelf {
			b = append(b, c)
			j++
			continue
		}
		r, n := utf8.DecodeRune(s[j:])
		if r == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[j:j+n]...)
		}
		j += n
	}
	return b
}

// hex4 returns the value of the four hex digits at data[i:], or -1.
func hex4(data []byte, i int) rune {
	if i+4 > len(data) {
		return -1
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
