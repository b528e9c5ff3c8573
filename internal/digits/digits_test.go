package digits

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/race"
)

func TestPairs(t *testing.T) {
	if len(Pairs) != 200 {
		t.Fatalf("len(Pairs) = %d, want 200", len(Pairs))
	}
	for n := range 100 {
		want := strconv.Itoa(n)
		if n < 10 {
			want = "0" + want
		}
		if got := Pairs[2*n : 2*n+2]; got != want {
			t.Errorf("Pairs for %d = %q, want %q", n, got, want)
		}
		if got := string(pairs[n][:]); got != want {
			t.Errorf("pairs[%d] = %q, want %q", n, got, want)
		}
	}
}

// edges returns the integers where the digit count changes or where an
// integer kind ends: every power of ten and of two with their neighbours,
// and some random values.
func edges() []uint64 {
	var us []uint64
	for p := uint64(1); ; p *= 10 {
		us = append(us, p-1, p, p+1)
		if p > math.MaxUint64/10 {
			break
		}
	}
	for b := range 64 {
		p := uint64(1) << b
		us = append(us, p-1, p, p+1)
	}
	us = append(us, 0, math.MaxUint64, math.MaxUint64-1, math.MaxInt64, math.MaxInt64+1,
		math.MaxUint32, math.MaxUint32+1)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		us = append(us, r.Uint64()>>r.UintN(64))
	}
	return us
}

func TestLen(t *testing.T) {
	for _, u := range edges() {
		if got, want := Len(u), len(strconv.FormatUint(u, 10)); got != want {
			t.Errorf("Len(%d) = %d, want %d", u, got, want)
		}
	}
}

// appendChecked runs fn on a dst holding "x" and each spare capacity from
// 0 to 24 bytes, under pooltest.WithinLength (a canary past the returned
// length), and fails unless every result is "x"+want. It returns whether
// fn reported success (ok) for every room.
func appendChecked(t *testing.T, name, want string, fn func(dst []byte) ([]byte, bool)) bool {
	t.Helper()
	all := true
	for room := 0; room <= 24; room++ {
		var ok bool
		got, _ := pooltest.WithinLength(t, name, []byte("x"), room, func(dst []byte) ([]byte, error) {
			out, took := fn(dst)
			ok = took
			return out, nil
		})
		if !ok {
			all = false
			if string(got) != "x" {
				t.Fatalf("%s refused but wrote %q", name, got)
			}
			continue
		}
		if string(got) != "x"+want {
			t.Fatalf("%s with %d bytes of room = %q, want %q", name, room, got, "x"+want)
		}
	}
	return all
}

func TestAppendUint(t *testing.T) {
	for _, u := range edges() {
		appendChecked(t, fmt.Sprintf("AppendUint(%d)", u), strconv.FormatUint(u, 10),
			func(dst []byte) ([]byte, bool) { return AppendUint(dst, u), true })
	}
}

func TestAppendInt(t *testing.T) {
	for _, u := range edges() {
		for _, i := range []int64{int64(u), -int64(u)} {
			appendChecked(t, fmt.Sprintf("AppendInt(%d)", i), strconv.FormatInt(i, 10),
				func(dst []byte) ([]byte, bool) { return AppendInt(dst, i), true })
		}
	}
}

func TestAppendPadded(t *testing.T) {
	for _, u := range edges() {
		for width := range 24 {
			checkPadded(t, u, width)
		}
	}
}

// checkPadded checks AppendPadded(u, width) against strconv, zero-padded.
func checkPadded(t *testing.T, u uint64, width int) {
	t.Helper()
	s := strconv.FormatUint(u, 10)
	appendChecked(t, fmt.Sprintf("AppendPadded(%d, %d)", u, width), strings.Repeat("0", max(width-len(s), 0))+s,
		func(dst []byte) ([]byte, bool) { return AppendPadded(dst, u, width), true })
}

// TestPut checks Put against strconv, zero-padded to every length from
// u's own to 21, into a slice whose capacity is its length and into one
// with room past it, between canaries that must be left alone.
func TestPut(t *testing.T) {
	for _, u := range edges() {
		s := strconv.FormatUint(u, 10)
		for n := len(s); n <= 21; n++ {
			want := "#" + strings.Repeat("0", n-len(s)) + s + "#"
			b := []byte(strings.Repeat("#", n+2))
			Put(b[1:n+1:n+1], u)
			if string(b) != want {
				t.Errorf("Put(%d bytes, %d) wrote %q, want %q", n, u, b, want)
			}
			b = []byte(strings.Repeat("#", n+2))
			Put(b[1:n+1], u)
			if string(b) != want {
				t.Errorf("Put(%d bytes with room, %d) wrote %q, want %q", n, u, b, want)
			}
		}
	}
}

