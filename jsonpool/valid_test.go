package jsonpool

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var validInputs = []string{
	`{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5e-3, -0, 0.1E+2, "x\u00e9\n\"\\\/", true, false, null, {}]} `,
	`"str"`, `123`, `-1.5e10`, "null", " true ", `[[[[]]]]`, `{"a":{"b":{"c":[{}]}}}`, "\"\xff\xfe\"",
	"", " ", "{", "}", "[", "]", `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{1:2}`, `{"a":1 "b":2}`,
	`[1 2]`, `01`, `1.`, `.5`, `1e`, `1e+`, `-`, `--1`, `+1`, `tru`, `nul`, `falsey`, `"open`, `"a\x"`, `"\u12"`,
	`"\u12g4"`, "\"ctl\x01\"", `{"a":1}x`, `{"a":1}{}`, `{"a":1}]`, `1 2`, `"a" "b"`, `[}`, `{]`, `[1}`, `{"a":[1}`,
	"\x00", `{"a":1}` + "\x00", `NaN`, `Infinity`, `[-]`, `["a":1]`, `{"a"::1}`, `{"a":1:2}`,
	strings.Repeat("[", maxValidDepth) + strings.Repeat("]", maxValidDepth),
	strings.Repeat("[", maxValidDepth+1) + strings.Repeat("]", maxValidDepth+1),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

func TestIsValidMatchesJSONValid(t *testing.T) {
	for _, in := range validInputs {
		checkIsValid(t, []byte(in))
	}
}

// checkIsValid holds isValid to json.Valid, the oracle: never true where
// json.Valid is false, and false where json.Valid is true only for a
// document nested deeper than isValid checks.
func checkIsValid(t *testing.T, data []byte) {
	got, want := isValid(data), json.Valid(data)
	if got && !want {
		t.Fatalf("isValid(%.80q) = true, json.Valid = false", data)
	}
	if want && !got && bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) <= maxValidDepth {
		t.Fatalf("isValid(%.80q) = false, json.Valid = true", data)
	}
}

// FuzzIsValid runs checkIsValid on any input:
//
//	go test -run '^$' -fuzz FuzzIsValid -fuzztime 1m ./jsonpool
func FuzzIsValid(f *testing.F) {
	for _, in := range validInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkIsValid(t, data) })
}

// TestIsValidMixedNesting holds isValid to json.Valid on arrays and
// objects nested in patterns across the 64-bit words of its stack, closed
// rightly, with a closer swapped at each level, and cut off at each level.
func TestIsValidMixedNesting(t *testing.T) {
	for _, n := range []int{1, 2, 63, 64, 65, 127, 128, 129, 200} {
		for pattern := 0; pattern < 4; pattern++ {
			var open, closers []byte
			for d := 0; d < n; d++ {
				array := pattern == 0 || pattern == 2 && d%2 == 0 || pattern == 3 && d%3 != 1
				if array {
					open = append(open, "[1,"...)
					closers = append(closers, ']')
				} else {
					open = append(open, `{"k":`...)
					closers = append(closers, '}')
				}
			}
			// close in reverse order, with an element after each closer
			var doc []byte
			doc = append(doc, open...)
			doc = append(doc, "0"...)
			for d := n - 1; d >= 0; d-- {
				doc = append(doc, closers[d])
				if d > 0 && closers[d-1] == ']' {
					doc = append(doc, ",[]"...)
				} else if d > 0 {
					doc = append(doc, `,"x":{}`...)
				}
			}
			checkIsValid(t, doc)
			if !isValid(doc) {
				t.Fatalf("isValid(%.80q) = false", doc)
			}
			for k := range doc {
				if doc[k] == ']' || doc[k] == '}' {
					bad := bytes.Clone(doc)
					bad[k] ^= ']' ^ '}'
					checkIsValid(t, bad)
					if isValid(bad) {
						t.Fatalf("isValid(%.80q...) = true with a swapped closer at %d", bad, k)
					}
				}
				checkIsValid(t, doc[:k])
			}
		}
	}
}
