package a

import "sync"

var bufs = sync.Pool{New: func() any { return make([]byte, 0, 64) }}

func put(b []byte) {
	bufs.Put(b[:0]) // want ".+"
}

func putIgnored(b []byte) {
	bufs.Put(b[:0]) //poolvet:ignore nonptrput the boxing is measured and accepted here
}
