package a

import (
	"bytes"
	"strings"
	"sync"
)

var ints = sync.Pool{New: func() any { return new([]int) }}

var bufs = sync.Pool{
	New: newBuf,
}

func newBuf() any { return new(bytes.Buffer) }

type server struct {
	scratch sync.Pool
	names   sync.Pool
	free    sync.Pool // no New: Get may return nil
	other   *sync.Pool
}

func newServer(size int) *server {
	s := &server{
		scratch: sync.Pool{New: func() any {
			b := make([]byte, 0, size)
			return &b
		}},
	}
	s.names.New = func() any { return new(strings.Builder) }
	return s
}

func get[T any](p *sync.Pool) T { return p.Get().(T) }

// Flagged.

func flagged(s *server) {
	_ = ints.Get().(*[]string)        // want `^ints.Get\(\) asserted to \*\[\]string panics when the pool is empty \(New on line 9 returns only \*\[\]int\)$`
	_ = bufs.Get().(*strings.Builder) // want `bufs.Get\(\) asserted to \*strings.Builder .* \(New on line 12 returns only \*bytes.Buffer\)`
	_ = s.scratch.Get().([]byte)      // want `s.scratch.Get\(\) asserted to \[\]byte .* returns only \*\[\]byte`
	_ = s.names.Get().(*bytes.Buffer) // want `s.names.Get\(\) asserted to \*bytes.Buffer`
	b := s.names.Get().(*strings.Builder)
	s.names.Put(b)
	s.names.Put(new(bytes.Buffer)) // want `^s.names.Put of \*bytes.Buffer makes the assertion to \*strings.Builder on line 44 panic \(New on line 31 never returns \*bytes.Buffer\)$`
	x := []int{1}
	ints.Put(&x)
	ints.Put(x)               // want `ints.Put of \[\]int makes the assertion .* panic \(New on line 9 never returns`
	_ = get[*[]string](&ints) // want `ints.Get\(\) \(through get\) asserted to \*\[\]string`
	local := sync.Pool{New: func() any { return new(int) }}
	_ = local.Get().(*int64) // want `local.Get\(\) asserted to \*int64 .* returns only \*int`
	ptr := &sync.Pool{New: func() any { return &server{} }}
	_ = ptr.Get().(server) // want `ptr.Get\(\) asserted to server .* returns only \*server`
}

// Clean.

func clean(s *server, p *sync.Pool) {
	_ = ints.Get().(*[]int)                  // matches New
	_ = bufs.Get().(*bytes.Buffer)           // New through a named function
	_ = s.scratch.Get().(*[]byte)            // field set in a composite literal
	_ = s.names.Get().(*strings.Builder)     // field set by assignment
	if b, ok := ints.Get().(*[]string); ok { // comma-ok cannot panic
		_ = b
	}
	_ = s.free.Get().(*[]byte)              // no New in sight
	_ = s.other.Get().(*[]byte)             // pool from elsewhere
	_ = p.Get().(*[]byte)                   // a parameter
	_ = ints.Get().(interface{ Len() int }) // interface assertion
	_ = get[*[]int](&ints)                  // wrapper with the right type
	ints.Put(new([]int))                    // right type
	bufs.Put(nil)                           // nil
	var v any = 1
	ints.Put(v)                  // an interface value: unknown
	mixed.Put(new(bytes.Buffer)) // New returns two types
	_ = mixed.Get().(*bytes.Buffer)
	_ = mixed.Get().(*strings.Builder)
	_ = opaque.Get().(*bytes.Buffer) // New is a func value
	_ = nilNew.Get().(*bytes.Buffer) // New may return nil
	loose.Put(new(strings.Builder))  // no Get asserts a type of New
	_ = loose.Get()
}

var mixed = sync.Pool{New: func() any {
	if flip {
		return new(bytes.Buffer)
	}
	return new(strings.Builder)
}}

var makeNew = func() any { return new(bytes.Buffer) }

var opaque = sync.Pool{New: makeNew}

var nilNew = sync.Pool{New: func() any {
	if false {
		return nil
	}
	return new(bytes.Buffer)
}}

var loose = sync.Pool{New: func() any { return new(bytes.Buffer) }}
var flip bool

// net/http's copy buffers: the wrappers convert between []byte and the
// array pointer New returns, so the Put through putCopyBuf is right.

const copyBufSize = 32 * 1024

var copyBufPool = sync.Pool{New: func() any { return new([copyBufSize]byte) }}

func getCopyBuf() []byte { return copyBufPool.Get().(*[copyBufSize]byte)[:] }

func putCopyBuf(b []byte) { copyBufPool.Put((*[copyBufSize]byte)(b)) }

func useCopyBuf() {
	buf := getCopyBuf()
	defer putCopyBuf(buf)
}

// Generic pools: New returns *T, compared per instance, so stay quiet.

type gpool[T any] struct{ p sync.Pool }

func newGPool[T any]() *gpool[T] {
	return &gpool[T]{p: sync.Pool{New: func() any { return new(T) }}}
}

func (g *gpool[T]) get() *T { return g.p.Get().(*T) }

func (g *gpool[T]) getSlice() *[]T { return g.p.Get().(*[]T) }
