// Package wrap holds pool wrappers used from package a.
package wrap

import "sync"

// Put is a generic forwarder: it boxes v inside, so the cost is decided
// by the caller's T.
func Put[T any](p *sync.Pool, v T) { p.Put(v) }

// PutAny takes an interface: the caller boxes.
func PutAny(p *sync.Pool, v any) { p.Put(v) }
