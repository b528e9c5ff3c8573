// Package owned has functions that put back a buffer they are given.
package owned

import (
	"encoding/binary"
	"errors"
	"sync"
)

const size = 512

var bufs sync.Pool

var errShort = errors.New("short header")

func header(m []byte) (int, error) {
	if len(m) < 2 {
		return 0, errShort
	}
	return int(binary.BigEndian.Uint16(m[0:])), nil
}

func handle(int) {}

// serve owns m: it puts it back whenever it has the pool's size, but not
// when the header is bad.
func serve(m []byte, invalid func([]byte, error)) {
	n, err := header(m)
	if err != nil {
		invalid(m, err)
		return // want `^m, which this function puts back into bufs on line 38, is not put back on this return path \(lost reuse, not a leak\)$`
	}
	if n == 1 {
		// invalid(m, ...) then the Put below: invalid does not keep m.
		invalid(m, errShort)
	}
	if cap(m) == size {
		bufs.Put(m[:size])
	}
	handle(n)
}

// ---- quiet ----

// The Put depends on a flag, not on b: the function may not own b.
func maybe(b []byte, owned bool) {
	if _, err := header(b); err != nil {
		return
	}
	if owned {
		bufs.Put(b)
	}
}

var kept [][]byte

func keep(b []byte) error {
	kept = append(kept, b)
	return nil
}

// keep may hold b: the early return hands it on.
func keepFirst(b []byte) error {
	if err := keep(b); err != nil {
		return err
	}
	bufs.Put(b)
	return nil
}

// f is called on the early return only: it may keep b.
func withCallback(b []byte, f func([]byte)) {
	if len(b) == 0 {
		f(b)
		return
	}
	bufs.Put(b)
}

// Every path puts b back.
func always(b []byte) {
	if _, err := header(b); err != nil {
		bufs.Put(b)
		return
	}
	bufs.Put(b)
}

// The Put is in a loop: not one that runs whenever the function gets
// that far.
func inLoop(bs [][]byte, b []byte) {
	if len(bs) == 0 {
		return
	}
	for range bs {
		bufs.Put(b)
	}
}

func index(size int) int {
	if size&(size-1) != 0 {
		return -1
	}
	return 0
}

var sized [1]sync.Pool

// A buffer of the wrong size is dropped on purpose: the return tests the
// result of a call given its capacity, not the buffer.
func put(b *[]byte) {
	i := index(cap(*b))
	if i < 0 {
		return
	}
	sized[i].Put(b)
}
