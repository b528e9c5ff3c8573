// Package again holds Puts followed by a new value taken into the same
// variable, or the same value taken back and checked by identity.
package again

import (
	"sync"
	"testing"
)

type item struct{ buf []byte }

var ip = sync.Pool{New: func() any { return new(item) }}

func get() *item  { return ip.Get().(*item) }
func put(s *item) { ip.Put(s) }

// ---- quiet ----

// A new value is taken into e inside the if: the Put there is of that one.
func reassignInIf(again bool) {
	e := ip.Get().(*item)
	ip.Put(e)
	if again {
		e = ip.Get().(*item)
		e.buf = append(e.buf[:0], 1)
		ip.Put(e)
	}
}

// Each branch takes a new value before using it.
func reassignBothBranches(n int) int {
	e := get()
	put(e)
	if n > 0 {
		e = get()
	} else {
		e = new(item)
	}
	return len(e.buf)
}

// Every case of the switch takes a new value.
func reassignSwitch(n int) []byte {
	e := get()
	put(e)
	switch n {
	case 0:
		e = get()
	default:
		e = &item{}
	}
	return e.buf
}

// The test takes the value back and skips unless the pool returned it.
func TestIdentity(t *testing.T) {
	s := get()
	put(s)
	again := get()
	if again != s {
		t.Skip("the pool dropped the value")
	}
	_ = s.buf
}

// The same with the comparison the other way round.
func TestIdentitySwapped(t *testing.T) {
	s := get()
	put(s)
	again := ip.Get().(*item)
	if s == again {
		s.buf = s.buf[:0]
	}
}

// ---- flagged ----

// The new value is taken only when again is true: otherwise e is the one
// put back.
func reassignMaybe(again bool) []byte {
	e := get()
	put(e)
	if again {
		e = get()
	}
	return e.buf // want `e is used after it was put back`
}

// A use inside the branch before the new value is taken.
func useThenReassign(again bool) {
	e := get()
	put(e)
	if again {
		e.buf = nil // want `e is used after it was put back`
		e = get()
	}
}

// A loop that may run zero times.
func reassignInLoop(n int) []byte {
	e := get()
	put(e)
	for i := 0; i < n; i++ {
		e = get()
	}
	return e.buf // want `e is used after it was put back`
}

// A switch without default may take no case.
func reassignSwitchNoDefault(n int) []byte {
	e := get()
	put(e)
	switch n {
	case 0:
		e = get()
	}
	return e.buf // want `e is used after it was put back`
}

// Comparing with a value not taken from a pool does not hand s back.
func TestNotRetaken(t *testing.T) {
	s := get()
	put(s)
	other := new(item)
	if other != s {
		t.Log("different")
	}
	_ = s.buf // want `s is used after it was put back`
}

// The post statement runs after the body, which took a new value.
func reassignBeforePost(n int) {
	e := get()
	put(e)
	for i := 0; i < n; e.buf = nil {
		e = get()
		i++
	}
}
