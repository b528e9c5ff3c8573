// Package slicepool is a stub of poolkit's slicepool package for analyzer tests.
package slicepool

type Pool[E any] struct{ MaxCap int }

func (p *Pool[E]) Get(n int) []E { return make([]E, 0, n) }
func (p *Pool[E]) Put(s []E)     {}
