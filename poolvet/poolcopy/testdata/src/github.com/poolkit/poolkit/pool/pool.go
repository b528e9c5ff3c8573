// Package pool is a stub of poolkit's pool package for analyzer tests: the
// same exported signatures, none of the behaviour.
package pool

import "sync"

type Pool[T any] struct {
	values sync.Pool
	newFn  func() T
}

type Option[T any] func(*Pool[T])

func New[T any](newFn func() T, opts ...Option[T]) *Pool[T] { return &Pool[T]{newFn: newFn} }

func (p *Pool[T]) Get() T {
	var zero T
	return zero
}

func (p *Pool[T]) Put(v T) {}
