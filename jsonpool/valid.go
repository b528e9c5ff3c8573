package jsonpool

import "math/bits"

// isValid reports whether data is one JSON value with optional white space
// around it, by the grammar json.Valid checks (RFC 8259; bytes of 0x80 and
// above are accepted in strings as they are, as encoding/json accepts
// them). It is a faster stand-in for json.Valid on Unmarshal's path: it
// never reports true where json.Valid reports false, which FuzzIsValid
// checks, and it reports false, sending the caller to json.Unmarshal's own
// check, for values nested deeper than maxValidDepth, which is below
// encoding/json's limit of 10,000.
//
// encoding/json's scanner calls a function per byte through a pointer;
// this is a loop over the bytes with the state in local variables, and
// costs a fraction of it.
func isValid(data []byte) bool {
	i := validEnd(data, skipSpace(data, 0), maxValidDepth)
	return i >= 0 && skipSpace(data, i) == len(data)
}

// validEnd checks the JSON value that starts at data[i], with no white
// space before it, and returns the index just after it, or -1 if it is
// not valid JSON or holds containers nested more than room deep.
func validEnd(data []byte, i, room int) int {
	// inArray is whether the innermost open container is an array; open
	// holds the same for the ones around it: bit d is set if the d-th
	// open container, counting from 1, is an array (bit 0, for none, is
	// clear). It lives on the stack.
	var open [maxValidDepth / 64]uint64
	room = min(room, maxValidDepth)
	depth := 0
	inArray := false
	for {
		// A value starts at i.
		if i >= len(data) {
			return -1
		}
		switch c := data[i]; c {
		case '{', '[':
			if depth >= room {
				return -1
			}
			if inArray {
				open[uint(depth)/64] |= 1 << (uint(depth) % 64)
			} else {
				open[uint(depth)/64] &^= 1 << (uint(depth) % 64)
			}
			depth++
			inArray = c == '['
			i = skipSpace(data, i+1)
			if i < len(data) && (inArray && data[i] == ']' || !inArray && data[i] == '}') {
				depth--
				inArray = open[uint(depth)/64]&(1<<(uint(depth)%64)) != 0
				i++
				break // an empty container is a whole value
			}
			if c == '{' {
				if i = objectKey(data, i); i < 0 {
					return -1
				}
			}
			continue // the first element's value starts at i
		case '"':
			if i = stringEnd(data, i); i < 0 {
				return -1
			}
		case 't':
			if i = literalEnd(data, i, "true"); i < 0 {
				return -1
			}
		case 'f':
			if i = literalEnd(data, i, "false"); i < 0 {
				return -1
			}
		case 'n':
			if i = literalEnd(data, i, "null"); i < 0 {
				return -1
			}
		default:
			if i = numberEnd(data, i); i < 0 {
				return -1
			}
		}
		// A value ended at i: close containers, or find the next value.
		for {
			if depth == 0 {
				return i
			}
			i = skipSpace(data, i)
			if i >= len(data) {
				return -1
			}
			c := data[i]
			if c == ',' {
				i = skipSpace(data, i+1)
				if !inArray {
					if i = objectKey(data, i); i < 0 {
						return -1
					}
				}
				break
			}
			if inArray && c == ']' || !inArray && c == '}' {
				depth--
				inArray = open[uint(depth)/64]&(1<<(uint(depth)%64)) != 0
				i++
				continue
			}
			return -1
		}
	}
}

// maxValidDepth is the deepest nesting isValid checks itself.
const maxValidDepth = 1024

func skipSpace(data []byte, i int) int {
	if i < len(data) && data[i] > ' ' {
		return i // no white space, the common case
	}
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// objectKey reads a member's name and colon at i and returns where its
// value starts, or -1.
func objectKey(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if i = stringEnd(data, i); i < 0 {
		return -1
	}
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != ':' {
		return -1
	}
	return skipSpace(data, i+1)
}

// stringEnd returns the index after the string that starts at data[i] ==
// '"', or -1.
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); {
		// Skip verbatim bytes eight at a time, to the first that is not
		// one.
		for i+8 <= len(data) {
			if m := stopMask(load8(data[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			return i + 1
		case c == '\\':
			if i+1 >= len(data) {
				return -1
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
					return -1
				}
				i += 6
			default:
				return -1
			}
		case c < 0x20:
			return -1
		default:
			i++
		}
	}
	return -1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// literalEnd returns the index after lit if data holds it at i, or -1.
func literalEnd(data []byte, i int, lit string) int {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// numberEnd returns the index after the number at i, or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberEnd(data []byte, i int) int {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		return -1
	case data[i] == '0':
		i++
	case '1' <= data[i] && data[i] <= '9':
		for i++; i < len(data) && isDigit(data[i]); i++ {
		}
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	return i
}
