package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/jsonpool"
)

// sampleData is a small struct of the commonest field kinds: an integer,
// a string and a slice of strings.
type sampleData struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

var sampleValue = sampleData{ID: 1, Name: "Jack", Items: []string{"knife", "shield", "herbs"}}

const sampleJSON = `{"id":1,"name":"Jack","items":["knife","shield","herbs"]}`

type textKey struct{ a, b string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.a + "/" + k.b), nil }

type failingMarshaler struct{}

var errMarshal = errors.New("failingMarshaler refuses")

func (failingMarshaler) MarshalJSON() ([]byte, error) { return nil, errMarshal }

// encodeValues covers what the encoder treats specially: HTML characters,
// line separators, invalid UTF-8, map key order, nil and empty
// collections, methods, numbers at their limits.
func encodeValues() map[string]any {
	big := make([]int, 20000)
	for i := range big {
		big[i] = i * 7919
	}
	return map[string]any{
		"sample":       &sampleValue,
		"sample value": sampleValue,
		"html":         map[string]string{"a": "<script>&amp;</script>"},
		"separators":   "line\u2028para\u2029end",
		"invalid utf8": "a\xffb\xc3",
		"map order":    map[string]int{"z": 1, "a": 2, "m": 3, "": 4},
		"text keys":    map[textKey]int{{"x", "y"}: 1, {"a", "b"}: 2},
		"nil slice":    struct{ S []int }{},
		"empty slice":  struct{ S []int }{S: []int{}},
		"nil map":      map[string]int(nil),
		"bytes":        []byte("hello, world\x00"),
		"raw":          json.RawMessage(`{"pre":"formatted"}`),
		"floats":       []float64{0, math.Copysign(0, -1), 1e21, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1},
		"ints":         []int64{math.MinInt64, math.MaxInt64},
		"number":       json.Number("12.50"),
		"nil":          nil,
		"string":       "plain",
		"nested":       map[string]any{"a": []any{1, "two", nil, true, map[string]any{"b": 3.5}}},
		"omitempty": struct {
			A int    `json:"a,omitempty"`
			B string `json:"b,string"`
		}{B: "x"},
		"large": big,
	}
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	for name, v := range encodeValues() {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jsonpool.Marshal(nil, v)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Marshal = %s\nwant %s", trunc(got), trunc(want))
			}
			// Appends after what dst already holds, leaving it intact.
			dst := append(make([]byte, 0, 8), "prefix:"...)
			got, err = jsonpool.Marshal(dst, v)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if string(got) != "prefix:"+string(want) {
				t.Errorf("Marshal(dst) = %s, want prefix:%s", trunc(got), trunc(want))
			}

			for _, o := range optionSets() {
				want := oracleEncode(t, o, v)
				var got bytes.Buffer
				if err := o.Encode(&got, v); err != nil {
					t.Fatalf("%+v.Encode: %v", o, err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("%+v.Encode wrote %s\nwant %s", o, trunc(got.Bytes()), trunc(want))
				}
				m, err := o.Marshal(nil, v)
				if err != nil {
					t.Fatalf("%+v.Marshal: %v", o, err)
				}
				if w := bytes.TrimSuffix(want, []byte("\n")); !bytes.Equal(m, w) {
					t.Errorf("%+v.Marshal = %s\nwant %s", o, trunc(m), trunc(w))
				}
			}
		})
	}
}

func optionSets() []jsonpool.Options {
	return []jsonpool.Options{
		{},
		{NoHTMLEscape: true},
		{Indent: "\t"},
		{Prefix: "> ", Indent: "  ", NoHTMLEscape: true},
		{}, // again, after an indenting use of the same pooled encoder
	}
}

func TestMarshalIndentMatchesMarshalIndent(t *testing.T) {
	want, err := json.MarshalIndent(&sampleValue, "#", " ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := jsonpool.Options{Prefix: "#", Indent: " "}.Marshal(nil, &sampleValue)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Options{Prefix, Indent}.Marshal = %s, want %s", got, want)
	}
}

func TestMarshalSample(t *testing.T) {
	got, err := jsonpool.Marshal(nil, &sampleValue)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != sampleJSON {
		t.Errorf("Marshal = %s, want %s", got, sampleJSON)
	}
	var w bytes.Buffer
	if err := jsonpool.Encode(&w, &sampleValue); err != nil {
		t.Fatal(err)
	}
	if w.String() != sampleJSON+"\n" {
		t.Errorf("Encode wrote %q, want %q", w.String(), sampleJSON+"\n")
	}
}