// shortFloats returns decimals with few digits, which AppendShortFloat
// takes, and floats near them and near its limits, which it may refuse.
func shortFloats() []float64 {
	fs := []float64{0, 1, 0.5, 0.25, 3.1, 1234.5678, 0.1 + 0.2, 1e-6, 1e-7, 9.99e-7,
		1e-4, 0.0001, 99999.99, 999999.9999999999, 1e6, 1e15, 1e15 - 1, 999999999999999.9,
		123456789012345, 0.123456789012, 0.1234567890123, 5e-324, math.MaxFloat64,
		math.SmallestNonzeroFloat64, math.Inf(1), math.NaN(), 2.5, 0.125, 1.005, 2.675, 1e14 + 0.5}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		k := r.IntN(14)
		n := r.Int64N(1 << r.IntN(52))
		f := float64(n) / math.Pow(10, float64(k))
		fs = append(fs, f, math.Nextafter(f, 0), math.Nextafter(f, 2*f+1), math.Float64frombits(r.Uint64()))
	}
	return fs
}

func TestAppendShortFloat(t *testing.T) {
	took := 0
	for _, f := range shortFloats() {
		for _, f := range []float64{f, -f} {
			want := strconv.FormatFloat(f, 'f', -1, 64)
			if !appendChecked(t, fmt.Sprintf("AppendShortFloat(%v)", f), want,
				func(dst []byte) ([]byte, bool) { return AppendShortFloat(dst, f, MaxPlaces) }) {
				continue
			}
			took++
			if a := math.Abs(f); a >= 1e-4 && a < 1e6 {
				if g := strconv.FormatFloat(f, 'g', -1, 64); g != want {
					t.Errorf("AppendShortFloat(%v) = %q, want 'g' form %q", f, want, g)
				}
			}
		}
	}
	if took < 20000 {
		t.Errorf("AppendShortFloat took only %d floats", took)
	}
	for places := range MaxPlaces + 1 {
		f := 1 + 1/math.Pow(10, float64(places)) // 1.1, 1.01, …: places fractional digits
		if _, ok := AppendShortFloat(nil, f, places); !ok {
			t.Errorf("AppendShortFloat(%v, %d) refused it", f, places)
		}
		if _, ok := AppendShortFloat(nil, f, places-1); ok && places > 0 {
			t.Errorf("AppendShortFloat(%v, %d) took it, with more places than allowed", f, places-1)
		}
	}
	for _, f := range []float64{1, 0.25, 1234.5678, 123456789012345, 0.000001} {
		if _, ok := AppendShortFloat(nil, f, MaxPlaces); !ok {
			t.Errorf("AppendShortFloat(%v) refused a short decimal", f)
		}
	}
}

func FuzzAppendShortFloat(f *testing.F) {
	for _, v := range shortFloats()[:40] {
		f.Add(v, uint8(MaxPlaces))
	}
	f.Fuzz(func(t *testing.T, v float64, places uint8) {
		appendChecked(t, fmt.Sprintf("AppendShortFloat(%v, %d)", v, places%16), strconv.FormatFloat(v, 'f', -1, 64),
			func(dst []byte) ([]byte, bool) { return AppendShortFloat(dst, v, int(places%16)) })
	})
}

func TestAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	buf := make([]byte, 0, 64)
	n := testing.AllocsPerRun(100, func() {
		b := AppendInt(buf, math.MinInt64)
		b = AppendPadded(b, 7, 9)
		b, _ = AppendShortFloat(b, -1234.5678, 4)
		Put(b[:4], 2026)
	})
	if n != 0 {
		t.Errorf("writers with room allocated %v times, want 0", n)
	}
}

func FuzzAppendInt(f *testing.F) {
	f.Add(int64(0), uint64(0), uint8(0))
	f.Add(int64(math.MinInt64), uint64(math.MaxUint64), uint8(21))
	f.Fuzz(func(t *testing.T, i int64, u uint64, width uint8) {
		appendChecked(t, fmt.Sprintf("AppendInt(%d)", i), strconv.FormatInt(i, 10),
			func(dst []byte) ([]byte, bool) { return AppendInt(dst, i), true })
		appendChecked(t, fmt.Sprintf("AppendUint(%d)", u), strconv.FormatUint(u, 10),
			func(dst []byte) ([]byte, bool) { return AppendUint(dst, u), true })
		checkPadded(t, u, int(width%24))
	})
}
