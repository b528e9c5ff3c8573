//go:build !poolkit_nounsafe

package jsonpool

import (
	"strconv"
	"unsafe"
)

// integer decodes the number at i into the integer of p's type at ptr, in
// one pass over its digits, and reports false, leaving the decision to
// encoding/json, for anything but an integer in the type's range in JSON's
// syntax: a fraction or exponent, a leading zero, a sign on an unsigned
// type (-0 too, which strconv.ParseUint refuses), more than 19 digits.
func (d *decodeState) integer(p *decodePlan, ptr unsafe.Pointer, i int) bool {
	data := d.data
	neg := data[i] == '-'
	if neg {
		if p.kind == decodeUint {
			return false
		}
		i++
	}
	start := i
	var u uint64
	for ; i < len(data) && isDigit(data[i]); i++ {
		u = u*10 + uint64(data[i]-'0') // wraps past 19 digits, refused below
	}
	n := i - start
	if n == 0 || n > 19 || n > 1 && data[start] == '0' {
		return false
	}
	if i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E') {
		return false
	}
	d.i = i
	if p.bits == 64 && p.kind == decodeInt && u < 1<<63 {
		// The commonest target, int64 or int, stored here without a
		// call: |v| < 2^63 is in range with either sign (MinInt64 goes
		// by storeInteger).
		v := int64(u)
		if neg {
			v = -v
		}
		*(*int64)(ptr) = v
		return true
	}
	return storeInteger(p, ptr, u, neg)
}

// storeInteger stores u, negated if neg, into the integer of p's type at
// ptr, and reports false if it is out of the type's range.
func storeInteger(p *decodePlan, ptr unsafe.Pointer, u uint64, neg bool) bool {
	if p.kind == decodeUint {
		if p.bits < 64 && u>>p.bits != 0 {
			return false
		}
	} else {
		limit := uint64(1) << (p.bits - 1) // |min| of the type
		if !neg && u >= limit || neg && u > limit {
			return false
		}
		if neg {
			u = -u // two's complement: the low p.bits bits are the value's
		}
	}
	// A signed integer's bits are those of the unsigned one of its size.
	switch p.bits {
	case 8:
		*(*uint8)(ptr) = uint8(u)
	case 16:
		*(*uint16)(ptr) = uint16(u)
	case 32:
		*(*uint32)(ptr) = uint32(u)
	default:
		*(*uint64)(ptr) = u
	}
	return true
}

// storeNumber stores the number num, which has JSON's number syntax, into
// the float of p's type at ptr, as encoding/json does, and reports false
// where encoding/json reports an error: a number out of range.
func storeNumber(p *decodePlan, ptr unsafe.Pointer, num []byte) bool {
	switch p.kind {
	case decodeFloat32:
		f, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 32)
		if err != nil {
			return false
		}
		*(*float32)(ptr) = float32(f)
		return true
	case decodeFloat64:
		f, err := strconv.ParseFloat(unsafe.String(&num[0], len(num)), 64)
		if err != nil {
			return false
		}
		*(*float64)(ptr) = f
		return true
	}
	return false
}

// float64Pow10 holds the powers of ten that a float64 holds exactly.
var float64Pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// shortFloat64 reads the number at data[i] in one pass, if it is a JSON
// number without an exponent and of at most 15 digits, and returns the
// float64 nearest to it, the index after it, and true; for anything else
// (an exponent, more digits, or bytes that are not a JSON number, such as a
// leading zero before a digit or a point without digits) it returns false
// and leaves the number to numberEnd and strconv.ParseFloat. Its digits as
// an integer m are below 2^53 and its fraction has k <= 15 digits, so m and
// 10^k are exact float64s and m / 10^k, one IEEE division, is the nearest
// float64 to the number, as strconv.ParseFloat returns (whose own fast path
// is the same), without the cost of its general parse.
func shortFloat64(data []byte, i int) (float64, int, bool) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start := i
	var m uint64
	for ; i < len(data) && isDigit(data[i]); i++ {
		m = m*10 + uint64(data[i]-'0') // wraps past 19 digits, refused below
	}
	digits := i - start
	if digits == 0 || digits > 1 && data[start] == '0' {
		return 0, 0, false
	}
	frac := 0
	if i < len(data) && data[i] == '.' {
		i++
		fstart := i
		for ; i < len(data) && isDigit(data[i]); i++ {
			m = m*10 + uint64(data[i]-'0')
		}
		if frac = i - fstart; frac == 0 {
			return 0, 0, false
		}
	}
	if digits+frac > 15 || i < len(data) && (data[i] == 'e' || data[i] == 'E' || data[i] == '.') {
		return 0, 0, false
	}
	f := float64(m)
	if frac > 0 {
		f /= float64Pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, i, true
}

