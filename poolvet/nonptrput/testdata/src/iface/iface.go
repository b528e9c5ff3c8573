// Package iface puts values into pools reached through an interface
// shaped like sync.Pool, as a library's buffer pool option is.
package iface

// BufferPool is satisfied by *sync.Pool.
type BufferPool interface {
	Get() interface{}
	Put(interface{})
}

type poolData struct{ buf []byte }

type handle struct{ buf *[]byte }

type conn struct {
	pool BufferPool
	buf  []byte
}

// Flagged: the struct holding a slice, and the slice, are boxed.

func (c *conn) release() {
	c.pool.Put(poolData{buf: c.buf}) // want `^c.pool.Put of poolData \(a struct\) allocates on every call$`
	c.pool.Put(c.buf)                // want `c.pool.Put of \[\]byte \(a slice\)`
}

// Quiet: pointer-shaped values, and interfaces that are not pools.

func (c *conn) releasePtr(bp *[]byte) {
	c.pool.Put(bp)
	c.pool.Put(handle{buf: bp})
	c.pool.Put(nil)
}

// Sink takes values of any type, but it is not a pool: no Get.
type Sink interface{ Put(interface{}) }

// Typed is a pool of []byte: nothing is boxed at the call.
type Typed interface {
	Get() []byte
	Put([]byte)
}

func other(s Sink, t Typed, b []byte) {
	s.Put(b)
	t.Put(b)
}
