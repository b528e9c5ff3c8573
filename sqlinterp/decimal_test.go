package sqlinterp

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// appendDecimal and appendDigits against strconv, the independent oracle,
// with dst of every spare capacity around the number's length (below it
// strconv does the job), and through AppendArgs and a parsed query.

func checkDecimal(t *testing.T, v int64, u uint64) {
	t.Helper()
	wantV := strconv.AppendInt([]byte("x"), v, 10)
	wantU := strconv.AppendUint([]byte("x"), u, 10)
	for spare := range 22 {
		dst := make([]byte, 1, 1+spare)
		dst[0] = 'x'
		if got := appendDecimal(dst, v); string(got) != string(wantV) {
			t.Fatalf("appendDecimal(%d) with %d spare bytes = %q, want %q", v, spare, got, wantV)
		}
		if got := appendDigits(dst, u); string(got) != string(wantU) {
			t.Fatalf("appendDigits(%d) with %d spare bytes = %q, want %q", u, spare, got, wantU)
		}
	}
	if n := decimalLen(u); n != len(wantU)-1 {
		t.Fatalf("decimalLen(%d) = %d, want %d", u, n, len(wantU)-1)
	}
	var args Args
	args.AddInt64(v)
	args.AddUint64(u)
	want := "(" + string(wantV[1:]) + "," + string(wantU[1:]) + ")"
	got, err := AppendArgs(nil, "(?,?)", &args, Options{})
	pgot, perr := decimalQuery.AppendArgs(nil, &args, Options{MaxSize: len(want)})
	if err != nil || perr != nil || string(got) != want || string(pgot) != want {
		t.Fatalf("AppendArgs(%d, %d) = %q, %v; Query.AppendArgs = %q, %v; want %q", v, u, got, err, pgot, perr, want)
	}
}

var decimalQuery = MustParse("(?,?)")

// TestAppendDecimal checks 0, both ends of both types, every power of ten
// and its neighbours, and random numbers of every length.
func TestAppendDecimal(t *testing.T) {
	checkDecimal(t, 0, 0)
	checkDecimal(t, math.MinInt64, math.MaxUint64)
	checkDecimal(t, math.MaxInt64, 1<<63)
	for p := uint64(1); ; p *= 10 {
		for _, u := range []uint64{p - 1, p, p + 1, 2*p - 1, 9 * p, 10*p - 1} {
			checkDecimal(t, int64(u), u)
			checkDecimal(t, -int64(u), u)
		}
		if p > math.MaxUint64/10 {
			break
		}
	}
	for k := range 64 {
		checkDecimal(t, 1<<k, 1<<k)
		checkDecimal(t, -1<<k, 1<<k-1)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		shift := r.IntN(64)
		checkDecimal(t, r.Int64()>>shift, r.Uint64()>>shift)
	}
}

// FuzzDecimal checks the integer writers against strconv for any int64 and
// uint64.
func FuzzDecimal(f *testing.F) {
	f.Add(int64(0), uint64(0))
	f.Add(int64(-1), uint64(99))
	f.Add(int64(math.MinInt64), uint64(math.MaxUint64))
	f.Fuzz(func(t *testing.T, v int64, u uint64) {
		checkDecimal(t, v, u)
	})
}
