//go:build !poolkitcheck

package slicepool

// Without the poolkitcheck tag the checked-mode state is empty, costing a
// Pool no space, and the checked paths are never called: Get and Put test
// the constant check.Enabled, so the compiler drops the calls.
type poolCheck[E any] struct{}

func (p *Pool[E]) checkedGet(n int) []E { _ = p.chk; panic("unreachable: checked mode is off") }
func (p *Pool[E]) checkedPut(s []E)     { panic("unreachable: checked mode is off") }
