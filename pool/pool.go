// Package pool provides Pool, a type-safe sync.Pool that allocates nothing
// per Get or Put for any element type.
//
// A Pool resets objects as they come back, can refuse to keep objects that
// should not be retained, and can count its traffic.
//
// A Pool fits the same cases as sync.Pool: many short-lived objects of one
// kind, created and dropped at a high rate by many goroutines, where reusing
// them takes work off the garbage collector. It does not fit long-lived
// objects, objects whose identity matters, or free lists owned by one
// short-lived object. Like sync.Pool, a Pool may drop any object at any time,
// in particular at every garbage collection, so it is a cache, never a store.
//
// # Ownership
//
// A value returned by Get belongs to the caller alone until the caller hands
// it back with Put. After Put the caller must not touch the value, nor
// anything that aliases it: the bytes returned by a buffer's Bytes method, a
// slice re-sliced from a pooled slice, a field of a pooled struct. Copy what
// you need out before Put.
//
// # Checked mode
//
// Built with -tags poolkitcheck, a Put of a value the pool already holds
// panics, naming the first Put's file:line, and a write to a pooled value
// after its Put is reported, naming the Put, when the value leaves the
// pool or at the latest 128 Gets and Puts later: Put checksums the memory
// the value owns (the pointee of a pointer T, a slice's backing array up
// to its capacity, and the backing arrays of the slices in those; not what
// pointers further down point at, which may be shared) after the reset,
// and the pool
// holds the last 256 values Put back from reuse (fewer when what they
// reach passes 16 MiB). The values come from the
// user's New, on the Go heap, so a read after Put is not caught. Values
// are identified for the double-Put check by their pointer, a slice by
// its backing array, a struct by its first slice field; numbers, strings,
// functions and interfaces are not. The root package doc, "Checked mode",
// says what the tag catches and what it cannot.
package pool

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/poolkit/internal/check"
)

// Pool is a set of reusable values of type T, safe for concurrent use.
//
// The zero value is ready to use: its Get returns the zero T when the pool is
// empty, as no New function was given. Use New to give it one, along with
// options. A Pool must not be copied after first use.
//
// Pointer-shaped types (pointers, maps, channels, functions and
// unsafe.Pointer) are stored in the underlying sync.Pool as they are. Other
// types, such as slices and small structs, would allocate an interface box on
// every Put; Pool stores them in *T boxes instead and recycles the boxes, so a
// Get followed by a Put allocates nothing in steady state whatever T is.
// GetPtr and PutPtr hand the box itself to the caller and back, which
// spares the recycling.
//
// # Cost
//
// For a pointer-shaped T and a pool without options, Get and Put are
// inlined into the caller and cost what the same calls on a raw sync.Pool
// cost, plus a load and a compare. So do GetPtr and PutPtr for a slice or
// interface T and a pool without options: they cost what a raw sync.Pool
// of *[]E with the slice header written back costs. Get and Put of boxed
// values, and options (reset, keep, stats), take a slower path through an
// interface method call: in BenchmarkGetPut a Get and Put of a []byte
// costs about three times one of a pointer, and a pointer pool with a
// reset function about twice.
type Pool[T any] struct {
	noCopy noCopy
	chk    checkState[T] // empty unless built with -tags poolkitcheck

	// mode is shapeUnknown until the first use works out how T is
	// stored, then shapePointer or shapeBoxed, with hooksBit set when the
	// pool has a reset or keep function or counts stats. Get and Put load
	// it once: a pointer-shaped pool without hooks (mode == shapePointer)
	// takes the fast path straight to values. It comes first so that it
	// shares a cache line with the fields of values that path reads.
	//
	// It is read and written only with atomic.LoadUint32 and
	// StoreUint32: the inliner counts those intrinsics as one node each,
	// where a call to atomic.Uint32's Load method can count as a full call
	// (depending on whether its body has been loaded yet) and push get and
	// put over the inlining budget.
	mode uint32

	values sync.Pool // T for pointer-shaped T, else *T
	boxes  sync.Pool // empty *T boxes, for non-pointer T only

	newFn func() T
	reset func(T) T
	keep  func(T) bool
	stats *counters // nil unless WithStats
	hooks bool      // set by New when any option was given
}

const (
	shapeUnknown uint32 = iota
	shapePointer
	shapeBoxed

	shapeMask uint32 = 3
	hooksBit  uint32 = 4
	// nilBit marks a boxed T that has a nil value, a slice or an
	// interface, whose first word is nil exactly when the value is nil.
	nilBit uint32 = 8
)

