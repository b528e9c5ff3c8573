package jsonpool

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestEncAppendInt holds the in-place integer writer to strconv and to
// json.Marshal: 0, ±1, every power of ten and its neighbours, the
// extremes of every integer kind, every number below 100 000 and random
// values of every length. It also appends after existing bytes, with and
// without spare capacity, so that growing b is covered.
func TestEncAppendInt(t *testing.T) {
	var us []uint64
	var is []int64
	for i := uint64(0); i < 100000; i++ {
		us = append(us, i)
	}
	for _, p := range encPow10U64[:20] {
		us = append(us, p-1, p, p+1, 2*p-1, 5*p, 9*p, 9*p+9*(p/10), p-p/10)
	}
	us = append(us, math.MaxUint64, math.MaxUint64-1, math.MaxUint32, math.MaxUint32+1,
		math.MaxUint16, math.MaxUint8, math.MaxInt64, math.MaxInt64+1, 1<<63-1, 1<<53, 1<<53+1)
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 200000; i++ {
		us = append(us, r.Uint64()>>r.UintN(64))
	}
	for _, u := range us {
		is = append(is, int64(u), -int64(u))
	}
	is = append(is, math.MinInt64, math.MinInt64+1, math.MaxInt64, math.MinInt32, math.MaxInt32,
		math.MinInt16, math.MinInt8, -1, 1, 0)
	check := func(got []byte, prefix, want string, v any) {
		t.Helper()
		if string(got) != prefix+want {
			t.Fatalf("encAppend(%q, %v) = %q, want %q", prefix, v, got, prefix+want)
		}
	}
	tight := make([]byte, 3) // no spare capacity
	copy(tight, "ab,")
	roomy := make([]byte, 3, 64)
	copy(roomy, "ab,")
	for _, u := range us {
		want := strconv.FormatUint(u, 10)
		if m, _ := json.Marshal(u); string(m) != want {
			t.Fatalf("json.Marshal(%d) = %s, strconv %s", u, m, want)
		}
		check(encAppendUint(tight, u), "ab,", want, u)
		check(encAppendUint(roomy, u), "ab,", want, u)
		check(encAppendUint(nil, u), "", want, u)
		if n := encDecimalLen(u); n != len(want) {
			t.Fatalf("encDecimalLen(%d) = %d, want %d", u, n, len(want))
		}
	}
	for _, i := range is {
		want := strconv.FormatInt(i, 10)
		if m, _ := json.Marshal(i); string(m) != want {
			t.Fatalf("json.Marshal(%d) = %s, strconv %s", i, m, want)
		}
		check(encAppendInt(tight, i), "ab,", want, i)
		check(encAppendInt(roomy, i), "ab,", want, i)
	}
	if string(tight) != "ab," || string(roomy) != "ab," {
		t.Fatalf("the prefix changed: %q %q", tight, roomy)
	}
}

// TestEncPutDigits checks the zero-padded form the float writer uses: u
// in exactly n places, for n from 1 to 20 and u below 10^n.
func TestEncPutDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for n := 1; n <= 20; n++ {
		for j := 0; j < 2000; j++ {
			u := r.Uint64()
			if n < 20 {
				u %= encPow10U64[n]
			}
			if j < 3 {
				u = []uint64{0, 1, 7}[j]
			}
			d := make([]byte, n)
			encPutDigits(d, u)
			want := strconv.FormatUint(u, 10)
			for len(want) < n {
				want = "0" + want
			}
			if string(d) != want {
				t.Fatalf("encPutDigits(%d places, %d) = %q, want %q", n, u, d, want)
			}
		}
	}
}
