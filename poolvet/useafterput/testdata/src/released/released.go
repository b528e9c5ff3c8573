// Package released has a pool whose tests check what a release leaves.
package released

import "sync"

type enc struct {
	buf  []byte
	name string
}

var encoders = sync.Pool{New: func() any { return new(enc) }}

func getEnc() *enc { return encoders.Get().(*enc) }

func putEnc(e *enc) {
	if cap(e.buf) > 1<<16 {
		e.buf = nil
	}
	e.name = ""
	encoders.Put(e)
}

func (e *enc) reset() { e.buf = e.buf[:0] }

// Code that is not a test reads what it put back: reported.
func capAfter() int {
	e := getEnc()
	putEnc(e)
	return cap(e.buf) // want `e is used after it was put back into encoders on line 28`
}
