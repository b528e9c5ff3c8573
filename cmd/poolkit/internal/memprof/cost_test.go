package memprof

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof/proftest"
	"github.com/poolkit/poolkit/gzpool"
	"github.com/poolkit/poolkit/internal/pooltest"
)

// repeat returns unit repeated to about n bytes, after head.
func repeat(head, unit string, n int) []byte {
	return append([]byte(head), bytes.Repeat([]byte(unit), n/len(unit))...)
}

// varintLen is the protobuf encoding of n as a length.
func varintLen(n int) string {
	var b []byte
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return string(append(b, byte(n)))
}

// TestParseCost checks that parseCost is not below what pprof's parser
// allocates, on real profiles and on inputs shaped to cost most per byte.
func TestParseCost(t *testing.T) {
	pooltest.SkipIfRace(t)
	real, err := gzpool.AppendDecompress(nil, proftest.AllocsProfile(t, 0), -1)
	if err != nil {
		t.Fatal(err)
	}
	text := proftest.AllocsProfile(t, 1)
	const n = 1 << 20
	labels := "\x12" + varintLen(n) + strings.Repeat("\x1a\x00", n/2)
	lines := "\x22" + varintLen(n) + strings.Repeat("\x22\x00", n/2)
	ids := "\x12" + varintLen(n+1+len(varintLen(n))) + "\x0a" + varintLen(n) + strings.Repeat("\x01", n)
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"real", real},
		{"real, debug=1 text", text},
		{"empty samples", repeat("", "\x12\x00", n)},
		{"samples with a label", repeat("", "\x12\x02\x1a\x00", n)},
		{"one sample of many labels", []byte(labels)},
		{"empty locations", repeat("", "\x22\x00", n)},
		{"one location of many lines", []byte(lines)},
		{"empty functions", repeat("", "\x2a\x00", n)},
		{"empty mappings", repeat("", "\x1a\x00", n)},
		{"empty strings", repeat("", "\x32\x00", n)},
		{"empty sample types", repeat("", "\x0a\x00", n)},
		{"location IDs", []byte(ids)},
		{"comments", repeat("", "\x68\x00", n)},
		{"samples of values", repeat("", "\x12\x02\x10\x00", n)},
		{"one sample of values", []byte("\x12" + varintLen(n) + strings.Repeat("\x10\x00", n/2))},
		{"empty samples, then garbage", append(repeat("", "\x12\x00", n), 0xff, 0xff)},
		{"text heap samples", repeat("heap profile: 1: 1 [1: 1] @ heap/1\n", "1: 1 [1: 1] @ 0x1 0x2 0x3\n", n)},
		{"text heap addresses", repeat("heap profile: 1: 1 [1: 1] @ heap/1\n1: 1 [1: 1] @", " 0x1", n)},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := profile.ParseData(c.data)
		runtime.ReadMemStats(&after)
		got, est := int64(after.TotalAlloc-before.TotalAlloc), parseCost(c.data)
		t.Logf("%-30s %8d bytes: allocated %6.1fx, estimate %6.1fx (%v)", c.name, len(c.data),
			float64(got)/float64(len(c.data)), float64(est)/float64(len(c.data)), err)
		if est < got {
			t.Errorf("%s: estimate %d below the %d bytes allocated", c.name, est, got)
		}
	}
}
