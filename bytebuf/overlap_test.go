package bytebuf_test

import (
	"bytes"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/poolkit/poolkit/bytebuf"
)

// TestBufferInputAliasesContent feeds each Buffer method that takes bytes
// or a string its own content (b.Bytes(), or a string that shares its
// memory), both when the appended bytes fit in the spare capacity and when
// the buffer must grow, and compares with the same call on a copy: the
// documented rule is that an input may alias the buffer's content.
func TestBufferInputAliasesContent(t *testing.T) {
	const text = "héllo \"wörld\"\x00\xff"
	alias := func(b *bytebuf.Buffer) string { return unsafe.String(unsafe.SliceData(b.B), len(b.B)) }
	tests := []struct {
		name string
		call func(b *bytebuf.Buffer, in []byte, s string)
		want func(in string) string
	}{
		{"Write", func(b *bytebuf.Buffer, in []byte, _ string) { b.Write(in) }, func(in string) string { return in + in }},
		{"WriteString", func(b *bytebuf.Buffer, _ []byte, s string) { b.WriteString(s) }, func(in string) string { return in + in }},
		{"AppendQuote", func(b *bytebuf.Buffer, _ []byte, s string) { b.AppendQuote(s) }, func(in string) string { return in + strconv.Quote(in) }},
		{"ReadFrom", func(b *bytebuf.Buffer, in []byte, _ string) { b.ReadFrom(bytes.NewReader(in)) }, func(in string) string { return in + in }},
	}
	for _, tt := range tests {
		for _, spare := range []int{0, 1000} {
			t.Run(tt.name+"/spare="+strconv.Itoa(spare), func(t *testing.T) {
				var b bytebuf.Buffer
				b.B = append(make([]byte, 0, len(text)+spare), text...)
				tt.call(&b, b.Bytes(), alias(&b))
				if got, want := b.String(), tt.want(text); got != want {
					t.Fatalf("%s of the buffer's own content gave %q, want %q", tt.name, got, want)
				}
			})
		}
	}
}

// TestAppendRFC3339IntoOwnContent appends a time to a dst whose content is
// an earlier result: there is no input to overlap, and what dst holds stays.
func TestAppendRFC3339IntoOwnContent(t *testing.T) {
	tm := bytebuf.AppendRFC3339(nil, unixTime(1e9), true)
	got := bytebuf.AppendRFC3339(tm, unixTime(2e9), false)
	want := unixTime(1e9).Format("2006-01-02T15:04:05.999999999Z07:00") + unixTime(2e9).Format("2006-01-02T15:04:05Z07:00")
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func unixTime(sec int64) time.Time { return time.Unix(sec, 123456789).UTC() }
