package bytebuf_test

import (
	"testing"
	"time"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
)

// The writer itself is tested against time.Format in internal/rfc3339;
// these check that bytebuf's functions and methods hand it their times.

func TestAppendRFC3339(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC),
		time.Date(2006, 1, 2, 15, 4, 5, 120000000, time.FixedZone("", -(9*3600+30*60))),
		time.Date(-10000, 6, 15, 12, 0, 0, 5000, time.FixedZone("", 100*3600+7*60)),
	} {
		for _, layout := range []string{time.RFC3339, time.RFC3339Nano} {
			nanos := layout == time.RFC3339Nano
			if got, want := string(bytebuf.AppendRFC3339([]byte("x"), tm, nanos)), "x"+tm.Format(layout); got != want {
				t.Errorf("AppendRFC3339(%v, %v) = %q, want %q", tm, nanos, got, want)
			}
			var b bytebuf.Buffer
			if nanos {
				b.AppendTimeNano(tm)
			} else {
				b.AppendTime(tm)
			}
			if got, want := string(b.B), tm.Format(layout); got != want {
				t.Errorf("Buffer.AppendTime, nanos %v: %q, want %q", nanos, got, want)
			}
		}
	}
}

func TestAppendRFC3339Allocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	tm := time.Date(2026, 11, 21, 23, 24, 27, 123456789, time.FixedZone("", -(9*3600+30*60)))
	pooltest.WantAllocs(t, 0, func() { // AppendRFC3339
		buf = bytebuf.AppendRFC3339(buf[:0], tm, true)
		buf = bytebuf.AppendRFC3339(buf[:0], tm, false)
	})
	var b bytebuf.Buffer
	b.B = make([]byte, 0, 128)
	pooltest.WantAllocs(t, 0, func() { // Buffer.AppendTime
		b.Reset()
		b.AppendTime(tm)
		b.AppendTimeNano(tm.UTC())
	})
}
