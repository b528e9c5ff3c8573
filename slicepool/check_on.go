//go:build poolkitcheck

package slicepool

import (
	"fmt"
	"math/bits"
	"reflect"
	"sync"
	"unsafe"

	"github.com/poolkit/poolkit/internal/check"
)

// classBytesHeld bounds the bytes a checked Pool holds in one size class;
// maxPerClass the slices.
const (
	classBytesHeld = 16 << 20
	maxPerClass    = 2 * check.Quarantine / 4
)

// poolCheck is a Pool's checked-mode state. Slices of pointer-free
// elements are handed out from page-protected Blocks, sealed while pooled;
// slices the pool did not make, or whose elements hold pointers, live on
// the Go heap and are checked by checksum instead.
type poolCheck[E any] struct {
	mu      sync.Mutex
	classes [bits.UintSize][]heldSlice
	ids     map[unsafe.Pointer]check.Site // first elements of the slices held
	out     map[unsafe.Pointer]*check.Block
	ops     int
}

type heldSlice struct {
	first unsafe.Pointer
	blk   *check.Block // nil for memory on the Go heap
	sum   uint64
	site  check.Site
}

func (p *Pool[E]) what() string { return fmt.Sprintf("slicepool.Pool[%v] slice", reflect.TypeFor[E]()) }

// limits returns how many slices of class k the pool holds back after Put
// before reusing the oldest, and how many it holds at most.
func (p *Pool[E]) limits(k int) (quarantine, most int) {
	size := max(int(unsafe.Sizeof(*new(E))), 1) << k
	most = max(min(maxPerClass, classBytesHeld/size), 2)
	return most / 2, most
}

func (p *Pool[E]) checkedGet(n int) []E {
	info, counting := p.slowInfo()
	if counting {
		p.stats.gets.Add(1)
	}
	c := classOf(n)
	if !keeps(info, 1<<c) {
		if counting {
			p.stats.news.Add(1)
		}
		return make([]E, 0, n)
	}
	p.chk.mu.Lock()
	defer p.chk.mu.Unlock()
	p.tick()
	quarantine, _ := p.limits(c)
	if len(p.chk.classes[c]) > quarantine {
		e := p.pop(c)
		if e.blk != nil {
			p.chk.out[e.first] = e.blk
		}
		return unsafe.Slice((*E)(e.first), 1<<c)[:0]
	}
	if counting {
		p.stats.news.Add(1)
	}
	size := unsafe.Sizeof(*new(E))
	if info&2 != 0 || size == 0 {
		return make([]E, 0, 1<<c)
	}
	blk := check.Alloc(int(size) << c)
	first := unsafe.Pointer(unsafe.SliceData(blk.Bytes()))
	if p.chk.out == nil {
		p.chk.out = make(map[unsafe.Pointer]*check.Block)
	}
	p.chk.out[first] = blk
	return unsafe.Slice((*E)(first), 1<<c)[:0]
}

func (p *Pool[E]) checkedPut(s []E) {
	info, counting := p.slowInfo()
	c := cap(s)
	if c == 0 || unsafe.Sizeof(*new(E)) == 0 {
		return
	}
	first := unsafe.Pointer(unsafe.SliceData(s[:c]))
	site := check.Caller()
	p.chk.mu.Lock()
	defer p.chk.mu.Unlock()
	if prev, ok := p.chk.ids[first]; ok {
		check.PutTwice(p.what(), prev)
	}
	p.tick()
	if counting {
		p.stats.puts.Add(1)
	}
	if !keeps(info, c) {
		if counting {
			p.stats.drops.Add(1)
		}
		return
	}
	if info&2 != 0 {
		clear(s[:c])
	}
	k := bits.Len(uint(c)) - 1
	e := heldSlice{first: first, site: site}
	if blk := p.chk.out[first]; blk != nil {
		delete(p.chk.out, first)
		e.blk = blk
		blk.Seal()
	} else {
		held := unsafe.Slice((*E)(first), 1<<k)
		e.sum = check.Sum(&held)
	}
	if p.chk.ids == nil {
		p.chk.ids = make(map[unsafe.Pointer]check.Site)
	}
	p.chk.ids[first] = site
	p.chk.classes[k] = append(p.chk.classes[k], e)
	if _, most := p.limits(k); len(p.chk.classes[k]) > most {
		old := p.pop(k)
		if old.blk != nil {
			old.blk.Free()
		}
	}
}

// pop removes the oldest slice of class k, checks it and opens its block.
// p.chk.mu must be held.
func (p *Pool[E]) pop(k int) heldSlice {
	q := p.chk.classes[k]
	e := q[0]
	q[0] = heldSlice{}
	q = q[1:]
	if len(q) == 0 {
		q = q[:0:0]
	}
	p.chk.classes[k] = q
	delete(p.chk.ids, e.first)
	if e.blk != nil {
		if !e.blk.Open() {
			check.WrittenAfterPut(p.what(), e.site)
		}
	} else {
		p.verify(k, &e)
	}
	return e
}

func (p *Pool[E]) verify(k int, e *heldSlice) {
	held := unsafe.Slice((*E)(e.first), 1<<k)
	if check.Sum(&held) != e.sum {
		check.WrittenAfterPut(p.what(), e.site)
	}
}

// tick counts a Get or Put and checks every slice held on the Go heap each
// check.SweepEvery. p.chk.mu must be held.
func (p *Pool[E]) tick() {
	p.chk.ops++
	if p.chk.ops%check.SweepEvery != 0 {
		return
	}
	for k := range p.chk.classes {
		for i := range p.chk.classes[k] {
			if e := &p.chk.classes[k][i]; e.blk == nil {
				p.verify(k, e)
			}
		}
	}
}
