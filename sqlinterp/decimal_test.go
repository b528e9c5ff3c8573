package sqlinterp

import (
	"database/sql/driver"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// The integer literals against strconv, the independent oracle, through
// Append, AppendArgs and a parsed query, with dst of every spare capacity
// around the literals' length. internal/digits, which writes them, has
// its own tests.

func checkDecimal(t *testing.T, v int64, u uint64) {
	t.Helper()
	want := "(" + strconv.FormatInt(v, 10) + "," + strconv.FormatUint(u, 10) + ")"
	var args Args
	args.AddInt64(v)
	args.AddUint64(u)
	for spare := len(want) - 22; spare <= len(want)+1; spare++ {
		dst := make([]byte, 1, 1+max(spare, 0))
		dst[0] = 'x'
		got, err := AppendArgs(dst, "(?,?)", &args, Options{})
		pgot, perr := decimalQuery.AppendArgs(dst, &args, Options{MaxSize: len(want)})
		bgot, berr := Append(dst, "(?,?)", []driver.Value{v, u}, Options{})
		if err != nil || perr != nil || berr != nil || string(got) != "x"+want || string(pgot) != "x"+want || string(bgot) != "x"+want {
			t.Fatalf("(%d, %d) with %d spare bytes: AppendArgs = %q, %v; Query.AppendArgs = %q, %v; Append = %q, %v; want %q",
				v, u, spare, got, err, pgot, perr, bgot, berr, "x"+want)
		}
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
