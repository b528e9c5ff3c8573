package sqlbaseline

import (
	"database/sql/driver"
	"strings"
	"testing"
	"time"
)

// TestSameQuery checks that both baselines write InterpolateWant, the
// query go-sql-driver/mysql's TestInterpolateParams family expects for
// these arguments, and that AppendSeed appends after what buf holds.
func TestSameQuery(t *testing.T) {
	if s, err := InterpolateNaive(InterpolateQuery, InterpolateArgs); err != nil || s != InterpolateWant {
		t.Errorf("InterpolateNaive = %q, %v\nwant %q", s, err, InterpolateWant)
	}
	for range 2 { // the second call reuses the buffer
		if s, err := InterpolateSeed(InterpolateQuery, InterpolateArgs); err != nil || s != InterpolateWant {
			t.Errorf("InterpolateSeed = %q, %v\nwant %q", s, err, InterpolateWant)
		}
	}
	b, err := AppendSeed([]byte("-- q\n"), InterpolateQuery, InterpolateArgs)
	if err != nil || string(b) != "-- q\n"+InterpolateWant {
		t.Errorf("AppendSeed = %q, %v", b, err)
	}
}

// TestBaselinesAgree checks that the two baselines write the same query
// for arguments of every type they take (the naive one truncates a time to
// the microsecond and the article's rounds it, so the times here are whole
// microseconds).
func TestBaselinesAgree(t *testing.T) {
	for _, tc := range []struct {
		query string
		args  []driver.Value
	}{
		{"SELECT ?", []driver.Value{nil}},
		{"SELECT ?, ?", []driver.Value{true, int64(-1)}},
		{"SELECT ?", []driver.Value{time.Time{}}},
		{"SELECT ?", []driver.Value{time.Date(2024, 2, 29, 23, 59, 59, 123456000, time.UTC)}},
		{"? ?", []driver.Value{"a\nb\r\x1a\\", []byte{}}},
	} {
		naive, err1 := InterpolateNaive(tc.query, tc.args)
		seed, err2 := InterpolateSeed(tc.query, tc.args)
		if err1 != nil || err2 != nil || naive != seed {
			t.Errorf("%q %v: naive %q (%v), seed %q (%v)", tc.query, tc.args, naive, err1, seed, err2)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, f := range []func(string, []driver.Value) (string, error){InterpolateNaive, InterpolateSeed} {
		if _, err := f("SELECT ?, ?", []driver.Value{int64(1)}); err == nil || !strings.Contains(err.Error(), "placeholder count") {
			t.Errorf("one argument for two placeholders: %v", err)
		}
		if _, err := f("SELECT ?", []driver.Value{uint8(1)}); err == nil || !strings.Contains(err.Error(), "unsupported type uint8") {
			t.Errorf("a uint8 argument: %v", err)
		}
	}
}
