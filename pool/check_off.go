//go:build !poolkitcheck

package pool

// checkState is empty without the poolkitcheck tag: it costs a Pool no
// space, and the checked paths below are never called (Get and Put test
// the constant check.Enabled, so the compiler drops the calls).
type checkState[T any] struct{}

func (p *Pool[T]) checkedGet() T  { _ = p.chk; panic("unreachable: checked mode is off") }
func (p *Pool[T]) checkedPut(v T) { panic("unreachable: checked mode is off") }

func (p *Pool[T]) checkedGetPtr() *T  { panic("unreachable: checked mode is off") }
func (p *Pool[T]) checkedPutPtr(b *T) { panic("unreachable: checked mode is off") }
