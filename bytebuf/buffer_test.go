package bytebuf_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
)

func TestBufferWrites(t *testing.T) {
	tests := []struct {
		name  string
		write func(b *bytebuf.Buffer) (int, error)
		wantN int
		want  string
	}{
		{"Write", func(b *bytebuf.Buffer) (int, error) { return b.Write([]byte("abc")) }, 3, "pre:abc"},
		{"Write empty", func(b *bytebuf.Buffer) (int, error) { return b.Write(nil) }, 0, "pre:"},
		{"WriteString", func(b *bytebuf.Buffer) (int, error) { return b.WriteString("héllo") }, 6, "pre:héllo"},
		{"WriteByte", func(b *bytebuf.Buffer) (int, error) { return 1, b.WriteByte('!') }, 1, "pre:!"},
		{"WriteRune ASCII", func(b *bytebuf.Buffer) (int, error) { return b.WriteRune('a') }, 1, "pre:a"},
		{"WriteRune 3 bytes", func(b *bytebuf.Buffer) (int, error) { return b.WriteRune('€') }, 3, "pre:€"},
		{"WriteRune 4 bytes", func(b *bytebuf.Buffer) (int, error) { return b.WriteRune('😀') }, 4, "pre:😀"},
		{"WriteRune invalid", func(b *bytebuf.Buffer) (int, error) { return b.WriteRune(-1) }, 3, "pre:\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytebuf.Buffer
			b.WriteString("pre:")
			n, err := tt.write(&b)
			if err != nil || n != tt.wantN {
				t.Fatalf("got (%d, %v), want (%d, nil)", n, err, tt.wantN)
			}
			if got := b.String(); got != tt.want {
				t.Fatalf("content %q, want %q", got, tt.want)
			}
			if b.Len() != len(tt.want) {
				t.Fatalf("Len() = %d, want %d", b.Len(), len(tt.want))
			}
		})
	}
}

func TestBufferAppenders(t *testing.T) {
	tm := time.Date(2026, 11, 21, 23, 24, 27, 500000000, time.FixedZone("", -3*3600))
	tests := []struct {
		name   string
		append func(b *bytebuf.Buffer)
		want   string
	}{
		{"AppendInt", func(b *bytebuf.Buffer) { b.AppendInt(-42) }, "-42"},
		{"AppendInt min", func(b *bytebuf.Buffer) { b.AppendInt(math.MinInt64) }, "-9223372036854775808"},
		{"AppendUint", func(b *bytebuf.Buffer) { b.AppendUint(math.MaxUint64) }, "18446744073709551615"},
		{"AppendFloat g", func(b *bytebuf.Buffer) { b.AppendFloat(1.5, 'g', -1, 64) }, "1.5"},
		{"AppendFloat f 32", func(b *bytebuf.Buffer) { b.AppendFloat(0.1, 'f', -1, 32) }, "0.1"},
		{"AppendFloat e", func(b *bytebuf.Buffer) { b.AppendFloat(12345, 'e', 2, 64) }, "1.23e+04"},
		{"AppendFloat NaN", func(b *bytebuf.Buffer) { b.AppendFloat(math.NaN(), 'g', -1, 64) }, "NaN"},
		{"AppendBool true", func(b *bytebuf.Buffer) { b.AppendBool(true) }, "true"},
		{"AppendBool false", func(b *bytebuf.Buffer) { b.AppendBool(false) }, "false"},
		{"AppendQuote", func(b *bytebuf.Buffer) { b.AppendQuote("a\"b\n\x00é") }, strconv.Quote("a\"b\n\x00é")},
		{"AppendTime", func(b *bytebuf.Buffer) { b.AppendTime(tm) }, "2026-11-21T23:24:27-03:00"},
		{"AppendTimeNano", func(b *bytebuf.Buffer) { b.AppendTimeNano(tm) }, "2026-11-21T23:24:27.5-03:00"},
		{"AppendTimeNano UTC whole", func(b *bytebuf.Buffer) { b.AppendTimeNano(tm.Truncate(time.Second).UTC()) }, "2026-11-22T02:24:27Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytebuf.Buffer{B: []byte("k=")}
			tt.append(&b)
			if got := b.String(); got != "k="+tt.want {
				t.Fatalf("got %q, want %q", got, "k="+tt.want)
			}
		})
	}
}

