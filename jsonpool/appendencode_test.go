package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/jsonpool"
)

// oracleEncode returns what json.NewEncoder(w).Encode(v) writes with o's
// settings.
func oracleEncode(t *testing.T, o jsonpool.Options, v any) []byte {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(!o.NoHTMLEscape)
	enc.SetIndent(o.Prefix, o.Indent)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return want.Bytes()
}

// AppendEncode and EncodeN write exactly what json.Encoder writes, the
// newline included, and EncodeN counts it.
func TestAppendEncodeMatchesEncoder(t *testing.T) {
	for name, v := range encodeValues() {
		t.Run(name, func(t *testing.T) {
			for _, o := range append(optionSets(), jsonpool.Options{}) {
				want := oracleEncode(t, o, v)
				var got []byte
				var err error
				if o == (jsonpool.Options{}) {
					got, err = jsonpool.AppendEncode([]byte("prefix:"), v)
				} else {
					got, err = o.AppendEncode([]byte("prefix:"), v)
				}
				if err != nil {
					t.Fatalf("%+v.AppendEncode: %v", o, err)
				}
				if !bytes.Equal(got, append([]byte("prefix:"), want...)) {
					t.Errorf("%+v.AppendEncode = %s\nwant prefix:%s", o, trunc(got), trunc(want))
				}

				w := &countingWriter{}
				var n int
				if o == (jsonpool.Options{}) {
					n, err = jsonpool.EncodeN(w, v)
				} else {
					n, err = o.EncodeN(w, v)
				}
				if err != nil {
					t.Fatalf("%+v.EncodeN: %v", o, err)
				}
				if !bytes.Equal(w.buf.Bytes(), want) || n != len(want) || w.writes != 1 {
					t.Errorf("%+v.EncodeN = %d in %d writes of %s\nwant %d in 1 write of %s", o, n, w.writes, trunc(w.buf.Bytes()), len(want), trunc(want))
				}
			}
		})
	}
}

// shortWriter writes at most max bytes and then fails.
type shortWriter struct {
	max int
	buf bytes.Buffer
}

var errShort = errors.New("short write")

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) > w.max {
		w.buf.Write(p[:w.max])
		return w.max, errShort
	}
	return w.buf.Write(p)
}

func TestEncodeNCountsWhatWriterTook(t *testing.T) {
	w := &shortWriter{max: 10}
	n, err := jsonpool.EncodeN(w, &sampleValue)
	if n != 10 || err != errShort || w.buf.Len() != 10 {
		t.Fatalf("EncodeN to a writer taking 10 bytes = %d, %v; want 10, its error", n, err)
	}
	unsupported := encodeValuesUnsupported()
	n, err = jsonpool.EncodeN(&bytes.Buffer{}, unsupported)
	var want *json.UnsupportedTypeError
	if n != 0 || !errors.As(err, &want) {
		t.Fatalf("EncodeN of a channel = %d, %v; want 0, json's UnsupportedTypeError", n, err)
	}
	_, wantErr := json.Marshal(unsupported)
	dst := []byte("kept")
	got, err := jsonpool.AppendEncode(dst, unsupported)
	if !sameErr(err, wantErr) || string(got) != "kept" {
		t.Fatalf("AppendEncode of a channel = %q, %v; want dst unchanged and %v", got, err, wantErr)
	}
}

func TestAppendEncodeAllocs(t *testing.T) {
	dst := make([]byte, 0, 256)
	var w bytes.Buffer
	w.Grow(256)
	for name, f := range map[string]func(){
		"AppendEncode": func() { dst, _ = jsonpool.AppendEncode(dst[:0], &sampleValue) },
		"EncodeN":      func() { w.Reset(); _, _ = jsonpool.EncodeN(&w, &sampleValue) },
	} {
		if !pooltest.WantAllocs(t, 0, f) {
			t.Logf("%s of the sample struct with room", name)
		}
	}
	if string(dst) != sampleJSON+"\n" || w.String() != sampleJSON+"\n" {
		t.Errorf("wrote %q and %q, want %q", dst, w.String(), sampleJSON+"\n")
	}
}

// encodeValuesUnsupported returns a value encoding/json cannot encode, a
// channel.
func encodeValuesUnsupported() any { return []any{make(chan int)}[0] }
