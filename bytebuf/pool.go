package bytebuf

import (
	"cmp"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/check"
	"github.com/poolkit/poolkit/pool"
)

// MaxRetainedCap is the largest buffer capacity, in bytes, that any Pool
// keeps, calibrated or not. It bounds what a pool can pin before it has seen
// enough traffic to calibrate; after calibration the pool's own limit,
// learnt from the lengths it serves, is usually far lower.
const MaxRetainedCap = 16 << 20

const (
	minClassBits = 6 // the smallest size class holds up to 64 bytes
	// numClasses size classes of doubling size cover 64 B to MaxRetainedCap.
	numClasses = 24 - minClassBits + 1

	// sampleMask makes Put record the length of about one Put in 32:
	// each buffer counts its own Puts and samples one when the count
	// reaches a multiple of 64, then moves the count to a random point so
	// the next sample comes 1 to 64 Puts later, which no periodic pattern
	// in the workload can alias with. Sampling keeps the calibration counters out of the hot path:
	// the counters are shared, so touching them on every Put would make
	// them a point of contention between cores (the cost that makes
	// valyala/bytebufferpool 2-6x slower than a raw sync.Pool under
	// b.RunParallel). Counting in the buffer touches no shared state and
	// draws a random number only for sampled Puts (a math/rand/v2 draw
	// on every Put cost about a third of a Get, write 64 bytes, Put
	// cycle).
	sampleMask = 64 - 1
	// calibrateAfter is the number of sampled lengths, about 16,600 Puts,
	// after which the pool recalibrates.
	calibrateAfter = 512
	// maxPercentile is the share of sampled lengths, in percent, that the
	// calibrated maximum size must cover.
	maxPercentile = 95

	// When the traffic shifts to longer buffers than the last calibration
	// saw, every Put drops its buffer and every Get makes a new one. Waiting
	// for calibrateAfter samples would cost some 16,000 allocations, so a
	// run of dropsBeforeRecalibrate drops since the last calibration
	// recalibrates early, once minSamples lengths are there to go on. Rare
	// huge buffers, the ones dropping is for, stay too few to trigger it
	// and too few in the samples to raise the maximum.
	dropsBeforeRecalibrate = 128
	minSamples             = 16
)

// Pool is a pool of Buffers, safe for concurrent use. The zero value is
// ready to use. A Pool must not be copied after first use.
//
// A Pool calibrates itself from the lengths of the buffers put back into
// it: new buffers start with the capacity most buffers ended up needing,
// and buffers much larger than what 95% of users needed are dropped rather
// than kept, so that a rare huge request does not pin its memory in the
// pool. Before the first calibration, and always, buffers larger than
// MaxRetainedCap are dropped.
type Pool struct {
	noCopy noCopy
	chk    poolCheck // empty unless built with -tags poolkitcheck

	buffers sync.Pool // *Buffer

	// Written only when calibrating.
	defaultSize atomic.Int64 // capacity of new buffers; 0 until calibrated
	// maxSizeCut is MaxRetainedCap minus the largest capacity kept, so that
	// the zero Pool keeps up to MaxRetainedCap with no case for zero on
	// the path of every Put; EnableStats adds statsBit to it. It is
	// accessed with atomic.LoadUint32 and
	// StoreUint32, which the inliner counts as single nodes (atomic.Uint32's
	// methods can count as calls), to keep Put within the inlining budget.
	maxSizeCut uint32

	// Keeps the counters below, written by sampled Puts, off the cache
	// line of the fields above, read by every Put.
	_ [64]byte

	// Calibration state, touched on sampled Puts only.
	counts      [numClasses]atomic.Uint32
	sampled     atomic.Uint32
	calibrating atomic.Bool

	calibrations atomic.Uint64
	drops        atomic.Uint64
	dropsAtCal   atomic.Uint64 // drops at the last calibration

	// Traffic counts: news always, on the path that allocates; hits and
	// puts only with EnableStats.
	news, newsAtEnable, puts atomic.Uint64
	// hits is updated with atomic.AddUint64, which the inliner counts as
	// one node where atomic.Uint64's Add method would push the
	// package-level Get over the budget. It follows atomic.Uint64 fields,
	// so it is 8-byte aligned on 32-bit platforms too.
	hits uint64
}

// Get returns an empty buffer from the pool, or a new one with the pool's
// calibrated default capacity when the pool is empty.
//
// The buffer belongs to the caller until it is passed to Put. Do not Put it
// while anything still uses its Bytes.
func (p *Pool) Get() *Buffer {
	if check.Enabled {
		return p.checkedGet()
	}
	return p.get((*sync.Pool).Get, (*Pool).newBuffer)
}