func TestBufferAppendersAllocs(t *testing.T) {
	tm := time.Now()
	b := bytebuf.Buffer{B: make([]byte, 0, 1024)}
	pooltest.WantAllocs(t, 0, func() {
		b.Reset()
		b.WriteString("msg=")
		b.AppendQuote("hello\tworld")
		b.WriteByte(' ')
		b.AppendInt(-12345)
		b.AppendUint(678)
		b.AppendFloat(3.25, 'g', -1, 64)
		b.AppendBool(true)
		b.WriteRune('€')
		b.AppendTime(tm)
		b.AppendTimeNano(tm)
	})
}

func TestBufferBytesAliasesStringCopies(t *testing.T) {
	var b bytebuf.Buffer
	b.WriteString("hello")
	bs := b.Bytes()
	s := b.String()
	b.B[0] = 'j'
	if string(bs) != "jello" {
		t.Fatalf("Bytes() = %q after changing the buffer, want the alias to see %q", bs, "jello")
	}
	if s != "hello" {
		t.Fatalf("String() = %q after changing the buffer, want the copy %q", s, "hello")
	}
}

func TestBufferResetKeepsStorage(t *testing.T) {
	var b bytebuf.Buffer
	if b.Len() != 0 || b.Cap() != 0 || b.String() != "" || b.Bytes() != nil {
		t.Fatal("zero Buffer is not empty")
	}
	b.WriteString(strings.Repeat("x", 100))
	c := b.Cap()
	b.Reset()
	if b.Len() != 0 || b.Cap() != c {
		t.Fatalf("after Reset: Len %d Cap %d, want 0 and %d", b.Len(), b.Cap(), c)
	}
}

type errWriter struct {
	n   int
	err error
}

func (w errWriter) Write(p []byte) (int, error) { return min(w.n, len(p)), w.err }

func TestBufferWriteTo(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name    string
		w       io.Writer
		content string
		wantN   int64
		wantErr error
	}{
		{"all", new(bytes.Buffer), "hello", 5, nil},
		{"empty", new(bytes.Buffer), "", 0, nil},
		{"error", errWriter{2, errBoom}, "hello", 2, errBoom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytebuf.Buffer{B: []byte(tt.content)}
			n, err := b.WriteTo(tt.w)
			if n != tt.wantN || err != tt.wantErr {
				t.Fatalf("WriteTo = (%d, %v), want (%d, %v)", n, err, tt.wantN, tt.wantErr)
			}
			if bb, ok := tt.w.(*bytes.Buffer); ok && bb.String() != tt.content {
				t.Fatalf("wrote %q, want %q", bb.String(), tt.content)
			}
			if b.String() != tt.content {
				t.Fatalf("WriteTo changed the buffer to %q", b.String())
			}
		})
	}
}

type negativeReader struct{}

func (negativeReader) Read([]byte) (int, error) { return -1, nil }

func TestBufferReadFrom(t *testing.T) {
	long := strings.Repeat("0123456789", 1000) // several minRead rounds
	errBoom := errors.New("boom")
	tests := []struct {
		name    string
		r       io.Reader
		wantN   int64
		want    string
		wantErr error
	}{
		{"short", strings.NewReader("abc"), 3, "pre:abc", nil},
		{"empty", strings.NewReader(""), 0, "pre:", nil},
		{"long", strings.NewReader(long), int64(len(long)), "pre:" + long, nil},
		{"one byte at a time", iotest.OneByteReader(strings.NewReader(long[:600])), 600, "pre:" + long[:600], nil},
		{"data with EOF", iotest.DataErrReader(strings.NewReader("xyz")), 3, "pre:xyz", nil},
		{"error after data", io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(errBoom)), 2, "pre:ab", errBoom},
		{"negative count", negativeReader{}, 0, "pre:", nil}, // wantErr checked below
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytebuf.Buffer{B: []byte("pre:")}
			n, err := b.ReadFrom(tt.r)
			if tt.name == "negative count" {
				if err == nil || !strings.Contains(err.Error(), "negative") {
					t.Fatalf("ReadFrom(reader returning -1) error = %v, want one saying the count is negative", err)
				}
			} else if err != tt.wantErr {
				t.Fatalf("ReadFrom error = %v, want %v", err, tt.wantErr)
			}
			if n != tt.wantN || b.String() != tt.want {
				t.Fatalf("ReadFrom = %d, content %q; want %d, %q", n, b.String(), tt.wantN, tt.want)
			}
		})
	}
}

// The Buffer must satisfy the interfaces its doc promises.
var (
	_ io.Writer       = (*bytebuf.Buffer)(nil)
	_ io.StringWriter = (*bytebuf.Buffer)(nil)
	_ io.ByteWriter   = (*bytebuf.Buffer)(nil)
	_ io.WriterTo     = (*bytebuf.Buffer)(nil)
	_ io.ReaderFrom   = (*bytebuf.Buffer)(nil)
)
