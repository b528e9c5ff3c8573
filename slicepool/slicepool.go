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
// several nearly empty ones.
const minClass = 4

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
	// maxClass<<2 | hasPointers<<1 | 1, where 1<<maxClass is the largest
	// capacity kept and hasPointers says whether Put must clear elements.
	// One load tells Get and Put all they need about the pool.
	info atomic.Uint64

	// classes[k] holds *E pointing at the first element of an array of
	// at least 1<<k elements.
	classes [bits.UintSize]sync.Pool

	stats counters
}

// Get returns a slice of length 0 and capacity at least n, taken from the
// pool when one of the right size class is there, else newly made. For n up
// to MaxCap the capacity is that of n's size class, the power of two at or
// above n (at least 16); larger requests get exactly n and are not kept by
// Put. A negative n counts as 0.
//
// The slice belongs to the caller until it is passed to Put; its elements
// beyond the length are zero when E holds pointers (Put cleared them) and
// may hold old data otherwise.
func (p *Pool[E]) Get(n int) []E {
	if check.Enabled {
		return p.checkedGet(n)
	}
	info := p.info.Load()
	if info == 0 {
		info = p.init()
	}
	c := classOf(n)
	if c > int(info>>2) { // always, with stats: see EnableStats
		return p.getOther(n, c)
	}
	if first, _ := p.classes[c].Get().(*E); first != nil {
		// Put stored a pointer to the start of an array with at least
		// 1<<c elements, so this slice stays within that one allocation,
		// which the pointer kept alive while it was pooled.
		return unsafe.Slice(first, 1<<c)[:0]
	}
	return make([]E, 0, 1<<c)
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
	if info == 0 {
		info = p.init()
	}
	c := cap(s)
	if c < 1<<minClass || c > 1<<(info>>2) { // always, with stats
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

// maxMaxClass is the largest class a MaxCap can select: 1<<maxMaxClass is
// the largest power of two an int can hold with room to spare.
const maxMaxClass = bits.UintSize - 2

// init works out p.info on first use, so that the zero Pool needs no
// constructor.
func (p *Pool[E]) init() uint64 {
	maxClass := classOf(DefaultMaxCap)
	switch {
	case p.MaxCap > 1<<maxMaxClass:
		maxClass = maxMaxClass
	case p.MaxCap > 0:
		maxClass = classOf(p.MaxCap)
	}
	info := uint64(maxClass)<<2 | 1
	if check.HasPointers(reflect.TypeFor[E]()) {
		info |= 2
	}
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
// Counting costs nothing until it is enabled: it sets the largest class
// that Get and Put compare with to zero, so that every Get and Put takes
// the path of an oversized slice, which counts and then does what the
// fast path would have done, at the cost of a call and the shared
// counters' atomic adds.
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
// MaxCap), and Drops the Puts whose slice was not kept (under 16 or over
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
	// largest class; zero while the pool is not counting.
	info                    atomic.Uint64
	gets, puts, news, drops atomic.Uint64
}

// getOther is Get for a request over MaxCap, and for every Get of a pool
// with stats.
func (p *Pool[E]) getOther(n, c int) []E {
	info := p.stats.info.Load()
	if info == 0 {
		return make([]E, 0, n) // never kept, so not worth rounding up
	}
	p.stats.gets.Add(1)
	if c > int(info>>2) {
		p.stats.news.Add(1)
		return make([]E, 0, n)
	}
	if first, _ := p.classes[c].Get().(*E); first != nil {
		return unsafe.Slice(first, 1<<c)[:0] // as in Get
	}
	p.stats.news.Add(1)
	return make([]E, 0, 1<<c)
}

// putOther is Put for a slice the pool does not keep, and for every Put
// of a pool with stats.
func (p *Pool[E]) putOther(s []E) {
	info := p.stats.info.Load()
	if info == 0 {
		return
	}
	c := cap(s)
	if c == 0 {
		return
	}
	p.stats.puts.Add(1)
	if c < 1<<minClass || c > 1<<(info>>2) {
		p.stats.drops.Add(1)
		return
	}
	if info&2 != 0 { // as in Put
		clear(s[:c])
	}
	p.classes[bits.Len(uint(c))-1].Put(unsafe.SliceData(s[:c]))
}

// classOf returns the size class for a request of n elements: the smallest
// k >= minClass with 1<<k >= n.
func classOf(n int) int {
	if n <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(n - 1))
}

// noCopy may be embedded into structs which must not be copied after first
// use; go vet's copylocks check reports copies of it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
