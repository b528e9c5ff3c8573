// Package slicepool provides Pool, a pool of slices in power-of-two size
// classes whose Get(n) never has to grow.
//
// A Get(n) always returns a slice that can hold n elements without
// growing, and neither Get nor Put allocates in steady state.
//
// Pooling a slice through a raw sync.Pool is easy to get wrong: Put(s)
// boxes the three-word slice header into a new interface on every call (one
// allocation per Put, which staticcheck reports as SA6002), and Put(&s) of
// a local makes s escape. Pool needs no header
// at all: within a size class the capacity is known, so it keeps only the
// pointer to the first element, which fits in an interface without
// allocating, and rebuilds the slice on Get. That is one sync.Pool
// operation per Get and per Put, as cheap as the header write-back pattern,
// with no boxes for the caller to manage.
//
// # Checked mode
//
// Built with -tags poolkitcheck, Get makes the slices of pointer-free
// element types in their own page-aligned mappings (syscall.Mmap), which
// Put makes inaccessible (mprotect PROT_NONE) until a Get hands them out
// again, so a read or write through a slice after its Put faults at that
// instruction; a pool holds up to 64 slices per size class back from
// reuse to keep them faulting. Slices of element types with pointers, and
// slices the pool did not make, are checksummed at Put instead, and a
// write after Put is reported when the slice leaves the pool or within 128
// Gets and Puts. A second Put of the same slice panics, naming the first.
// Other systems than Linux poison the pointer-free slices instead of
// protecting them: writes are reported, reads see 0xDB bytes.
//
// # Stats
//
// After EnableStats, Stats returns a pool.Stats, the counts every poolkit
// pool shares, so that poolstats and poolprom can publish the pool. Before
// poolkit 1.0 it returned a slicepool.Stats with the same fields: write
// pool.Stats where you wrote slicepool.Stats.
package slicepool

import (
	"math/bits"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/poolkit/internal/check"
	"github.com/poolkit/poolkit/pool"
)

// DefaultMaxCap is the largest capacity, in elements, that the zero Pool
// keeps. Larger slices are served by Get but dropped by Put, so that one
// unusually large request does not pin its memory for every later user of
// the pool (the same reasoning as fmt's 64 KiB cap, go.dev/issue/23199).
const DefaultMaxCap = 1 << 16

// minClass is the smallest size class: Get never returns a capacity below
// 1<<minClass, so tiny requests share one class instead of spreading over
// several nearly empty ones. It is no larger than that, because when E
// holds pointers Put clears the whole capacity, at a cost that grows with
// it: a Get(5) served with 16 elements would clear 16 on every Put.
const minClass = 3

// Pool is a pool of []E, safe for concurrent use. The zero value is ready to
// use and keeps slices of capacity up to DefaultMaxCap. A Pool must not be
// copied after first use.
type Pool[E any] struct {
	noCopy noCopy
	chk    poolCheck[E] // empty unless built with -tags poolkitcheck

	// MaxCap is the largest capacity, in elements, that Put keeps; zero
	// means DefaultMaxCap. It is rounded up to a power of two, the size of
	// the class that serves Get(MaxCap), so that every slice Get returns
	// for an n up to MaxCap is kept by Put. Set it before first use:
	// the pool reads it once, on its first Get or Put.
	MaxCap int

	// info is zero until the first Get or Put, then
	// span<<2 | hasPointers<<1 | 1, where span is 1 + the largest
	// capacity kept - the smallest (1<<minClass), so that a capacity c is
	// kept exactly when uint(c - 1<<minClass) < span, and hasPointers says
	// whether Put must clear elements. One load and one compare tell Get
	// and Put whether the fast path applies; span is zero before the
	// first use and while the pool counts stats, which sends every call
	// to the slow path.
	info atomic.Uint64

	// classes[k] holds *E pointing at the first element of an array of
	// at least 1<<k elements.
	classes [bits.UintSize]sync.Pool

	stats counters
}