// Option configures a Pool made by New.
type Option[T any] func(*Pool[T])

// WithReset makes Put pass each value through reset before the pool keeps
// it, so that no state from one user reaches the next. reset returns the
// value to keep, which lets it truncate a slice (s[:0]) as well as clear a
// struct in place. reset runs only for values that keep accepts.
func WithReset[T any](reset func(T) T) Option[T] {
	return func(p *Pool[T]) { p.reset = reset }
}

// WithKeep makes Put keep a value only when keep returns true for it; other
// values are dropped for the garbage collector. Use it to avoid retaining
// values that grew unusually large, such as a buffer that held one huge
// request: a pool that keeps it pins that memory for every later user.
func WithKeep[T any](keep func(T) bool) Option[T] {
	return func(p *Pool[T]) { p.keep = keep }
}

// WithStats makes the pool count its Gets, Puts, News and drops, readable
// with Stats. The counters are atomic and shared, so they cost a few
// nanoseconds per call under contention; without WithStats they cost
// nothing.
func WithStats[T any]() Option[T] {
	return func(p *Pool[T]) { p.stats = new(counters) }
}

// New returns a Pool whose Get calls newFn when the pool is empty. newFn may
// be nil, in which case Get returns the zero T when the pool is empty.
func New[T any](newFn func() T, opts ...Option[T]) *Pool[T] {
	p := &Pool[T]{newFn: newFn}
	for _, opt := range opts {
		opt(p)
	}
	p.hooks = p.reset != nil || p.keep != nil || p.stats != nil
	if p.initMode() == shapePointer && newFn != nil {
		// The direct path calls only sync.Pool.Get, which calls this
		// when the pool is empty.
		p.values.New = func() any { return newFn() }
	}
	return p
}

// Get takes a value from the pool, or makes one with the pool's New function
// when the pool is empty (the zero T when there is none).
//
// The value belongs to the caller until it is passed to Put. Values taken
// from the pool were reset by Put when the pool has a reset function; values
// made by New are as New made them.
func (p *Pool[T]) Get() T {
	if check.Enabled {
		return p.checkedGet()
	}
	return get(p, (*sync.Pool).Get, slowPath[T].getSlow)
}

// get is Get. It is a separate function so that Get can pass it the two
// functions it calls as arguments: the inliner charges a call through a
// parameter a fraction of a direct call, which keeps Get within the
// inlining budget. Once inlined, a pointer-shaped pool without options
// costs its caller one load, one compare and the call to sync.Pool.Get,
// as a raw sync.Pool does; everything else is in getSlow.
func get[T any](p *Pool[T], poolGet func(*sync.Pool) any, slow func(slowPath[T]) T) T {
	if atomic.LoadUint32(&p.mode) == shapePointer {
		// values holds only T here. When it is empty its New, set by
		// New when there is a newFn, makes one; without one Get gives a
		// nil interface, whose data word is the zero T.
		return dataWord[T](poolGet(&p.values))
	}
	return slow(p)
}

// slowPath is the part of Pool that get and put reach through a method
// expression, which costs the inliner less than a direct call.
type slowPath[T any] interface {
	getSlow() T
	putSlow(T)
	getPtrSlow() *T
	putPtrSlow(*T)
}

// getSlow is Get for pools that are not yet set up, count stats or box
// their values.
func (p *Pool[T]) getSlow() T {
	if p.stats != nil {
		p.stats.gets.Add(1)
	}
	if p.modeOf()&shapeMask == shapePointer {
		if v := p.values.Get(); v != nil {
			return v.(T)
		}
		return p.make()
	}
	box, _ := p.values.Get().(*T)
	if box == nil {
		return p.make()
	}
	v := *box
	var zero T
	*box = zero // the box must not pin the value while it waits for reuse
	p.boxes.Put(box)
	return v
}

// Put hands v back to the pool for reuse. Put of a nil value (a nil
// pointer, map, channel, function, slice or interface) is a no-op, so that
// the next Get calls New rather than hand out a nil; so is a reset that
// returns nil. Zero values of other types, such as a zero struct or 0, are
// values like any other and are kept.
//
// After Put the caller must not use v again, nor anything that aliases it
// (bytes returned by its Bytes method, slices of it, its fields): the next
// Get, possibly on another goroutine, owns it. Copy out what you still need
// before calling Put.
func (p *Pool[T]) Put(v T) {
	if check.Enabled {
		p.checkedPut(v)
		return
	}
	put(p, v, (*sync.Pool).Put, slowPath[T].putSlow)
}

