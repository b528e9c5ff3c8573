//go:build poolkitcheck

package bytebuf

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/poolkit/internal/check"
)

const (
	// bufQuarantine is how many buffers a checked Pool holds back after
	// Put, sealed, before it hands the oldest out again: a read or write
	// through a stale Bytes() faults for at least that many further Puts.
	bufQuarantine = 128
	// bufMaxHeld and bufMaxHeldBytes bound what a checked Pool holds;
	// beyond them the oldest buffer's memory is unmapped.
	bufMaxHeld      = 2 * bufQuarantine
	bufMaxHeldBytes = 64 << 20
)

// bufCheck is a Buffer's checked-mode state.
type bufCheck struct {
	pooled  bool       // between Put and the Get that hands it out again
	tracked bool       // growth stays in checked memory (the buffer came from, or went into, a Pool)
	site    check.Site // the last Put
	blk     *check.Block
	// old holds the blocks the buffer outgrew since its Get: slices from
	// Bytes taken before a growth still point into them, so they stay
	// readable until Put and are sealed with the buffer.
	old []*check.Block
	// heap is the buffer's storage at Put when a direct append to B had
	// moved it to the Go heap, with its checksum: Put moves B back into a
	// block, and the next Get checks that nothing wrote to the old array.
	heap    []byte
	heapSum uint64
}

// poolCheck is a Pool's checked-mode state: the buffers Put, oldest first.
type poolCheck struct {
	mu    sync.Mutex
	q     []*Buffer
	bytes int
}

func (b *Buffer) checkUse(method string) {
	if b.chk.pooled {
		check.UsedAfterPut("bytebuf.Buffer", method, b.chk.site)
	}
}

// checkGrown moves B back into checked memory after an append grew it onto
// the Go heap.
func (b *Buffer) checkGrown() {
	if b.chk.tracked && cap(b.B) > 0 && !b.chk.blk.Contains(unsafe.Pointer(unsafe.SliceData(b.B))) {
		b.moveToBlock(check.Alloc(cap(b.B)))
	}
}

// moveToBlock copies B into blk, keeping its length and capacity.
func (b *Buffer) moveToBlock(blk *check.Block) {
	n, c := len(b.B), cap(b.B)
	mem := blk.Bytes()[:n:c]
	copy(mem, b.B)
	b.B = mem
	if b.chk.blk != nil {
		b.chk.old = append(b.chk.old, b.chk.blk)
	}
	b.chk.blk = blk
}

func (p *Pool) checkedGet() *Buffer {
	counting := atomic.LoadUint32(&p.maxSizeCut)&statsBit != 0
	for {
		p.chk.mu.Lock()
		var b *Buffer
		if len(p.chk.q) > bufQuarantine {
			b = p.chk.pop()
		}
		p.chk.mu.Unlock()
		if b == nil {
			p.news.Add(1)
			b = &Buffer{puts: rand.Uint32()}
			b.chk.tracked = true
			if n := int(p.defaultSize.Load()); n > 0 {
				blk := check.Alloc(n)
				b.B = blk.Bytes()[:0:n]
				b.chk.blk = blk
			}
			return b
		}
		b.open()
		if cap(b.B) > p.maxKept() {
			// Put counted it as dropped; it sat out the quarantine.
			b.free()
			continue
		}
		b.chk.pooled = false
		b.B = b.B[:0]
		if counting {
			atomic.AddUint64(&p.hits, 1)
		}
		return b
	}
}

func (p *Pool) checkedPut(b *Buffer) {
	if b == nil {
		return
	}
	if b.chk.pooled {
		check.PutTwice("bytebuf.Buffer", b.chk.site)
	}
	site := check.Caller()
	if atomic.LoadUint32(&p.maxSizeCut)&statsBit != 0 {
		p.puts.Add(1)
	}
	b.puts++
	if b.puts&sampleMask == 0 {
		b.puts = rand.Uint32()
		p.sample(len(b.B))
	}
	if cap(b.B) > p.maxKept() {
		p.dropped()
	}
	b.chk.tracked = true
	if cap(b.B) > 0 && !b.chk.blk.Contains(unsafe.Pointer(unsafe.SliceData(b.B))) {
		// A direct append to B, or a buffer that never came from a
		// checked pool: its storage is on the Go heap. Keep watch over
		// that array by checksum, and move B into checked memory.
		b.chk.heap = b.B[:cap(b.B)]
		b.chk.heapSum = check.Sum(&b.chk.heap)
		b.moveToBlock(check.Alloc(cap(b.B)))
	}
	if b.chk.blk != nil {
		b.chk.blk.Seal()
	}
	for _, blk := range b.chk.old {
		blk.Seal()
	}
	b.chk.pooled = true
	b.chk.site = site

	p.chk.mu.Lock()
	defer p.chk.mu.Unlock()
	p.chk.q = append(p.chk.q, b)
	p.chk.bytes += b.chk.size()
	for len(p.chk.q) > bufMaxHeld || (p.chk.bytes > bufMaxHeldBytes && len(p.chk.q) > 1) {
		old := p.chk.pop()
		old.open()
		old.free()
	}
}

// pop removes the oldest buffer held. p.chk.mu must be held.
func (c *poolCheck) pop() *Buffer {
	b := c.q[0]
	c.q[0] = nil
	c.q = c.q[1:]
	if len(c.q) == 0 {
		c.q = c.q[:0:0]
	}
	c.bytes -= b.chk.size()
	return b
}

func (c *bufCheck) size() int {
	n := len(c.heap)
	if c.blk != nil {
		n += c.blk.Size()
	}
	for _, blk := range c.old {
		n += blk.Size()
	}
	return n
}

// open makes a buffer taken out of the quarantine usable, after checking
// that nothing wrote to it since its Put, and frees the blocks it outgrew.
func (b *Buffer) open() {
	ok := b.chk.blk == nil || b.chk.blk.Open()
	for _, blk := range b.chk.old {
		ok = blk.Open() && ok
		blk.Free()
	}
	b.chk.old = b.chk.old[:0]
	if b.chk.heap != nil {
		ok = check.Sum(&b.chk.heap) == b.chk.heapSum && ok
		b.chk.heap = nil
	}
	if !ok {
		check.WrittenAfterPut("bytebuf.Buffer", b.chk.site)
	}
}

// free unmaps an open buffer's memory for good; the Buffer is dropped.
func (b *Buffer) free() {
	if b.chk.blk != nil {
		b.chk.blk.Free()
		b.chk.blk = nil
	}
	b.B = nil
}
