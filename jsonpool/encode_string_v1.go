//go:build !goexperiment.jsonv2 && !poolkit_nounsafe

package jsonpool

// invalidUTF8Text is what encoding/json writes for each byte of invalid
// UTF-8 in a string: v1 writes the escape \ufffd.
const invalidUTF8Text = `\ufffd`