func TestMarshalErrors(t *testing.T) {
	for name, v := range map[string]any{
		"channel":   make(chan int),
		"function":  func() {},
		"nan":       math.NaN(),
		"marshaler": []any{1, failingMarshaler{}},
		"cycle":     cyclic(),
	} {
		t.Run(name, func(t *testing.T) {
			_, want := json.Marshal(v)
			if want == nil {
				t.Fatal("json.Marshal succeeded; the case is wrong")
			}
			dst := []byte("kept")
			got, err := jsonpool.Marshal(dst, v)
			if !sameErr(err, want) {
				t.Errorf("Marshal error = %T %v, want json.Marshal's %T %v", err, err, want, want)
			}
			if string(got) != "kept" || len(got) != 4 {
				t.Errorf("Marshal returned dst %q, want it unchanged", got)
			}
			w := &countingWriter{}
			err = jsonpool.Encode(w, v)
			if !sameErr(err, want) {
				t.Errorf("Encode error = %T %v, want %T %v", err, err, want, want)
			}
			if w.writes != 0 {
				t.Errorf("Encode made %d writes for a value it cannot encode, want 0", w.writes)
			}
		})
	}
	if !errors.Is(func() error { _, err := jsonpool.Marshal(nil, failingMarshaler{}); return err }(), errMarshal) {
		t.Error("Marshal's error does not wrap the MarshalJSON error")
	}
}

func cyclic() any {
	type node struct{ Next *node }
	n := &node{}
	n.Next = n
	return n
}

type countingWriter struct {
	writes int
	buf    bytes.Buffer
	err    error
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.err != nil {
		return 0, w.err
	}
	return w.buf.Write(p)
}

func TestEncodeWritesOnce(t *testing.T) {
	for name, v := range encodeValues() {
		for _, o := range optionSets() {
			w := &countingWriter{}
			if err := o.Encode(w, v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if w.writes != 1 {
				t.Errorf("%s, %+v: Encode made %d Write calls, want 1", name, o, w.writes)
			}
		}
	}
}

func TestEncodeWriteErrorReturnedAndEncoderNotStuck(t *testing.T) {
	errDisk := errors.New("disk full")
	for i := 0; i < 20; i++ {
		bad := &countingWriter{err: errDisk}
		if err := jsonpool.Encode(bad, &sampleValue); err != errDisk {
			t.Fatalf("Encode to a failing writer = %v, want the writer's error unchanged", err)
		}
		// json.Encoder keeps a Write error and returns it forever: the
		// encoder that failed must not have gone back into the pool.
		var good bytes.Buffer
		if err := jsonpool.Encode(&good, &sampleValue); err != nil {
			t.Fatalf("Encode after a failed write: %v", err)
		}
		if good.String() != sampleJSON+"\n" {
			t.Fatalf("Encode after a failed write wrote %q", good.String())
		}
	}
}

func TestEncodeLargeIndentedDocument(t *testing.T) {
	// Larger than what a pooled encoder may keep: the encoder is dropped,
	// and the next call still works.
	v := strings.Repeat("x", 100<<10)
	for i := 0; i < 3; i++ {
		var w bytes.Buffer
		if err := (jsonpool.Options{Indent: " "}).Encode(&w, []string{v}); err != nil {
			t.Fatal(err)
		}
		if w.Len() != len(v)+len("[\n \"\"\n]\n") {
			t.Fatalf("Encode wrote %d bytes, want %d", w.Len(), len(v)+8)
		}
	}
}

func trunc(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// TestMarshalNegativeZero checks negative zero keeps its sign, as in
// encoding/json. (The literal -0.0 is positive zero in Go; only
// math.Copysign makes a negative one.)
func TestMarshalNegativeZero(t *testing.T) {
	negZero := math.Copysign(0, -1)
	want, err := json.Marshal(negZero)
	if err != nil || string(want) != "-0" {
		t.Fatalf("encoding/json encodes negative zero as %s, %v; want -0", want, err)
	}
	got, err := jsonpool.Marshal(nil, []float64{negZero, 0})
	if err != nil || string(got) != "[-0,0]" {
		t.Errorf("Marshal([-0, 0]) = %s, %v; want [-0,0]", got, err)
	}
}