// get is Get. Get passes it the functions it calls as arguments, which the
// inliner charges a fraction of a direct call, so that Get and the
// package-level Get are inlined into their callers: a Get from a non-empty
// pool costs the caller what a raw sync.Pool's Get does.
func (p *Pool) get(poolGet func(*sync.Pool) any, newBuffer func(*Pool) *Buffer) *Buffer {
	if b, _ := poolGet(&p.buffers).(*Buffer); b != nil {
		b.B = b.B[:0]       // here rather than in put, whose budget is tighter
		if b.counted == p { // only with EnableStats: one compare otherwise
			atomic.AddUint64(&p.hits, 1)
		}
		return b
	}
	return newBuffer(p)
}

// newBuffer makes a buffer for a Get from an empty pool.
func (p *Pool) newBuffer() *Buffer {
	// A new buffer starts its Put count at a random point, so that the
	// first Put of every new buffer, such as each of a run of huge
	// buffers that are made and dropped, is not always sampled.
	b := &Buffer{puts: rand.Uint32()}
	p.news.Add(1) // on the path that allocates anyway
	if n := p.defaultSize.Load(); n > 0 {
		b.B = make([]byte, 0, n)
	}
	return b
}

// Put hands b back to the pool, or drops it when its capacity is beyond what
// the pool keeps. Put(nil) is a no-op. The next Get empties b before handing
// it out; its old bytes stay in the backing array, as with Reset.
//
// After Put the caller must not use b again, nor any slice returned by its
// Bytes method: the next Get, possibly on another goroutine, owns it.
func (p *Pool) Put(b *Buffer) {
	if check.Enabled {
		p.checkedPut(b)
		return
	}
	p.put(b, (*sync.Pool).Put, (*Pool).putSlow)
}

// put is Put, shaped like get so that it inlines too: the common case, a
// buffer neither due for sampling nor too large, costs one increment, two
// compares and sync.Pool's Put. The buffer keeps its length while pooled;
// get empties it before anyone sees it.
func (p *Pool) put(b *Buffer, poolPut func(*sync.Pool, any), slow func(*Pool, *Buffer)) {
	if b == nil {
		return
	}
	b.puts++
	// The limit is p.maxKept() written out: the inlined call would cost
	// the package-level Put the last few units of its budget.
	if b.puts&sampleMask == 0 || cap(b.B) > MaxRetainedCap-int(atomic.LoadUint32(&p.maxSizeCut)) {
		slow(p, b)
		return
	}
	poolPut(&p.buffers, b)
}

// putSlow is Put for a buffer that is due for sampling or too large to
// keep.
func (p *Pool) putSlow(b *Buffer) {
	counting := atomic.LoadUint32(&p.maxSizeCut)&statsBit != 0
	if counting {
		p.puts.Add(1)
	}
	if b.puts&sampleMask == 0 {
		b.puts = rand.Uint32()
		p.sample(len(b.B))
	}
	if cap(b.B) > p.maxKept() {
		b.counted = nil
		p.dropped()
		return
	}
	if counting {
		b.counted = p
	} else {
		b.counted = nil
	}
	p.buffers.Put(b)
}

// maxKept returns the largest capacity p keeps.
func (p *Pool) maxKept() int {
	return MaxRetainedCap - int(atomic.LoadUint32(&p.maxSizeCut)&^statsBit)
}

// statsBit, set in maxSizeCut by EnableStats, makes the limit put
// compares capacities with negative, so that every Put takes putSlow,
// which counts it: Put needs no test of its own for stats, and costs
// nothing more without them. It is below bit 31 so the limit stays
// negative where int is 32 bits.
const statsBit = 1 << 30

// EnableStats makes the pool count its Gets and Puts, for Stats. Call it
// before the pool is used, so that the counts start together.
//
// Without it a Get of a pooled buffer costs one compare more than a raw
// sync.Pool's, and a Put nothing more; with it every Get from the pool
// and every Put adds to a counter shared by all goroutines, and every Put
// takes the slow path.
func (p *Pool) EnableStats() {
	for {
		old := atomic.LoadUint32(&p.maxSizeCut)
		if old&statsBit != 0 {
			return
		}
		p.newsAtEnable.Store(p.news.Load())
		if atomic.CompareAndSwapUint32(&p.maxSizeCut, old, old|statsBit) {
			return
		}
	}
}

