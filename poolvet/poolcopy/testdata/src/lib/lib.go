// Package lib builds pools for package ctor.
package lib

import "sync"

// NewPool returns a fresh pool.
func NewPool() *sync.Pool {
	return &sync.Pool{New: func() any { return new([]byte) }}
}

// NewPoolMaybe returns a fresh pool, built one of two ways.
func NewPoolMaybe(big bool) *sync.Pool {
	if big {
		return &sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}
	}
	return new(sync.Pool)
}

var shared sync.Pool

// Shared returns the package's pool, which is in use.
func Shared() *sync.Pool { return &shared }

// Cached returns a fresh pool the first time and the same one after.
func Cached() *sync.Pool {
	if cached == nil {
		cached = &sync.Pool{}
	}
	return cached
}

var cached *sync.Pool
