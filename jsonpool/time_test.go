package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/jsonpool"
)

// TestTimeEncodesAsTimeDoes holds jsonpool.Time to time.Time's own encoding,
// the oracle, over random instants in random zones, years 0-9999 and beyond,
// through a pointer (the allocation-free path) and by value (the fallback).
func TestTimeEncodesAsTimeDoes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type withStd struct {
		A time.Time `json:"a"`
	}
	type withKit struct {
		A jsonpool.Time `json:"a"`
	}
	for i := 0; i < 20000; i++ {
		var tm time.Time
		switch i % 4 {
		case 0: // any instant, any offset up to ±30 hours
			off := r.IntN(2*30*3600+1) - 30*3600
			tm = time.Unix(r.Int64N(1<<40)-1<<39, r.Int64N(1e9)).In(time.FixedZone("z", off))
		case 1: // whole seconds and round fractions, where trailing zeros go
			tm = time.Unix(r.Int64N(4e9), int64(r.IntN(1000))*1e6).UTC()
		case 2:
			tm = time.Date(r.IntN(10000), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1e9), time.Local)
		default: // years time.Time refuses
			tm = time.Date(10000+r.IntN(5), 1, 1, 0, 0, 0, 0, time.UTC)
			if r.IntN(2) == 0 {
				tm = time.Date(-1-r.IntN(5), 1, 1, 0, 0, 0, 0, time.UTC)
			}
		}
		want, wantErr := json.Marshal(&withStd{tm})
		for _, byPointer := range []bool{true, false} {
			var got []byte
			var err error
			if byPointer {
				got, err = jsonpool.Marshal(nil, &withKit{jsonpool.Time{Time: tm}})
			} else {
				got, err = json.Marshal(withKit{jsonpool.Time{Time: tm}})
			}
			if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
				t.Fatalf("%v (pointer %v): got %s, %v; time.Time gives %s, %v", tm, byPointer, got, err, want, wantErr)
			}
		}
	}
}

func TestTimeDecodesAsTimeDoes(t *testing.T) {
	var got struct {
		A jsonpool.Time `json:"a"`
	}
	if err := json.Unmarshal([]byte(`{"a":"2026-11-22T21:10:05.5+01:00"}`), &got); err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 11, 22, 20, 10, 5, 5e8, time.UTC)
	if !got.A.Equal(want) {
		t.Errorf("decoded %v, want %v", got.A.Time, want)
	}
}

// TestTimeAllocs: a struct with two Times encodes through a pointer with no
// allocation, where two time.Time fields cost one each.
func TestTimeAllocs(t *testing.T) {
	type receipt struct {
		ID     int64         `json:"id"`
		Placed jsonpool.Time `json:"placed"`
		Due    jsonpool.Time `json:"due"`
	}
	now := time.Date(2026, 11, 22, 21, 10, 5, 123456789, time.FixedZone("CET", 3600))
	v := &receipt{ID: 7, Placed: jsonpool.Time{Time: now}, Due: jsonpool.Time{Time: now.Add(48 * time.Hour)}}
	buf := make([]byte, 0, 256)
	var err error
	pooltest.WantAllocs(t, 0, func() {
		if buf, err = jsonpool.AppendEncode(buf[:0], v); err != nil {
			t.Fatal(err)
		}
	})
	if want, _ := json.Marshal(struct {
		ID     int64     `json:"id"`
		Placed time.Time `json:"placed"`
		Due    time.Time `json:"due"`
	}{7, now, now.Add(48 * time.Hour)}); !bytes.Equal(buf, append(want, '\n')) {
		t.Errorf("encoded %s, want %s", buf, want)
	}
}
