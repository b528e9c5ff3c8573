// Package ornew gets values from pools without New, making one when the
// pool is empty.
package ornew

import (
	"bytes"
	"io"
	"sync"

	"example.com/zz"
)

var readers sync.Pool

// The reader goes back on the success path only.
func decompress(data []byte) ([]byte, error) {
	r, ok := readers.Get().(*zz.Reader)
	var err error
	if !ok {
		r, err = zz.NewReader(bytes.NewReader(data))
	} else {
		err = r.Reset(bytes.NewReader(data))
	}
	if err != nil {
		return nil, err // want `^r from readers \(Get on line 17\) is not put back on this return path \(lost reuse, not a leak\)$`
	}
	out, err := io.ReadAll(r)
	readers.Put(r)
	return out, err
}

// Quiet: every path puts the reader back.
func decompressAll(data []byte) ([]byte, error) {
	r, ok := readers.Get().(*zz.Reader)
	if !ok {
		r, _ = zz.NewReader(nil)
	}
	err := r.Reset(bytes.NewReader(data))
	if err != nil {
		readers.Put(r)
		return nil, err
	}
	out, err := io.ReadAll(r)
	readers.Put(r)
	return out, err
}

// Quiet: a method of another module that may hand the reader on.
func handedOn(data []byte) error {
	r, ok := readers.Get().(*zz.Reader)
	if !ok {
		r, _ = zz.NewReader(nil)
	}
	r.Keep()
	if len(data) == 0 {
		return nil
	}
	readers.Put(r)
	return nil
}

// Quiet: when the assertion fails nothing is made, so the early return
// drops nothing.
func orNothing(data []byte) error {
	r, ok := readers.Get().(*zz.Reader)
	if !ok {
		return nil
	}
	r.Reset(bytes.NewReader(data))
	readers.Put(r)
	return nil
}

// Quiet: Write of another module's type may hand the value on (and its
// error return is often dead code).
func written(data []byte) error {
	r, ok := readers.Get().(*zz.Reader)
	if !ok {
		r, _ = zz.NewReader(nil)
	}
	if _, err := r.Write(data); err != nil {
		return err
	}
	readers.Put(r)
	return nil
}

// Quiet: the return in the fallback has nothing to put back, New failed.
func newFailed(data []byte) ([]byte, error) {
	r, ok := readers.Get().(*zz.Reader)
	if !ok {
		var err error
		r, err = zz.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
	}
	out, err := io.ReadAll(r)
	readers.Put(r)
	return out, err
}
