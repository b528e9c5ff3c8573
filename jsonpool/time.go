package jsonpool

import (
	"time"

	"github.com/poolkit/poolkit/internal/rfc3339"
)

// timeJSONLen is the longest text time.Time.MarshalJSON writes for a year
// it accepts: "2006-01-02T15:04:05.999999999-07:00" with its quotes.
const timeJSONLen = len(`"2006-01-02T15:04:05.999999999-07:00"`)

// Time is a time.Time that encodes to JSON byte for byte as time.Time does,
// without the allocation time.Time's MarshalJSON makes for its result:
// encoding/json allocates whatever a MarshalJSON method returns, once per
// time field encoded, and Time formats into an array of its own instead.
//
// jsonpool's fast encode path (see Engine in the package doc) writes a
// Time, and a time.Time too, without any allocation, through a pointer or
// not. Where encoding/json encodes it (json.Marshal, or a type the fast
// path leaves to encoding/json), only a Time reached through a pointer (&v,
// or a field of a value behind a pointer) skips the allocation:
// encoding/json calls a pointer method like Time's MarshalJSON only on
// addressable values. Encoded by value, a Time falls back to time.Time's
// MarshalText, with the same bytes and the allocation.
//
// Decoding, and every other method, is time.Time's. The array makes a Time
// 40 bytes larger than a time.Time and holds the last text encoded, so
// compare Times with Equal (or their Time fields), never with == or
// reflect.DeepEqual.
type Time struct {
	time.Time
	text [timeJSONLen]byte
}

// MarshalJSON returns what t.Time.MarshalJSON returns, formatted into t's own
// array. The result is valid until t is next encoded or changed: encoding/json
// copies it at once. Years outside 0-9999 and zone offsets of a day or more,
// which time.Time refuses, return time.Time's own error.
func (t *Time) MarshalJSON() ([]byte, error) {
	b, ok := appendTimeJSON(t.text[:0], t.Time)
	if !ok {
		return t.Time.MarshalJSON()
	}
	return b, nil
}

// appendTimeJSON appends what t.MarshalJSON returns to b: t as
// time.RFC3339Nano formats it, in quotes, written by internal/rfc3339. ok
// is false, and b is to be discarded, when MarshalJSON returns an error:
// for a year outside 0-9999 or a zone offset of a day or more.
func appendTimeJSON(b []byte, t time.Time) (_ []byte, ok bool) {
	_, off := t.Zone()
	if off <= -24*60*60 || off >= 24*60*60 {
		return b, false
	}
	if s := t.Unix() + int64(off); s < minYear0 || s > maxYear9999 {
		return b, false // the year, in t's zone, is outside 0-9999
	}
	b = append(b, '"')
	b = rfc3339.Append(b, t, true)
	return append(b, '"'), true
}

// minYear0 and maxYear9999 are the first and the last second of the years
// 0 to 9999, counted as Unix time counts them from 1970-01-01T00:00:00.
const (
	minYear0    = -62167219200 // 0000-01-01T00:00:00
	maxYear9999 = 253402300799 // 9999-12-31T23:59:59
)
