// Package resetlike holds pooled values of another package reset by
// methods named Reset-something.
package resetlike

import (
	"io"
	"sync"

	"example.com/codec"
)

var decs = sync.Pool{New: func() any { return new(codec.Decoder) }}

// withDict resets through ResetDict, which takes a dictionary too.
func withDict(r io.Reader, dict []string, p []byte) (int, error) {
	d := decs.Get().(*codec.Decoder)
	d.ResetDict(r, dict)
	n, err := d.Read(p)
	decs.Put(d)
	return n, err
}

// readerOnly resets through ResetReader.
func readerOnly(r io.Reader, p []byte) (int, error) {
	d := decs.Get().(*codec.Decoder)
	d.ResetReader(r)
	n, err := d.Read(p)
	decs.Put(d)
	return n, err
}

// none reads from the previous user's stream.
func none(p []byte) (int, error) {
	d := decs.Get().(*codec.Decoder)
	n, err := d.Read(p) // want `d from decs \(Get on line 34\) is written before it is reset`
	decs.Put(d)
	return n, err
}
