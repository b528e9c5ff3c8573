//go:build !poolkit_nounsafe

package jsonpool

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestFixedStructInt holds the fixed-struct writer's integers, written
// in place by digits.Len and digits.PutAt, to json.Marshal: 0, ±1, every
// power of ten and its neighbours, the extremes of every integer kind,
// every number below 100 000 and random values of every length, after
// the longest key it writes as words, in exactly the room it makes, with
// a canary past it. (internal/digits holds its writers to strconv.)
func TestFixedStructInt(t *testing.T) {
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
	canary := make([]byte, fixedRoom+8)
	for _, i := range is {
		want := strconv.FormatInt(i, 10)
		if m, _ := json.Marshal(i); string(m) != want {
			t.Fatalf("json.Marshal(%d) = %s, strconv %s", i, m, want)
		}
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
}
