//go:build !poolkit_nounsafe

package jsonpool

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/poolkit/poolkit/internal/digits"
)

// Numbers for the fast encode path are written by internal/digits, the
// module's one home for decimal text: integers by digits.AppendInt and
// AppendUint, or, in appendFixedStruct, in place, into the room it has
// made (digits.Len and digits.PutAt, inlined: no call, no bounds
// checks); floats that are short decimals by digits.AppendShortFloat,
// the rest by strconv. They cost the encode no more instructions than
// jsonpool's own copies of them did (sh benchmarks/jsonpool/instructions.sh).

// grow returns b with room for at least n more bytes.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		b = append(b[:cap(b)], make([]byte, n)...)[:len(b)]
	}
	return b
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
	return digits.AppendInt(b, int64(*(*T)(p))), true
}

func uintEncoder[T uint | uint8 | uint16 | uint32 | uint64 | uintptr](b []byte, p unsafe.Pointer, _ bool) ([]byte, bool) {
	return digits.AppendUint(b, uint64(*(*T)(p))), true
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
