package rfc3339_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // real zones, with DST and historical offsets in seconds

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/rfc3339"
)

// zones covers UTC, positive and negative offsets, offsets with seconds
// (which RFC 3339 output truncates to minutes) and offsets beyond 99 hours,
// which time.Format writes with three digits.
var zones = []*time.Location{
	time.UTC,
	time.FixedZone("Z0", 0),
	time.FixedZone("CET", 3600),
	time.FixedZone("IST", 5*3600+30*60),
	time.FixedZone("NST", -(3*3600 + 30*60)),
	time.FixedZone("LMT", -(4*3600 + 56*60 + 2)),
	time.FixedZone("LMT2", 53*60+28),
	time.FixedZone("SEC+", 30),
	time.FixedZone("SEC-", -59),
	time.FixedZone("MIN-", -60),
	time.FixedZone("MAX", 14*3600),
	time.FixedZone("MIN", -12*3600),
	time.FixedZone("HUGE+", 100*3600+7*60),
	time.FixedZone("HUGE-", -(123*3600 + 45*60 + 6)),
}

func init() {
	// Amsterdam kept +00:19:32 until 1937, Dublin has negative DST,
	// Lord Howe a 30-minute DST, Kathmandu +05:45.
	for _, name := range []string{"America/New_York", "Europe/Amsterdam", "Europe/Dublin",
		"Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Kiritimati", "America/St_Johns"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			panic(err) // time/tzdata is embedded, so this cannot fail
		}
		zones = append(zones, loc)
	}
}

func checkTime(t *testing.T, tm time.Time) {
	t.Helper()
	for _, nanos := range []bool{false, true} {
		layout := time.RFC3339
		if nanos {
			layout = time.RFC3339Nano
		}
		want := tm.Format(layout)
		got := string(rfc3339.Append([]byte("x"), tm, nanos))
		// With room to spare, it writes nothing past what it returns.
		dst := []byte(strings.Repeat("#", 80))[:1]
		dst[0] = 'x'
		out := rfc3339.Append(dst, tm, nanos)
		if len(out) <= 80 && strings.Trim(string(out[len(out):80]), "#") != "" {
			t.Fatalf("Append(%d.%09d in %s, nanos=%v) wrote past its result: %q",
				tm.Unix(), tm.Nanosecond(), tm.Location(), nanos, out[:80])
		}
		if got != "x"+want || string(out) != got {
			t.Fatalf("Append(%d.%09d in %s, nanos=%v) = %q, want %q",
				tm.Unix(), tm.Nanosecond(), tm.Location(), nanos, got[1:], want)
		}
	}
}

func TestAppendTable(t *testing.T) {
	tests := []time.Time{
		time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC),
		time.Date(2006, 1, 2, 15, 4, 5, 999999999, time.FixedZone("", -7*3600)),
		time.Date(2024, 2, 29, 23, 59, 59, 100, time.UTC),
		time.Date(2000, 2, 29, 0, 0, 0, 1, time.UTC),
		time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), // the zero Time
		{},
		time.Date(0, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-9999, 6, 15, 12, 0, 0, 5000, time.UTC),
		time.Date(-10000, 6, 15, 12, 0, 0, 5000, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.FixedZone("", -1)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		// time.Date(292277026596, 12, 4, 15, 30, 7, 0, time.UTC) and
		// time.Date(-292277022657, 1, 27, 8, 29, 52, 0, time.UTC), written
		// through time.Unix: those years overflow int on 32-bit ports.
		time.Unix(math.MaxInt64, 0).UTC(),
		time.Unix(math.MinInt64+10368, 0).UTC(),
		time.Unix(1<<40, 123456000),
		time.Unix(-1<<40, 120),
		time.Unix(math.MaxInt64, 999999999),
		time.Unix(math.MinInt64, 0),
		time.Unix(math.MinInt64+1, 1),
	}
	for _, tm := range tests {
		for _, z := range zones {
			checkTime(t, tm.In(z))
		}
	}
}

// TestAppendRandom compares with time.Format over random instants
// in several ranges: around now, years 0-9999, and far beyond in both
// directions, in every test zone.
func TestAppendRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3339, 1))
	ranges := []struct {
		name     string
		min, max int64 // Unix seconds
	}{
		{"recent", 0, 4102444800},                    // 1970-2100
		{"years 0-9999", -62167219200, 253402300799}, // 0000-9999
		{"years below 1000", -62167219200 - 1e13, -30610224000},
		{"years above 9999", 253402300800, 253402300800 + 1e14},
		{"far", math.MinInt64 / 4, math.MaxInt64 / 4},
		{"any int64", math.MinInt64, math.MaxInt64}, // the time package's calendar wraps
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, r := range ranges {
		t.Run(r.name, func(t *testing.T) {
			for range n {
				sec := int64(rng.Uint64())
				if r.min != math.MinInt64 {
					sec = r.min + rng.Int64N(r.max-r.min)
				}
				ns := int64(0)
				switch rng.IntN(4) {
				case 1:
					ns = rng.Int64N(1e9)
				case 2:
					ns = rng.Int64N(1000) * 1e6 // milliseconds: trailing zeros
				case 3:
					ns = rng.Int64N(1e6) * 1e3
				}
				checkTime(t, time.Unix(sec, ns).In(zones[rng.IntN(len(zones))]))
			}
		})
	}
}

func TestAppendAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	tm := time.Date(2026, 11, 21, 23, 24, 27, 123456789, time.FixedZone("", -(9*3600+30*60)))
	pooltest.WantAllocs(t, 0, func() {
		buf = rfc3339.Append(buf[:0], tm, true)
		buf = rfc3339.Append(buf[:0], tm, false)
	})
}

// TestAppendRandomZones compares with time.Format over random
// instants in zones of random offset: within a day, within 1,000 hours
// either way (offsets of 100 hours or more are written with three or more
// digits) and anywhere in the int32 range, which time.FixedZone accepts.
func TestAppendRandomZones(t *testing.T) {
	rng := rand.New(rand.NewPCG(3339, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := range n {
		var offset int
		switch i % 3 {
		case 0:
			offset = rng.IntN(2*86400+1) - 86400
		case 1:
			offset = rng.IntN(2000*3600+1) - 1000*3600
		default:
			offset = int(int32(rng.Uint32()))
		}
		sec := -62167219200 + rng.Int64N(253402300799+62167219200) // years 0-9999
		if i%10 == 0 {
			sec = int64(rng.Uint64()) // any instant, where the calendar wraps
		}
		ns := int64(0)
		if rng.IntN(2) == 1 {
			ns = rng.Int64N(1e9)
		}
		checkTime(t, time.Unix(sec, ns).In(time.FixedZone("R", offset)))
	}
}