// Get returns a slice of length 0 and capacity at least n, taken from the
// pool when one of the right size class is there, else newly made. For n up
// to MaxCap the capacity is that of n's size class, the power of two at or
// above n (at least 8); larger requests get exactly n and are not kept by
// Put. A negative n counts as 0.
//
// The slice belongs to the caller until it is passed to Put; its elements
// beyond the length are zero when E holds pointers (Put cleared them) and
// may hold old data otherwise.
func (p *Pool[E]) Get(n int) []E {
	if check.Enabled {
		return p.checkedGet(n)
	}
	c := classOf(n)
	size := 1 << (c & (bits.UintSize - 1)) // c < bits.UintSize: the mask only spares the compiler's shift check
	if keeps(p.info.Load(), size) {
		if first := firstOf(p.classes[c].Get()); first != nil {
			return emptySlice[E](first, size)
		}
		return make([]E, 0, size)
	}
	return p.getOther(n)
}

// Put hands s back to the pool. Slices with a capacity above the pool's
// MaxCap are dropped, as are slices too small to be worth keeping (nil
// among them). When E holds pointers, every element up to the capacity is
// cleared first so the pooled slice pins nothing. A slice whose capacity is
// not a power of two is kept in the class below it and handed out with that
// class's capacity.
//
// After Put the caller must not use s again, nor any slice sharing its
// backing array: the next Get, possibly on another goroutine, owns it.
func (p *Pool[E]) Put(s []E) {
	if check.Enabled {
		p.checkedPut(s)
		return
	}
	info := p.info.Load()
	c := cap(s)
	if !keeps(info, c) {
		p.putOther(s)
		return
	}
	if info&2 != 0 { // E holds pointers
		clear(s[:c])
	}
	// Only the pointer to the first element is kept: a pointer goes into
	// an interface without allocating, where a slice header would be
	// boxed. The class is the floor of log2(c), so the array holds at
	// least the 1<<k elements Get will rebuild the slice with.
	p.classes[bits.Len(uint(c))-1].Put(unsafe.SliceData(s[:c]))
}

// keeps reports whether a pool with the given info keeps slices of
// capacity c: whether c is within [1<<minClass, the largest capacity
// kept], which is never while info's span is zero.
func keeps(info uint64, c int) bool {
	return uint64(c-1<<minClass) < info>>2
}

// maxMaxClass is the largest class a MaxCap can select: 1<<maxMaxClass is
// the largest power of two an int can hold with room to spare, and
// info's span, shifted left by two, still fits in 64 bits.
const maxMaxClass = bits.UintSize - 2

// maxClass returns the largest class the pool keeps.
func (p *Pool[E]) maxClass() int {
	switch {
	case p.MaxCap > 1<<maxMaxClass:
		return maxMaxClass
	case p.MaxCap > 0:
		return classOf(p.MaxCap)
	}
	return classOf(DefaultMaxCap)
}

// fullInfo returns p.info as it is when the pool does not count stats:
// the span of capacities kept and whether E holds pointers.
func (p *Pool[E]) fullInfo() uint64 {
	span := uint64(1)<<p.maxClass() - 1<<minClass + 1
	info := span<<2 | 1
	if check.HasPointers(reflect.TypeFor[E]()) {
		info |= 2
	}
	return info
}

// init works out p.info on first use, so that the zero Pool needs no
// constructor, and returns it.
func (p *Pool[E]) init() uint64 {
	info := p.fullInfo()
	// Concurrent first uses compute the same value; any of them may
	// win, but none may undo EnableStats.
	if !p.info.CompareAndSwap(0, info) {
		return p.info.Load()
	}
	return info
}

// EnableStats makes the pool count its Gets, Puts, News and Drops, for
// Stats. Call it before the pool is used, so that the counts start
// together.
//
// Counting costs nothing until it is enabled: it sets the span of
// capacities that Get and Put compare with to zero, so that every Get and
// Put takes the slow path, which counts and then does what the fast path
// would have done, at the cost of a call and the shared counters' atomic
// adds.
func (p *Pool[E]) EnableStats() {
	for {
		info := p.info.Load()
		if info == 0 {
			info = p.init()
		}
		if info>>2 == 0 {
			return // already counting
		}
		p.stats.info.Store(info)
		if p.info.CompareAndSwap(info, info&3) {
			return
		}
	}
}

