//go:build !goexperiment.jsonv2

package jsonpool

// encInvalidUTF8 is what encoding/json writes for each byte of invalid
// UTF-8 in a string: v1 writes the escape \ufffd.
const encInvalidUTF8 = `\ufffd`