// Stats returns the pool's counts. Gets and Puts (Puts of a non-nil
// buffer) count from EnableStats on and are zero without it. News and
// Drops the pool keeps for its calibration and reports whether or not
// it counts: News, the buffers Get made because the pool was empty, since
// the pool was first used (since EnableStats once it counts); Drops, the
// buffers Put refused because they were too large.
func (p *Pool) Stats() pool.Stats {
	// Read the hits before the news, so that a Get counted between the
	// two loads makes Gets at least News.
	hits := atomic.LoadUint64(&p.hits)
	s := pool.Stats{
		News:     p.news.Load(),
		Drops:    p.drops.Load(),
		Counting: atomic.LoadUint32(&p.maxSizeCut)&statsBit != 0,
	}
	if s.Counting {
		s.News -= p.newsAtEnable.Load()
		s.Gets = hits + s.News
		s.Puts = p.puts.Load()
	}
	return s
}

// Calibration is what a Pool has learnt of the sizes it serves.
type Calibration struct {
	// DefaultSize is the capacity new buffers are made with, zero before
	// the first calibration.
	DefaultSize int
	// MaxSize is the largest capacity the pool keeps: MaxRetainedCap
	// before the first calibration.
	MaxSize int
	// Calibrations counts how many times the pool has calibrated.
	Calibrations uint64
}

// Calibration returns the sizes the pool has calibrated to. It needs no
// EnableStats.
func (p *Pool) Calibration() Calibration {
	return Calibration{
		DefaultSize:  int(p.defaultSize.Load()),
		MaxSize:      p.maxKept(),
		Calibrations: p.calibrations.Load(),
	}
}

// dropped counts a dropped buffer, and recalibrates when drops have piled
// up since the last calibration. It runs on the drop path only, which
// allocates anyway, so the shared counters cost the hot path nothing.
func (p *Pool) dropped() {
	n := p.drops.Add(1)
	if n-p.dropsAtCal.Load() >= dropsBeforeRecalibrate && p.sampled.Load() >= minSamples {
		p.calibrate()
	}
}

func (p *Pool) sample(n int) {
	p.counts[classIndex(n)].Add(1)
	if p.sampled.Add(1) >= calibrateAfter {
		p.calibrate()
	}
}

// calibrate sets the default size to the most common size class among the
// sampled lengths, and the maximum kept size to twice the largest class
// needed to cover maxPercentile percent of them. The factor of two leaves
// room for the extra capacity append gives a buffer as it grows, so that a
// buffer that just fits is not dropped and made again on every cycle.
func (p *Pool) calibrate() {
	if !p.calibrating.CompareAndSwap(false, true) {
		return
	}
	defer p.calibrating.Store(false)
	p.sampled.Store(0)
	p.dropsAtCal.Store(p.drops.Load())

	type classCount struct {
		class int
		n     uint32
	}
	var cc [numClasses]classCount
	var total uint64
	for i := range p.counts {
		n := p.counts[i].Swap(0)
		cc[i] = classCount{i, n}
		total += uint64(n)
	}
	if total == 0 {
		return
	}
	// slices.SortFunc on the local array allocates nothing, where
	// sort.Slice would allocate on every calibration.
	slices.SortFunc(cc[:], func(a, b classCount) int { return cmp.Compare(b.n, a.n) })

	maxClass, covered := 0, uint64(0)
	for _, c := range cc {
		if covered*100 >= total*maxPercentile {
			break
		}
		covered += uint64(c.n)
		maxClass = max(maxClass, c.class)
	}
	p.defaultSize.Store(classSize(cc[0].class))
	maxSize := min(2*classSize(maxClass), MaxRetainedCap)
	for { // keep statsBit, which EnableStats may set meanwhile
		old := atomic.LoadUint32(&p.maxSizeCut)
		if atomic.CompareAndSwapUint32(&p.maxSizeCut, old, old&statsBit|uint32(MaxRetainedCap-maxSize)) {
			break
		}
	}
	p.calibrations.Add(1)
}

// classIndex returns the size class of a length of n bytes: class i holds
// lengths up to 64<<i.
func classIndex(n int) int {
	n = (n - 1) >> minClassBits
	if n <= 0 {
		return 0
	}
	return min(bits.Len(uint(n)), numClasses-1)
}

func classSize(class int) int64 { return 1 << (minClassBits + class) }

var defaultPool Pool

// Default returns the package's default pool, the one Get and Put use, so
// that its Stats and Calibration can be read and published.
func Default() *Pool { return &defaultPool }

// Get returns an empty buffer from the package's default pool. The buffer
// belongs to the caller until it is passed to Put.
func Get() *Buffer { return defaultPool.Get() }

// Put hands b back to the package's default pool. After Put the caller must
// not use b again, nor any slice returned by its Bytes method.
func Put(b *Buffer) { defaultPool.Put(b) }

// noCopy may be embedded into structs which must not be copied after first
// use; go vet's copylocks check reports copies of it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
