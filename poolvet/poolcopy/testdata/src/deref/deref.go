// Package deref holds copies of pools made by dereferencing a pointer.
package deref

import (
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
)

type Encoder struct {
	name string
	bufs sync.Pool
}

type Server struct {
	enc Encoder // nested: the pool is inside Encoder
	n   int
}

type KitCache struct {
	p *pool.Pool[*[]byte] // a pointer: copying it shares the pool, fine
	b bytebuf.Pool
}

var std = &Encoder{name: "std"}

// Default returns the shared encoder.
func Default() *Encoder { return std }

type Plain struct {
	name string
	n    int
}

// ---- flagged ----

func copies(p *Encoder, s *Server, k *KitCache) {
	e := *Default() // want `^\*Default\(\) copies a sync.Pool \(Encoder.bufs\)$`
	_ = e
	c := *p // want `\*p copies a sync.Pool \(Encoder.bufs\)`
	_ = c
	var srv = *s // want `\*s copies a sync.Pool \(Encoder.bufs\)`
	_ = srv
	var kc KitCache
	kc = *k // want `\*k copies a bytebuf.Pool \(KitCache.b\)`
	_ = kc
}

func byValue(e Encoder) string { return e.name }

func passed(p *Encoder) string {
	return byValue(*p) // want `\*p copies a sync.Pool`
}

func returned(p *Server) Server {
	return *p // want `\*p copies a sync.Pool`
}

func inLiteral(p *Encoder) Server {
	return Server{enc: *p, n: 1} // want `\*p copies a sync.Pool`
}

func sent(ch chan Encoder) {
	ch <- *Default() // want `sending \*Default\(\) on a channel copies a sync.Pool`
}

// ---- clean ----

func clean(p *Encoder, s *Server, q *Plain, k *KitCache) {
	ptr := p // the pointer, not the pool
	_ = ptr
	name := (*p).name // a field read
	_ = name
	pl := *q // no pool in Plain
	_ = pl
	addr := &*p
	_ = addr
	inner := &s.enc // a pointer to the nested pool
	_ = inner
	*p = Encoder{} // assigning into *p copies a fresh value in: copylocks' business
	fresh := *new(Encoder)
	_ = fresh
	kp := k.p // a pointer to a poolkit pool
	_ = kp
	n := (*s).n
	_ = n
	(*p).bufs.Put(1)
}

// A constructor returning a fresh value: nothing shared yet.
func newEncoder() *Encoder { return &Encoder{name: "x"} }

func fromFresh() {
	e := *newEncoder()
	_ = e.name
}

// Hand-off by return of the pointer.
func handOff() *Encoder { return Default() }
