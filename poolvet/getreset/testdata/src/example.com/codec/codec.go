// Package codec stands for a decoder of another package with reset
// methods of several names.
package codec

import "io"

// Decoder reads values from a stream.
type Decoder struct {
	r    io.Reader
	dict []string
}

// Reset makes d read from r.
func (d *Decoder) Reset(r io.Reader) { d.r, d.dict = r, nil }

// ResetDict makes d read from r with the dictionary dict.
func (d *Decoder) ResetDict(r io.Reader, dict []string) { d.r, d.dict = r, dict }

// ResetReader makes d read from r, keeping its options.
func (d *Decoder) ResetReader(r io.Reader) { d.r = r }

// Read reads from the stream.
func (d *Decoder) Read(p []byte) (int, error) { return d.r.Read(p) }
