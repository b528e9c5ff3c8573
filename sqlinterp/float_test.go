package sqlinterp

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// appendFloat against strconv, the independent oracle: the literal of
// every float64 must be strconv's 'g' form, whether the short-decimal
// writer takes it or not.

func checkFloat(t *testing.T, v float64) {
	t.Helper()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	got, err := appendFloat([]byte("x"), 1, v, 0, &Options{})
	if want := strconv.AppendFloat([]byte("x"), v, 'g', -1, 64); err != nil || string(got) != string(want) {
		t.Fatalf("appendFloat(%v, bits %#x) = %q, %v; want %q", v, math.Float64bits(v), got, err, want)
	}
}

var floatQuery = MustParse("?")

// checkFloatArgs is checkFloat through AppendArgs and Query.AppendArgs.
func checkFloatArgs(t *testing.T, v float64) {
	t.Helper()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	var args Args
	args.AddFloat64(v)
	want := strconv.AppendFloat([]byte("x"), v, 'g', -1, 64)
	got, err := AppendArgs([]byte("x"), "?", &args, Options{})
	pgot, perr := floatQuery.AppendArgs([]byte("x"), &args, Options{})
	if err != nil || perr != nil || string(got) != string(want) || string(pgot) != string(want) {
		t.Fatalf("float %v (bits %#x): AppendArgs = %q, %v; Query.AppendArgs = %q, %v; want %q", v, math.Float64bits(v), got, err, pgot, perr, want)
	}
}

// TestFormatShortDecimal checks the short decimals that formatFloat
// writes without strconv's search, and their neighbours: decimals of 0 to
// 6 fractional digits, the floats next to them, near 0, 1e-4 and 1e6,
// where the 'g' form gains an exponent.
func TestFormatShortDecimal(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables: the constant 0.1+0.2 is exactly 0.3
	pow := []float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6}
	check := func(v float64) {
		for _, x := range []float64{v, -v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1))} {
			checkFloat(t, x)
			checkFloat(t, -x)
		}
	}
	for _, p := range pow {
		for m := 0; m <= 20000; m++ {
			check(float64(m) / p)
		}
		for m := 999000; m <= 1001000; m++ {
			check(float64(m) / p)
		}
		check(999999.5 / p * 10)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		k := r.IntN(len(pow))
		check(float64(r.Int64N(1e10)) / pow[k])
		check(float64(r.Int64N(1e6)) / pow[k])
		check(float64(r.IntN(1000)) * 0.001 * float64(r.IntN(5)))
		check(math.Float64frombits(r.Uint64()))
	}
	for _, v := range []float64{0, 1e-4, 0.5e-4, 1e-5, 1e6, 1e6 - 1e-4, 999999.99995, 1e21, 1e20, 123456.7, tenth + fifth,
		math.SmallestNonzeroFloat64, math.MaxFloat64, 1 << 53, 1<<53 + 1, 4503599627370495.5} {
		check(v)
	}
	checkFloat(t, math.Copysign(0, -1))
}

// FuzzFloat checks appendFloat, fast path or not, against strconv for any
// float64 bits, and for decimals m/10^k.
func FuzzFloat(f *testing.F) {
	f.Add(math.Float64bits(6.531), int64(6531), uint8(3))
	f.Add(math.Float64bits(-0.0001), int64(-1), uint8(4))
	f.Fuzz(func(t *testing.T, bits uint64, m int64, k uint8) {
		for _, v := range []float64{math.Float64frombits(bits), float64(m) / math.Pow10(int(k%8))} {
			checkFloat(t, v)
			checkFloatArgs(t, v)
		}
	})
}

// TestNearFourPlaces checks that formatFloat's quick test lets through
// every float that is the nearest to a decimal of at most 4 places below
// 1e6, and the floats next to them, which AppendShortFloat may write:
// the ends of the range and random decimals of each length.
func TestNearFourPlaces(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pow := []float64{1, 10, 100, 1e3, 1e4}
	check := func(m int64, k int) {
		v := float64(m) / pow[k]
		for _, x := range []float64{v, math.Nextafter(v, 0), math.Nextafter(v, 1e6)} {
			if x < 1e6 && !nearFourPlaces(x) {
				t.Fatalf("nearFourPlaces(%v) = false; it is %d/1e%d or next to it", x, m, k)
			}
		}
	}
	for k := range pow {
		for _, m := range []int64{0, 1, 999999 * int64(pow[k]), 1e6*int64(pow[k]) - 1} {
			check(m, k)
		}
		for range 200000 {
			check(r.Int64N(1e6*int64(pow[k])), k)
		}
	}
	if nearFourPlaces(math.Pi) {
		t.Error("nearFourPlaces(math.Pi) = true; want false, so that it goes to strconv at once")
	}
}