// integers decodes, from d.i, the leading elements of an array of integers
// of e's type (e.kind decodeInt or decodeUint) that integerRun takes, into
// the elements of the Go array or slice at ptr, at most room of them: the
// array's length, or the slice's capacity, less the elements decoded
// before. It returns how many it decoded, and whether the JSON array ended
// after the last.
func (d *decodeState) integers(e *decodePlan, ptr unsafe.Pointer, room int) (int, bool) {
	if e.kind == decodeUint {
		maxPos := uint64(1)<<e.bits - 1 // 1<<64 - 1 for 64 bits
		switch e.bits {
		case 8:
			return integerRun(d, unsafe.Slice((*uint8)(ptr), room), maxPos, 0)
		case 16:
			return integerRun(d, unsafe.Slice((*uint16)(ptr), room), maxPos, 0)
		case 32:
			return integerRun(d, unsafe.Slice((*uint32)(ptr), room), maxPos, 0)
		default:
			return integerRun(d, unsafe.Slice((*uint64)(ptr), room), maxPos, 0)
		}
	}
	maxNeg := uint64(1) << (e.bits - 1) // |min| of the type
	switch e.bits {
	case 8:
		return integerRun(d, unsafe.Slice((*int8)(ptr), room), maxNeg-1, maxNeg)
	case 16:
		return integerRun(d, unsafe.Slice((*int16)(ptr), room), maxNeg-1, maxNeg)
	case 32:
		return integerRun(d, unsafe.Slice((*int32)(ptr), room), maxNeg-1, maxNeg)
	default:
		return integerRun(d, unsafe.Slice((*int64)(ptr), room), maxNeg-1, maxNeg)
	}
}

// integerRun decodes, from d.i, elements of a JSON array into dst[0],
// dst[1] and on, as long as each is plain: digits without a leading zero,
// at most 19 of them, preceded by '-' only if maxNeg > 0, at most maxPos
// (or maxNeg if negative), and followed at once by ',' or ']'. It stops at
// the first element that is not, leaving d.i at its first byte for the
// general loop to decode or refuse, or after len(dst) elements, or after
// the element that ']' ends, d.i then after the ']'. It returns how many
// elements it decoded and whether the array ended. Each integer's bits
// are stored in two's complement, as storeInteger stores them.
func integerRun[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](d *decodeState, dst []T, maxPos, maxNeg uint64) (int, bool) {
	data, i, k := d.data, d.i, 0
	for ; k < len(dst); k++ {
		j := i
		neg := j < len(data) && data[j] == '-'
		if neg {
			if maxNeg == 0 {
				break
			}
			j++
		}
		start := j
		var u uint64
		for ; j < len(data) && isDigit(data[j]); j++ {
			u = u*10 + uint64(data[j]-'0') // wraps past 19 digits, refused below
		}
		if n := j - start; n == 0 || n > 19 || n > 1 && data[start] == '0' || j >= len(data) {
			break
		}
		if neg {
			if u > maxNeg {
				break
			}
			u = -u
		} else if u > maxPos {
			break
		}
		sep := data[j]
		if sep != ',' && sep != ']' {
			break
		}
		dst[k] = T(u)
		i = j + 1
		if sep == ']' {
			d.i = i
			return k + 1, true
		}
	}
	d.i = i
	return k, false
}
