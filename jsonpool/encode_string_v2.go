//go:build goexperiment.jsonv2 && !poolkit_nounsafe

package jsonpool

// invalidUTF8Text is what encoding/json writes for each byte of invalid
// UTF-8 in a string: built with GOEXPERIMENT=jsonv2, its v2 engine writes
// the replacement character U+FFFD itself, unescaped.
const invalidUTF8Text = "\ufffd"
