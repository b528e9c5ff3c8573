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

// TestMarshalOverlap is issue 11's item 4 for jsonpool: Marshal and
// AppendEncode give json.Marshal's bytes when v's strings and slices lie
// in dst's spare capacity or straddle its end. encoding/json builds the
// whole encoding in a buffer of its own before a byte reaches dst, so
// nothing of v is overwritten before it is read.
func TestMarshalOverlap(t *testing.T) {
	texts := []string{"<html> & \"quotes\" \u2028", "plain", `{"nested":[1,2,"<x>"]}`, ""}
	for _, text := range texts {
		for _, k := range []int{-3, 0, 1, 7} {
			for _, room := range []int{0, 16, 1024} {
				const prefix = "prefix:"
				arr := make([]byte, len(prefix)+max(k, 0)+4*len(text)+room+64)
				copy(arr, prefix)
				at := len(prefix) + k
				copy(arr[at:], text)
				dst := arr[:len(prefix)]
				if k < 0 {
					dst = arr[:at] // the prefix is overwritten by text's start: keep it as dst
				}
				want0 := append([]byte(nil), dst...)
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
				v := aliasing{S: s, B: arr[at : at+len(text)], Raw: rawBytes, M: rawMarshaler(rawBytes), Str: s}
				// The oracle runs on a copy that shares no memory with dst.
				want, err := json.Marshal(aliasing{S: text, B: []byte(text), Raw: []byte(raw), M: []byte(raw), Str: text})
				if err != nil {
					t.Fatal(err)
				}
				want = append(want0, want...)

				got, err := jsonpool.Marshal(dst, &v)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("Marshal with fields at offset %d of dst's end, %d spare:\n got %s\nwant %s", k, room, got, want)
				}
			}
		}
	}
}
