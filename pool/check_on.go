//go:build poolkitcheck

package pool

import "github.com/poolkit/poolkit/internal/check"

// checkState is a Pool's checked mode: the values it holds back after Put
// and their checksums. Values of a Pool come from the user's New, on the
// Go heap, so they cannot be page-protected: a write after Put is found
// by checksum instead, and a read after Put is not found at all.
type checkState[T any] struct {
	held check.Held[T]
}

// checkedGet is Get in checked mode: the oldest value held once the
// quarantine is full, its checksum verified, else a new one.
func (p *Pool[T]) checkedGet() T {
	p.modeOf()
	if p.stats != nil {
		p.stats.gets.Add(1)
	}
	if v, ok := p.chk.held.Get(); ok {
		return v
	}
	return p.make()
}

// checkedPut is Put in checked mode: it refuses a value already held
// (a second Put), then keeps and resets as Put does, and holds the reset
// value with a checksum of the memory it reaches, without sync.Pool, so
// that no garbage collection drops it unchecked.
func (p *Pool[T]) checkedPut(v T) {
	mode := p.modeOf()
	canBeNil := mode&shapeMask == shapePointer || mode&nilBit != 0
	if canBeNil && isNilPointer(&v) {
		return
	}
	site := check.Caller()
	p.chk.held.CheckPut(check.Identity(&v))
	if p.stats != nil {
		p.stats.puts.Add(1)
	}
	if p.keep != nil && !p.keep(v) {
		if p.stats != nil {
			p.stats.drops.Add(1)
		}
		return
	}
	if p.reset != nil {
		v = p.reset(v)
		if canBeNil && isNilPointer(&v) {
			return
		}
	}
	p.chk.held.Put(v, site)
}

// checkedGetPtr is GetPtr in checked mode: checkedGet's value in a new
// box.
func (p *Pool[T]) checkedGetPtr() *T {
	box := new(T)
	*box = p.checkedGet()
	return box
}

// checkedPutPtr is PutPtr in checked mode: checkedPut of the value. The
// box is left as it is, so that a second PutPtr of it is a second Put of
// the same value, which checkedPut reports; the box itself is not
// checked after PutPtr, but what the value owns is.
func (p *Pool[T]) checkedPutPtr(b *T) {
	if b == nil {
		return
	}
	p.checkedPut(*b)
}
