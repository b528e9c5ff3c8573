package jsonpool_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/poolkit/poolkit/jsonpool"
)

// canaryByte fills the spare capacity of the dst slices the append
// discipline tests pass: a byte no JSON text ends with.
const canaryByte = '#'

// withCanary returns a dst holding prefix, with spare bytes of spare
// capacity, each canaryByte.
func withCanary(prefix string, spare int) []byte {
	buf := bytes.Repeat([]byte{canaryByte}, len(prefix)+spare)
	copy(buf, prefix)
	return buf[:len(prefix)]
}

// checkCanary reports an error unless every byte of dst's spare capacity
// past out's end is still canaryByte when out is dst's array, or past
// dst's end when it is not (the function then grew a new array, and must
// not have written dst's).
func checkCanary(t *testing.T, what string, dst, out []byte) {
	t.Helper()
	end := len(dst)
	if cap(out) > 0 && cap(dst) > 0 && &out[:cap(out)][0] == &dst[:cap(dst)][0] {
		end = len(out)
	}
	for i, c := range dst[:cap(dst)][end:] {
		if c != canaryByte {
			t.Fatalf("%s wrote byte %d past the %d bytes it returned (%q): %q", what, i, end, c, dst[:cap(dst)])
		}
	}
}

// TestAppendWritesOnlyWhatItReturns holds every Append-style function of
// jsonpool (Marshal and AppendEncode, of the package and of Options) to
// the append discipline: it writes nothing of dst beyond the length it
// returns, whether the value takes the fast path or encoding/json's, with
// any options, on success and on error, whatever spare capacity dst has.
func TestAppendWritesOnlyWhatItReturns(t *testing.T) {
	type long struct{ AVeryLongFieldNameOfTwentySixXX int64 }
	values := encodeValues()
	values["long key"] = &long{math.MinInt64}
	values["nan"] = math.NaN()
	values["channel"] = make(chan int)
	values["marshaler"] = []any{1, failingMarshaler{}}
	values["int"] = &struct{ A int }{1}

	type appendFunc struct {
		name string
		fn   func(dst []byte, v any) ([]byte, error)
	}
	fns := []appendFunc{{"Marshal", jsonpool.Marshal}, {"AppendEncode", jsonpool.AppendEncode}}
	for _, o := range optionSets() {
		fns = append(fns, appendFunc{"Options.Marshal", o.Marshal}, appendFunc{"Options.AppendEncode", o.AppendEncode})
	}
	for name, v := range values {
		for _, f := range fns {
			for _, spare := range []int{0, 1, 8, 64, 1 << 20} {
				dst := withCanary("prefix:", spare)
				out, err := f.fn(dst, v)
				checkCanary(t, f.name+" of "+name, dst, out)
				if err != nil && (len(out) != len(dst) || string(out) != "prefix:") {
					t.Fatalf("%s of %s failed (%v) but returned %q, not dst", f.name, name, err, out)
				}
			}
		}
	}
}
