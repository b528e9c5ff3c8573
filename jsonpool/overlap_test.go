package jsonpool_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/jsonpool"
)

// aliasing holds every kind of field whose bytes a caller can place in
// dst's own memory: a string (through unsafe.String), a []byte, a
// json.RawMessage and the output of a MarshalJSON method.
type aliasing struct {
	S   string
	B   []byte
	Raw json.RawMessage
	M   rawMarshaler
	Str string `json:",string"`
}

type rawMarshaler []byte

func (m rawMarshaler) MarshalJSON() ([]byte, error) { return m, nil }

// TestMarshalOverlap checks that Marshal and
// AppendEncode give json.Marshal's bytes when v's strings and slices lie
// in dst's spare capacity or straddle its end. encoding/json builds the
// whole encoding in a buffer of its own before a byte reaches dst, so
// nothing of v is overwritten before it is read.
func TestMarshalOverlap(t *testing.T) {
	texts := []string{"<html> & \"quotes\" \u2028", "plain", `{"nested":[1,2,"<x>"]}`, ""}
	fns := []struct {
		name    string
		f       func([]byte, any) ([]byte, error)
		newline string
	}{
		{"Marshal", jsonpool.Marshal, ""},
		{"AppendEncode", jsonpool.AppendEncode, "\n"},
	}
	for _, text := range texts {
		for _, k := range []int{-3, 0, 1, 7} {
			for _, room := range []int{0, 16, 1024} {
				for _, fn := range fns {
					dst, v, want := aliasedInput(t, text, k, room)
					got, err := fn.f(dst, &v)
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, fn.newline...)
					if !bytes.Equal(got, want) {
						t.Errorf("%s with fields at offset %d of dst's end, %d spare:\n got %s\nwant %s", fn.name, k, room, got, want)
					}
				}
			}
		}
	}
}

// aliasedInput returns a dst and an aliasing value whose fields lie in
// dst's array at offset k from dst's end, and what json.Marshal appends
// for that value, computed on a copy that shares no memory with dst.
func aliasedInput(t *testing.T, text string, k, room int) (dst []byte, v aliasing, want []byte) {
	t.Helper()
	const prefix = "prefix:"
	arr := make([]byte, len(prefix)+max(k, 0)+4*len(text)+room+64)
	copy(arr, prefix)
	at := len(prefix) + k
	copy(arr[at:], text)
	dst = arr[:len(prefix)]
	if k < 0 {
		dst = arr[:at] // text's start is in dst's bytes, its end beyond
	}
	var s string
	if len(text) > 0 {
		s = unsafe.String(&arr[at], len(text))
	}
	raw := text
	if !json.Valid([]byte(text)) {
		q, _ := json.Marshal(text)
		raw = string(q)
	}
	rawAt := at + len(text) + 1
	copy(arr[rawAt:], raw)
	rawBytes := arr[rawAt : rawAt+len(raw) : rawAt+len(raw)]
	v = aliasing{S: s, B: arr[at : at+len(text)], Raw: rawBytes, M: rawMarshaler(rawBytes), Str: s}
	enc, err := json.Marshal(aliasing{S: text, B: []byte(text), Raw: []byte(raw), M: []byte(raw), Str: text})
	if err != nil {
		t.Fatal(err)
	}
	return dst, v, append(append([]byte(nil), dst...), enc...)
}
