package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/allocs"
	"github.com/poolkit/poolkit/internal/race"
	"github.com/poolkit/poolkit/jsonpool"
)

// unmarshalJSONCalls counts the calls of counter.UnmarshalJSON. The tests
// that read it do not run in parallel.
var unmarshalJSONCalls int

// counter counts how often encoding/json hands it a value, and fails on
// the string "fail", so that an Unmarshaler's own error is covered too.
type counter struct{ Raw string }

var errCounterFails = errors.New("counter refuses")

func (c *counter) UnmarshalJSON(b []byte) error {
	unmarshalJSONCalls++
	if string(b) == `"fail"` {
		return errCounterFails
	}
	c.Raw = string(b)
	return nil
}

type countedDoc struct {
	C    counter
	N    int
	List []counter
	P    *counter
}

// countInputs are valid documents, documents with trailing data that
// json.Unmarshal rejects, and valid documents of the wrong type.
var countInputs = []string{
	// Valid.
	`{"C":1,"N":2}`, ` {"C":1,"N":2} `, `{"C":1,"List":[1,2,3],"P":4}`, `{}`, `null`,
	// Trailing data: json.Unmarshal rejects the whole input.
	`{"C":1,"N":2} x`, `{"C":1,"N":2}{}`, `{"C":1,"N":2}]`, `{"C":1,"N":2}}`, `{"C":1} {"C":2}`,
	`{"C":1,"List":[1,2]} 1`, `{"C":1,"N":2}` + "\x00", `{"C":1,"N":2} null`,
	// Syntax errors inside the value, after fields with an UnmarshalJSON.
	`{"C":1,"N":2`, `{"C":1,"N":}`, `{"C":1,"List":[1,2,}`,
	// Type errors: json.Unmarshal decodes everything it can, once.
	`{"C":1,"N":"two"}`, `{"N":"two","C":1}`, `{"C":1,"N":"x","List":[1,2],"P":3}`, `[{"C":1}]`, `{"C":1,"N":1.5}`,
	// An UnmarshalJSON that fails stops json.Unmarshal at once.
	`{"C":"fail","List":[1]}`, `{"List":[1,"fail",3]}`,
}

// TestUnmarshalJSONCallsMatchEncodingJSON checks that jsonpool runs a
// type's UnmarshalJSON as often as json.Unmarshal does: never on
// {"C":1,"N":2} x, which json.Unmarshal refuses before decoding, as it
// validates the whole input first, and once, not twice, on a type error.
func TestUnmarshalJSONCallsMatchEncodingJSON(t *testing.T) {
	for _, decode := range decoders[countedDoc]() {
		p := jsonpool.NewPool[countedDoc]()
		for _, in := range countInputs {
			unmarshalJSONCalls = 0
			var want countedDoc
			wantErr := json.Unmarshal([]byte(in), &want)
			wantCalls := unmarshalJSONCalls
			if !jsonV2Experiment && wantErr != nil && errors.As(wantErr, new(*json.SyntaxError)) && wantCalls != 0 {
				t.Fatalf("json.Unmarshal(%q) called UnmarshalJSON %d times before its syntax error; the oracle is not what this test assumes", in, wantCalls)
			}
			for round := 0; round < 3; round++ { // fresh, then pooled decoders and values
				unmarshalJSONCalls = 0
				v, err := decode.fn(p, in)
				if unmarshalJSONCalls != wantCalls {
					t.Errorf("%s(%q) called UnmarshalJSON %d times, json.Unmarshal %d", decode.name, in, unmarshalJSONCalls, wantCalls)
				}
				if !sameErr(err, wantErr) {
					t.Errorf("%s(%q) error = %v, want json.Unmarshal's %v", decode.name, in, err, wantErr)
				}
				if err == nil {
					if !reflect.DeepEqual(*v, want) {
						t.Errorf("%s(%q) = %+v, want %+v", decode.name, in, *v, want)
					}
					p.Put(v)
				}
			}
		}
	}
}

