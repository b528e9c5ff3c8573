package digits

import (
	"strconv"
	"testing"
)

// prices are short decimals, as AppendShortFloat is for.
var prices = []float64{19.99, 4.5, 1299.95, 0.25, 7, 149.5, 3.14, 12.75, 99.999, 0.1, 250.4, 1.05}

// ints are integers of several lengths.
var ints = []int64{7, 42, 1234, -56, 987654321, 20261126, 3, 100000}

var sinkBytes []byte

// BenchmarkAppendShortFloat compares AppendShortFloat with
// strconv.AppendFloat on prices.
func BenchmarkAppendShortFloat(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.Run("impl=digits", func(b *testing.B) {
		for b.Loop() {
			for _, f := range prices {
				buf, _ = AppendShortFloat(buf[:0], f, MaxPlaces)
			}
		}
	})
	b.Run("impl=strconv", func(b *testing.B) {
		for b.Loop() {
			for _, f := range prices {
				buf = strconv.AppendFloat(buf[:0], f, 'f', -1, 64)
			}
		}
	})
	sinkBytes = buf
}

// BenchmarkAppendInt compares AppendInt with strconv.AppendInt.
func BenchmarkAppendInt(b *testing.B) {
	buf := make([]byte, 0, 64)
	b.Run("impl=digits", func(b *testing.B) {
		for b.Loop() {
			for _, i := range ints {
				buf = AppendInt(buf[:0], i)
			}
		}
	})
	b.Run("impl=strconv", func(b *testing.B) {
		for b.Loop() {
			for _, i := range ints {
				buf = strconv.AppendInt(buf[:0], i, 10)
			}
		}
	})
	sinkBytes = buf
}
