package logfmt

import (
	"encoding/binary"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/internal/rfc3339"
)

// Log lines come many to a second, and the date and clock of a time to the
// second, with its zone, are the same for all the lines of that second. The
// encoder keeps the RFC 3339 text of the last second it wrote in seconds,
// and copies it for the next line of that second instead of working out the
// calendar date and the zone again. A line of another second, or another
// Location, writes its time digit by digit with rfc3339.Append and
// becomes the cached one.
var seconds timeCache

// maxCachedText is the longest text the cache holds: RFC 3339 to the
// second with a zone offset is 25 bytes for the years 0 to 9999.
const maxCachedText = 32

// timeCache is a sequence lock over atomic words: readers never block nor
// allocate, a writer that finds another writer at work skips caching, and
// every access is atomic, so the race detector has nothing to report.
type timeCache struct {
	seq  atomic.Uint64 // even when stable, odd while a writer is at work
	sec  atomic.Int64  // Unix time of the cached second
	loc  atomic.Pointer[time.Location]
	n    atomic.Uint32 // length of the text; 0 when empty
	zone atomic.Uint32 // length of its zone suffix, "Z" or "+hh:mm"
	text [maxCachedText / 8]atomic.Uint64
}

// appendSeconds appends t as rfc3339.Append(dst, t, false) does and
// returns the length of the zone suffix at the end of what it appended.
func appendSeconds(dst []byte, t time.Time) ([]byte, int) {
	sec, loc := t.Unix(), t.Location()
	if text, n, zone := seconds.load(sec, loc); n > 0 {
		return append(dst, text[:n]...), zone
	}
	start := len(dst)
	dst = rfc3339.Append(dst, t, false)
	zone := 1
	if dst[len(dst)-1] != 'Z' {
		zone = len("+07:00")
	}
	seconds.store(sec, loc, dst[start:], zone)
	return dst, zone
}

// load returns the cached text and its zone length if the cache holds the
// second sec in loc, and n == 0 if it does not.
func (c *timeCache) load(sec int64, loc *time.Location) (text [maxCachedText]byte, n, zone int) {
	s := c.seq.Load()
	if s&1 != 0 || c.sec.Load() != sec || c.loc.Load() != loc {
		return text, 0, 0
	}
	n, zone = int(c.n.Load()), int(c.zone.Load())
	for i := range c.text {
		binary.LittleEndian.PutUint64(text[i*8:], c.text[i].Load())
	}
	if c.seq.Load() != s {
		return text, 0, 0 // a writer changed it while we read
	}
	return text, n, zone
}

// store caches text, the RFC 3339 form of the second sec in loc.
func (c *timeCache) store(sec int64, loc *time.Location, text []byte, zone int) {
	if len(text) > maxCachedText {
		return
	}
	s := c.seq.Load()
	if s&1 != 0 || !c.seq.CompareAndSwap(s, s+1) {
		return // another writer is at work; the next line can cache
	}
	var buf [maxCachedText]byte
	copy(buf[:], text)
	c.sec.Store(sec)
	c.loc.Store(loc)
	c.n.Store(uint32(len(text)))
	c.zone.Store(uint32(zone))
	for i := range c.text {
		c.text[i].Store(binary.LittleEndian.Uint64(buf[i*8:]))
	}
	c.seq.Store(s + 2)
}
