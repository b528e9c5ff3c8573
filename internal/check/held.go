package check

import (
	"fmt"
	"reflect"
	"sync"
)

const (
	// Quarantine is how many values a checked pool holds back after their
	// Put before it hands the oldest out again, as AddressSanitizer's
	// quarantine delays reuse: a value written after Put stays where the
	// next check sees it, instead of going straight to a new owner.
	Quarantine = 256
	// MaxHeld bounds the values a checked pool holds; beyond it the oldest
	// is checked and dropped.
	MaxHeld = 2 * Quarantine
	// MaxHeldBytes bounds the memory the values held reach, as far as Sum
	// reads it: a pool of gzip writers (some 800 KB each) holds a few
	// dozen, not 512.
	MaxHeldBytes = 16 << 20
	// SweepEvery is how many Gets and Puts of one pool pass between two
	// checks of every value it holds, so a write after Put is reported
	// within SweepEvery further calls even if the value is never handed
	// out again (and always before it is).
	SweepEvery = 128
)

// Held is the checked mode of a pool of values on the Go heap: a FIFO of
// the values Put, each with the checksum of its memory taken at Put and
// the place of the Put. The zero Held is ready to use.
type Held[T any] struct {
	mu    sync.Mutex
	q     []held[T] // oldest first
	ids   map[uintptr]Site
	ops   int
	bytes int // the sizes of the values held
}

// what names the values in reports.
func (h *Held[T]) what() string {
	return fmt.Sprintf("pool.Pool[%v] value", reflect.TypeFor[T]())
}

type held[T any] struct {
	v    T
	id   uintptr
	sum  uint64
	size int
	site Site
}

// CheckPut panics if the value with identity id (see Identity) is held:
// a second Put. id 0 is never held.
func (h *Held[T]) CheckPut(id uintptr) {
	if id == 0 {
		return
	}
	h.mu.Lock()
	first, ok := h.ids[id]
	h.mu.Unlock()
	if ok {
		PutTwice(h.what(), first)
	}
}

// Put holds v, which its Put at site has reset, recording its checksum.
func (h *Held[T]) Put(v T, site Site) {
	e := held[T]{v: v, id: Identity(&v), site: site}
	e.sum, e.size = SumSize(&v)
	h.mu.Lock()
	defer h.mu.Unlock()
	if e.id != 0 {
		if first, ok := h.ids[e.id]; ok {
			// A reset that returned a value already held.
			PutTwice(h.what(), first)
		}
		if h.ids == nil {
			h.ids = make(map[uintptr]Site)
		}
		h.ids[e.id] = site
	}
	h.q = append(h.q, e)
	h.bytes += e.size
	h.tick()
	for len(h.q) > MaxHeld || (h.bytes > MaxHeldBytes && len(h.q) > 1) {
		h.pop()
	}
}

// Get returns the oldest value held, checked, once more than Quarantine
// values are held; otherwise ok is false and the caller makes a new value.
func (h *Held[T]) Get() (v T, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.tick()
	if len(h.q) <= Quarantine {
		return v, false
	}
	return h.pop(), true
}

// pop removes the oldest value, checks it and returns it.
func (h *Held[T]) pop() T {
	e := h.q[0]
	var zero held[T]
	h.q[0] = zero
	h.q = h.q[1:]
	h.bytes -= e.size
	if len(h.q) == 0 {
		h.q = h.q[:0:0] // let append start over rather than creep through memory
	}
	if e.id != 0 {
		delete(h.ids, e.id)
	}
	h.verify(&e)
	return e.v
}

func (h *Held[T]) verify(e *held[T]) {
	if Sum(&e.v) != e.sum {
		WrittenAfterPut(h.what(), e.site)
	}
}

// tick counts a Get or Put and checks every held value each SweepEvery.
func (h *Held[T]) tick() {
	h.ops++
	if h.ops%SweepEvery != 0 {
		return
	}
	for i := range h.q {
		h.verify(&h.q[i])
	}
}
