// Package pool is a stub of poolkit's pool package for analyzer tests.
package pool

type Pool[T any] struct{ newFn func() T }

type Option[T any] func(*Pool[T])

func WithReset[T any](reset func(T) T) Option[T]  { return nil }
func WithKeep[T any](keep func(T) bool) Option[T] { return nil }

func New[T any](newFn func() T, opts ...Option[T]) *Pool[T] { return &Pool[T]{newFn: newFn} }

func (p *Pool[T]) Get() T  { return p.newFn() }
func (p *Pool[T]) Put(v T) {}
