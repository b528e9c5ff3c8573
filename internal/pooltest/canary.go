package pooltest

import "testing"

// canaryByte fills the spare capacity that an Append-style function is
// handed; it is a byte no function under test writes by itself often, so
// a write past the returned length shows.
const canaryByte = 0xA5

// WithinLength calls appendTo with a dst that holds prefix and spare
// capacity of room bytes filled with a canary, then fails the test if
// appendTo changed the prefix, or returned a slice over dst's array and
// wrote anywhere in that array past the slice's length. An Append-style
// function may use dst's spare capacity only for the bytes it returns:
// the memory past them may be a neighbouring sub-slice of the caller's
// buffer. (A result that outgrew dst lives in a new array; dst's spare
// capacity may then hold a start of it, as after any chain of appends.)
//
// appendTo's result and error are returned for further checks.
func WithinLength(t testing.TB, name string, prefix []byte, room int, appendTo func(dst []byte) ([]byte, error)) ([]byte, error) {
	t.Helper()
	backing := make([]byte, len(prefix)+room)
	copy(backing, prefix)
	for i := len(prefix); i < len(backing); i++ {
		backing[i] = canaryByte
	}
	out, err := appendTo(backing[:len(prefix):len(backing)])
	if string(backing[:len(prefix)]) != string(prefix) {
		t.Errorf("%s: the prefix of dst changed to %q", name, backing[:len(prefix)])
	}
	if cap(out) == 0 || len(backing) == 0 || &out[:1][0] != &backing[0] {
		return out, err // out grew into a new array, or is empty
	}
	// Bytes of backing that out covers are the function's to write; every
	// other byte must still be the canary.
	for i := max(len(out), len(prefix)); i < len(backing); i++ {
		if backing[i] != canaryByte {
			t.Errorf("%s: wrote byte %d of dst (%#x) past the %d bytes it returned (err %v)",
				name, i, backing[i], len(out), err)
			break
		}
	}
	return out, err
}