// Stats returns the pool's counts since EnableStats; without it they are
// all zero. Puts counts the Puts of a slice of non-zero capacity, News
// the Gets that made a slice (the class was empty, or n was above
// MaxCap), and Drops the Puts whose slice was not kept (under 8 or over
// MaxCap elements).
func (p *Pool[E]) Stats() pool.Stats {
	return pool.Stats{
		Gets:     p.stats.gets.Load(),
		Puts:     p.stats.puts.Load(),
		News:     p.stats.news.Load(),
		Drops:    p.stats.drops.Load(),
		Counting: p.stats.info.Load() != 0,
	}
}

// counters are a Pool's stats.
type counters struct {
	// info is the pool's info as it was before EnableStats zeroed its
	// span; zero while the pool is not counting.
	info                    atomic.Uint64
	gets, puts, news, drops atomic.Uint64
}

// slowInfo returns the info that Get and Put go by on their slow path,
// setting the pool up on its first use: that from before EnableStats when
// the pool counts (and then counting is true), else p.info.
func (p *Pool[E]) slowInfo() (info uint64, counting bool) {
	info = p.info.Load()
	if info == 0 {
		info = p.init()
	}
	if si := p.stats.info.Load(); si != 0 {
		return si, true
	}
	return info, false
}

// getOther is Get for a request over MaxCap, for the first Get of a pool
// and for every Get of a pool with stats.
func (p *Pool[E]) getOther(n int) []E {
	c := classOf(n)
	size := 1 << (c & (bits.UintSize - 1))
	info, counting := p.slowInfo()
	if counting {
		p.stats.gets.Add(1)
	}
	if !keeps(info, size) { // over MaxCap
		if counting {
			p.stats.news.Add(1)
		}
		return make([]E, 0, max(n, 0)) // never kept, so not worth rounding up
	}
	if first := firstOf(p.classes[c].Get()); first != nil {
		return emptySlice[E](first, size)
	}
	if counting {
		p.stats.news.Add(1)
	}
	return make([]E, 0, size)
}

// putOther is Put for a slice the pool does not keep, for the first Put
// of a pool and for every Put of a pool with stats.
func (p *Pool[E]) putOther(s []E) {
	info, counting := p.slowInfo()
	c := cap(s)
	if c == 0 {
		return
	}
	if counting {
		p.stats.puts.Add(1)
	}
	if !keeps(info, c) {
		if counting {
			p.stats.drops.Add(1)
		}
		return
	}
	if info&2 != 0 { // as in Put
		clear(s[:c])
	}
	p.classes[bits.Len(uint(c))-1].Put(unsafe.SliceData(s[:c]))
}

// firstOf returns the pointer held in x, an interface that a sync.Pool of
// the pool's classes returned: nil or a *E that Put stored, pointing at
// the first element of a pooled array.
//
// It reads the interface's data word, which for a pointer is the pointer
// itself and for a nil interface is nil, rather than assert x.(*E): the
// classes hold nothing else, so the assertion's load of *E's type from
// the generic dictionary and its compare would buy nothing.
func firstOf(x any) unsafe.Pointer {
	type eface struct{ typ, data unsafe.Pointer }
	return (*eface)(unsafe.Pointer(&x)).data
}

// emptySlice returns a slice of length 0 and capacity size over the array
// whose first element first points at, which must hold at least size
// elements of E (Put stored first for a slice of at least that capacity,
// and the pointer kept the array alive while it was pooled).
//
// It builds the slice header itself rather than call unsafe.Slice, whose
// checks that size is not negative and that size elements fit in the
// address space take ten instructions on amd64 and cannot fail here: size
// is a power of two no larger than MaxCap rounded up, and no larger than
// the capacity the array was made with.
func emptySlice[E any](first unsafe.Pointer, size int) []E {
	type sliceHeader struct {
		data     unsafe.Pointer
		len, cap int
	}
	h := sliceHeader{first, 0, size}
	return *(*[]E)(unsafe.Pointer(&h))
}

// classOf returns the size class for a request of n elements: the smallest
// k >= minClass with 1<<k >= n.
func classOf(n int) int {
	// For n up to 1<<minClass the operand is 1<<minClass - 1, whose
	// length is minClass; above, setting the low bits of n-1 does not
	// change its length.
	return bits.Len(uint(max(n, 1)-1) | (1<<minClass - 1))
}

// noCopy may be embedded into structs which must not be copied after first
// use; go vet's copylocks check reports copies of it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