// put is Put, shaped like get so that Put inlines too.
func put[T any](p *Pool[T], v T, poolPut func(*sync.Pool, any), slow func(slowPath[T], T)) {
	if atomic.LoadUint32(&p.mode) == shapePointer {
		if !isNilPointer(&v) {
			poolPut(&p.values, v)
		}
		return
	}
	slow(p, v)
}

// putSlow is Put for pools that are not yet set up, have hooks or box
// their values.
func (p *Pool[T]) putSlow(v T) {
	p.store(v, nil)
}

// store is Put of v, with box, when it is not nil, the box to keep a
// boxed v in (PutPtr's); without one a recycled box is taken.
func (p *Pool[T]) store(v T, box *T) {
	mode := p.modeOf()
	shape := mode & shapeMask
	canBeNil := shape == shapePointer || mode&nilBit != 0
	var zero T
	if canBeNil && isNilPointer(&v) {
		p.dropBox(box)
		return
	}
	if p.stats != nil {
		p.stats.puts.Add(1)
	}
	if p.keep != nil && !p.keep(v) {
		if p.stats != nil {
			p.stats.drops.Add(1)
		}
		p.dropBox(box)
		return
	}
	if p.reset != nil {
		v = p.reset(v)
	}
	// A reset that returns nil must not put a nil into the sync.Pool:
	// Get would hand it out instead of calling New.
	if canBeNil && isNilPointer(&v) {
		p.dropBox(box)
		return
	}
	if shape == shapePointer {
		p.values.Put(v)
		if box != nil {
			*box = zero // the box must not pin the value while it waits for reuse
			p.boxes.Put(box)
		}
		return
	}
	if box == nil {
		box, _ = p.boxes.Get().(*T)
		if box == nil {
			box = new(T)
		}
	}
	*box = v
	p.values.Put(box)
}

// dropBox keeps box, PutPtr's box whose value was not kept, empty for
// reuse; a nil box is left alone.
func (p *Pool[T]) dropBox(box *T) {
	if box != nil {
		var zero T
		*box = zero
		p.boxes.Put(box)
	}
}

// GetPtr takes a value from the pool as Get does, and returns it in a box
// of its own, *T, that belongs to the caller until it passes the box to
// PutPtr. The caller reads and replaces the value through the box: for a
// slice, s := (*b)[:0], append to s, then *b = s before PutPtr(b), so that
// the grown slice, not the one taken, goes back.
//
// GetPtr and PutPtr are Get and Put for values that are not
// pointer-shaped (slices, strings, structs, interfaces): the pool keeps
// such values in *T boxes, and Get and Put move each value in and out of
// its box, which costs them a second sync.Pool operation each to recycle
// the box. GetPtr and PutPtr hand the box itself out and back, so they
// cost one sync.Pool operation each, as a hand-written sync.Pool of *[]E
// with the header written back does. For a pool of slices or interfaces
// without options they are inlined into the caller; for structs, strings
// and pools with options they take a slower path, which still needs no
// second sync.Pool operation once the pool holds boxes. For pointer-shaped
// T they work, but cost more than Get and Put, which need no box.
//
// Pools mix both pairs freely: a value Put can come back from GetPtr and
// one PutPtr from Get.
func (p *Pool[T]) GetPtr() *T {
	if check.Enabled {
		return p.checkedGetPtr()
	}
	return getPtr(p, (*sync.Pool).Get, slowPath[T].getPtrSlow)
}

// getPtr is GetPtr, shaped like get so that GetPtr inlines.
func getPtr[T any](p *Pool[T], poolGet func(*sync.Pool) any, slow func(slowPath[T]) *T) *T {
	if atomic.LoadUint32(&p.mode) == shapeBoxed|nilBit {
		// A pool of slices or interfaces without hooks: values holds
		// only *T boxes, each with a non-nil value.
		if box := dataWord[*T](poolGet(&p.values)); box != nil {
			return box
		}
	}
	return slow(p)
}

// getPtrSlow is GetPtr for an empty pool, and for pools that are not yet
// set up, have hooks or hold pointer-shaped values.
func (p *Pool[T]) getPtrSlow() *T {
	mode := p.modeOf()
	if mode&shapeMask == shapePointer {
		v := p.getSlow()
		box, _ := p.boxes.Get().(*T)
		if box == nil {
			box = new(T)
		}
		*box = v
		return box
	}
	if p.stats != nil {
		p.stats.gets.Add(1)
	}
	if box, _ := p.values.Get().(*T); box != nil {
		return box
	}
	box := new(T)
	*box = p.make()
	return box
}

