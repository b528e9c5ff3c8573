// Package flagged holds release functions that return early on a
// configuration flag before the Put.
package flagged

import (
	"bytes"
	"sync"
)

const poolBuffers = false

var reuse = false // never set: the pool never gets a value back

var debug bool

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var msgs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var conns = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var scratch = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// SetDebug lets callers turn debugging on.
func SetDebug(on bool) { debug = on }

func releaseBuf(b *bytes.Buffer) {
	if !poolBuffers {
		return
	}
	b.Reset()
	bufs.Put(b)
}

func releaseMsg(b *bytes.Buffer) {
	if !reuse {
		return
	}
	msgs.Put(b)
}

// debug can change: the Put may run.
func releaseConn(b *bytes.Buffer) {
	if debug {
		return
	}
	conns.Put(b)
}

// A guard on the value itself.
func releaseScratch(b *bytes.Buffer) {
	if b.Cap() > 1<<16 {
		return
	}
	scratch.Put(b)
}

// ---- flagged ----

func useBuf() {
	b := bufs.Get().(*bytes.Buffer) // want `nothing in this package puts back into bufs \(the Put on line 32 never runs, as !poolBuffers is always true\)`
	releaseBuf(b)
}

func useMsg() {
	b := msgs.Get().(*bytes.Buffer) // want `nothing in this package puts back into msgs \(the Put on line 39 never runs, as !reuse is always true\)`
	releaseMsg(b)
}

// ---- quiet ----

func useConn() {
	b := conns.Get().(*bytes.Buffer)
	releaseConn(b)
}

func useScratch() {
	b := scratch.Get().(*bytes.Buffer)
	releaseScratch(b)
}