// Decode reads a whole body, as an HTTP handler wants, where json.Decoder
// reads one value of a stream. On a body of one value and white space the
// two agree on the value, on whether it is an error, and on the calls of
// UnmarshalJSON; on trailing data Decode follows json.Unmarshal (tested
// above) and a json.Decoder returns the first value.
func TestDecodeAgreesWithJSONDecoderOnOneValue(t *testing.T) {
	p := jsonpool.NewPool[countedDoc]()
	for _, in := range countInputs {
		if !json.Valid([]byte(in)) {
			continue // not one value: json.Decoder reads a prefix
		}
		unmarshalJSONCalls = 0
		var want countedDoc
		wantErr := json.NewDecoder(strings.NewReader(in)).Decode(&want)
		wantCalls := unmarshalJSONCalls

		unmarshalJSONCalls = 0
		v, err := jsonpool.Decode(p, strings.NewReader(in))
		if unmarshalJSONCalls != wantCalls {
			t.Errorf("Decode(%q) called UnmarshalJSON %d times, json.Decoder %d", in, unmarshalJSONCalls, wantCalls)
		}
		if (err != nil) != (wantErr != nil) {
			t.Errorf("Decode(%q) error = %v, json.Decoder's %v", in, err, wantErr)
		}
		if err == nil {
			if !reflect.DeepEqual(*v, want) {
				t.Errorf("Decode(%q) = %+v, json.Decoder gives %+v", in, *v, want)
			}
			p.Put(v)
		}
	}
}

// A large document with one byte of trailing garbage is rejected before
// anything is decoded: the cost is that of json.Unmarshal's own
// rejection, not of decoding the document (50,057 allocations before).
func TestLargeDocumentWithTrailingGarbageDecodesNothing(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString(`{"C":1,"List":[`)
	for i := 0; doc.Len() < 950<<10; i++ {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteString(`"item"`)
	}
	doc.WriteString(`]} x`)
	data := doc.Bytes()

	unmarshalJSONCalls = 0
	wantErr := json.Unmarshal(data, new(countedDoc))
	wantCalls := unmarshalJSONCalls
	if wantErr == nil {
		t.Fatal("json.Unmarshal accepted trailing garbage")
	}
	p := jsonpool.NewPool[countedDoc]()
	unmarshalJSONCalls = 0
	if _, err := jsonpool.Unmarshal(p, data); !sameErr(err, wantErr) {
		t.Fatalf("Unmarshal error = %v, want %v", err, wantErr)
	}
	if _, err := jsonpool.Decode(p, bytes.NewReader(data)); !sameErr(err, wantErr) {
		t.Fatalf("Decode error = %v, want %v", err, wantErr)
	}
	if unmarshalJSONCalls != 2*wantCalls {
		t.Fatalf("UnmarshalJSON ran %d times in Unmarshal and Decode, json.Unmarshal %d times each", unmarshalJSONCalls, wantCalls)
	}
	if race.Enabled || jsonV2Experiment {
		// The v2 engine decodes before it looks for trailing data, in
		// json.Unmarshal itself: jsonpool does as its oracle does.
		return
	}
	if wantCalls != 0 {
		t.Fatalf("json.Unmarshal called UnmarshalJSON %d times", wantCalls)
	}
	// jsonpool may add the few allocations of the syntax error json.Valid
	// makes and drops, but nothing that grows with the document.
	const slack = 4
	oracle := allocs.PerRun(5, func() { _ = json.Unmarshal(data, new(countedDoc)) })
	got := allocs.PerRun(5, func() { _, _ = jsonpool.Unmarshal(p, data) })
	if got > oracle+slack {
		t.Errorf("Unmarshal of a %d-byte document with trailing garbage makes %v allocations, json.Unmarshal %v", len(data), got, oracle)
	}
	// Decode reads the body first: its oracle is io.ReadAll and
	// json.Unmarshal.
	r := bytes.NewReader(data)
	oracle = allocs.PerRun(5, func() {
		r.Reset(data)
		b, _ := io.ReadAll(r)
		_ = json.Unmarshal(b, new(countedDoc))
	})
	got = allocs.PerRun(5, func() { r.Reset(data); _, _ = jsonpool.Decode(p, r) })
	// Its read buffer doubles from a pooled buffer's small capacity where
	// io.ReadAll starts at 512 bytes: a few more steps of growth, a number
	// that grows with the logarithm of the size.
	if got > oracle+slack+12 {
		t.Errorf("Decode of a %d-byte document with trailing garbage makes %v allocations, io.ReadAll and json.Unmarshal %v", len(data), got, oracle)
	}
}
