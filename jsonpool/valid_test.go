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
