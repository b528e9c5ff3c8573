// Package outer puts a buffer back inside a branch and uses it after the
// branch, as a packet server does with a short read.
package outer

import "sync"

const size = 512

var bufs = sync.Pool{New: func() any { return make([]byte, size) }}

func read() []byte { return bufs.Get().([]byte)[:10] }

func invalid(m []byte) {}

func serve(stop func() bool) {
	for !stop() {
		m := read()
		if len(m) < 12 {
			if cap(m) == size {
				bufs.Put(m[:size])
			}
			invalid(m) // want `m is used after it was put back into bufs on line 20`
			continue
		}
		go handle(m)
	}
}

func handle(m []byte) { bufs.Put(m[:size]) }

func afterSwitch(k int) {
	m := read()
	switch k {
	case 1:
		bufs.Put(m)
	case 2:
	}
	invalid(m) // want `m is used after it was put back into bufs on line 35`
}

// ---- not reported ----

// The branch that puts back leaves the loop iteration.
func shortThenContinue(stop func() bool) {
	for !stop() {
		m := read()
		if len(m) < 12 {
			bufs.Put(m[:size])
			continue
		}
		invalid(m)
	}
}

// The branch that puts back returns.
func shortThenReturn() {
	m := read()
	if len(m) < 12 {
		bufs.Put(m[:size])
		return
	}
	invalid(m)
}

// The branch that puts back takes a new buffer.
func shortThenNew() {
	m := read()
	if len(m) < 12 {
		bufs.Put(m[:size])
		m = read()
	}
	invalid(m)
}

// A Put in a loop body is not followed past the loop.
func inLoop(n int) {
	m := read()
	for i := 0; i < n; i++ {
		if i == n-1 {
			bufs.Put(m)
			break
		}
	}
	_ = m
}

// After the branch that puts back, a use under a condition that the same
// branch rules out: branches after the Put's branch are not followed.
func correlated(k int) {
	m := read()
	adjusted := false
	if k > 1 {
		bufs.Put(m)
	} else {
		adjusted = true
	}
	if adjusted {
		invalid(m)
	}
	for range k {
		if adjusted {
			invalid(m)
		}
	}
}

// A use after the branch, after a later branch that may leave it alone.
func laterBranch(k int) {
	m := read()
	if k > 1 {
		bufs.Put(m)
	}
	if k > 5 {
		m = read()
	}
	invalid(m) // want `m is used after it was put back into bufs on line 111`
}