// PutPtr hands the box b, which GetPtr returned, back to the pool with
// the value *b, as Put(*b) would: a nil *b is not kept, and the pool's
// keep and reset functions apply to *b. PutPtr(nil) is a no-op.
//
// After PutPtr the caller must not use b, *b, nor anything that aliases
// *b (a slice re-sliced from it, its bytes): the next Get or GetPtr,
// possibly on another goroutine, owns them. Copy out what you still need
// before calling PutPtr.
func (p *Pool[T]) PutPtr(b *T) {
	if check.Enabled {
		p.checkedPutPtr(b)
		return
	}
	putPtr(p, b, (*sync.Pool).Put, slowPath[T].putPtrSlow)
}

// putPtr is PutPtr, shaped like put so that PutPtr inlines.
func putPtr[T any](p *Pool[T], b *T, poolPut func(*sync.Pool, any), slow func(slowPath[T], *T)) {
	// A boxed pool without hooks whose T can be nil (a slice or an
	// interface) keeps b as it is unless *b is nil; a nil b or a value of
	// another shape goes the slow way.
	if atomic.LoadUint32(&p.mode) == shapeBoxed|nilBit && b != nil && !isNilPointer(b) {
		poolPut(&p.values, b)
		return
	}
	slow(p, b)
}

// putPtrSlow is PutPtr for a nil box or value, and for pools that are not
// yet set up, have hooks or hold values other than slices and interfaces.
func (p *Pool[T]) putPtrSlow(b *T) {
	if b != nil {
		p.store(*b, b)
	}
}

// Stats returns the pool's counts. They are all zero, and Counting is
// false, unless the pool was made with WithStats.
func (p *Pool[T]) Stats() Stats {
	if p.stats == nil {
		return Stats{}
	}
	return Stats{
		Gets:     p.stats.gets.Load(),
		Puts:     p.stats.puts.Load(),
		News:     p.stats.news.Load(),
		Drops:    p.stats.drops.Load(),
		Counting: true,
	}
}

type counters struct {
	gets, puts, news, drops atomic.Uint64
}

func (p *Pool[T]) make() T {
	if p.stats != nil {
		p.stats.news.Add(1)
	}
	if p.newFn == nil {
		var zero T
		return zero
	}
	return p.newFn()
}

// modeOf returns p.mode, working it out on first use so that the zero
// Pool needs no constructor.
func (p *Pool[T]) modeOf() uint32 {
	if m := atomic.LoadUint32(&p.mode); m != shapeUnknown {
		return m
	}
	return p.initMode()
}

// initMode works out how values of T are stored and records it, with
// whether the pool has hooks, in p.mode.
func (p *Pool[T]) initMode() uint32 {
	m := shapeBoxed
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan, reflect.Func:
		m = shapePointer
	case reflect.Slice, reflect.Interface:
		m |= nilBit
	}
	if p.hooks {
		m |= hooksBit
	}
	atomic.StoreUint32(&p.mode, m)
	return m
}

// dataWord returns the value held in x, whose dynamic type is T or which is
// nil, for a pointer-shaped T.
//
// An interface holds a pointer-shaped value in its data word, the second of
// its two words, so that word is the value; a nil interface has a nil data
// word, which is the zero T. This spares get a type assertion, which would
// cost it its place in the inlining budget.
func dataWord[T any](x any) T {
	type eface struct{ typ, data unsafe.Pointer }
	return *(*T)(unsafe.Pointer(&(*eface)(unsafe.Pointer(&x)).data))
}

// isNilPointer reports whether *v, whose type is pointer-shaped, a slice
// or an interface, is nil.
//
// It reads the value's first word as one machine pointer. That word is the
// value itself for pointers, maps, channels, functions and unsafe.Pointer
// (the kinds initMode classifies as shapePointer), a slice's data pointer
// (nil only for a nil slice; an empty non-nil slice points at something)
// and an interface's type word (nil only for a nil interface). Those are
// the only cases in which this is called.
func isNilPointer[T any](v *T) bool {
	return *(*unsafe.Pointer)(unsafe.Pointer(v)) == nil
}

// noCopy may be embedded into structs which must not be copied after first
// use; go vet's copylocks check reports copies of it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
