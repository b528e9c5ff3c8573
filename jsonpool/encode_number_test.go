//go:build !poolkit_nounsafe

package jsonpool

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/poolkit/poolkit/internal/digits"
)

// TestAppendInt holds the integer writers to strconv and to json.Marshal:
// 0, ±1, every power of ten and its neighbours, the extremes of every
// integer kind, every number below 100 000 and random values of every
// length. It appends after existing bytes, with and without spare
// capacity, so that growing b is covered, and writes the fixed-struct
// integer in place, in exactly the room it makes.
func TestAppendInt(t *testing.T) {
	var us []uint64
	var is []int64
	for i := uint64(0); i < 100000; i++ {
		us = append(us, i)
	}
	for p, k := uint64(1), 0; k < 20; p, k = p*10, k+1 {
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
			t.Fatalf("append(%q, %v) = %q, want %q", prefix, v, got, prefix+want)
		}
	}
	tight := make([]byte, 3) // no spare capacity
	copy(tight, "ab,")
	roomy := make([]byte, 3, 64)
	copy(roomy, "ab,")
	canary := make([]byte, fixedRoom+8)
	for _, u := range us {
		want := strconv.FormatUint(u, 10)
		if m, _ := json.Marshal(u); string(m) != want {
			t.Fatalf("json.Marshal(%d) = %s, strconv %s", u, m, want)
		}
		check(digits.AppendUint(tight, u), "ab,", want, u)
		check(digits.AppendUint(roomy, u), "ab,", want, u)
		check(digits.AppendUint(nil, u), "", want, u)
	}
	for _, i := range is {
		want := strconv.FormatInt(i, 10)
		if m, _ := json.Marshal(i); string(m) != want {
			t.Fatalf("json.Marshal(%d) = %s, strconv %s", i, m, want)
		}
		check(digits.AppendInt(tight, i), "ab,", want, i)
		check(digits.AppendInt(roomy, i), "ab,", want, i)
		// The fixed-struct writer, after the longest key it writes as
		// words, in exactly the room it makes (fixedRoom) before a canary.
		for _, v := range []any{&struct {
			A int64 `json:"abcdefghijklmnopqrst"`
		}{i}, &struct {
			A int `json:"abcdefghijklmnopqrst"`
		}{int(i)}} {
			if v, ok := v.(*struct {
				A int `json:"abcdefghijklmnopqrst"`
			}); ok && int64(v.A) != i {
				continue // int is narrower than int64 here
			}
			for j := range canary {
				canary[j] = 0xAA
			}
			got, ok := appendFast(canary[:0:fixedRoom], v, true)
			if w := `{"abcdefghijklmnopqrst":` + want + `}`; !ok || string(got) != w {
				t.Fatalf("appendFast(%T{%d}) = %q, %v; want %q", v, i, got, ok, w)
			}
			for j, c := range canary[fixedRoom:] {
				if c != 0xAA {
					t.Fatalf("appendFast(%T{%d}) wrote byte %d past the room", v, i, j)
				}
			}
		}
	}
	if string(tight) != "ab," || string(roomy) != "ab," {
		t.Fatalf("the prefix changed: %q %q", tight, roomy)
	}
}
