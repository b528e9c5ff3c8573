package check

import (
	"os"
	"sync/atomic"
	"unsafe"
)

// A Block is memory for pointer-free data that checked mode can seal while
// it sits in a pool. On Linux it is its own page-aligned mapping
// (syscall.Mmap), which Seal makes inaccessible with mprotect, so that any
// read or write after Put faults at the instruction that makes it. Where
// that is not available (other systems, or when the process has used up
// the mappings maxMappings allows) it is ordinary memory that Seal fills
// with Poison and Open checks, so a write after Put is reported at the next
// Get and a read after Put sees only Poison.
//
// The garbage collector never sees into a mapping, so a Block must only
// ever hold data without pointers.
type Block struct {
	mem    []byte // the whole block, a multiple of the page size when mapped
	mapped bool
	sealed bool
}

// Poison is the byte Seal fills an unmapped Block with.
const Poison = 0xDB

// maxMappings bounds the mappings Blocks hold at once, well below Linux's
// default vm.max_map_count of 65530, so that a program that Gets buffers
// and never Puts them back falls back to poisoned heap memory instead of
// failing.
const maxMappings = 16384

var mappings atomic.Int64

var pageSize = os.Getpagesize()

// Alloc returns a Block of at least n bytes, open (readable and writable)
// and zeroed.
func Alloc(n int) *Block {
	if n <= 0 {
		n = 1
	}
	size := (n + pageSize - 1) &^ (pageSize - 1)
	if mappings.Add(1) <= maxMappings {
		if mem, err := mapPages(size); err == nil {
			return &Block{mem: mem, mapped: true}
		}
	}
	mappings.Add(-1)
	return &Block{mem: make([]byte, n)}
}

// Bytes returns the whole block.
func (b *Block) Bytes() []byte { return b.mem }

// Mapped reports whether the block is page-protected memory.
func (b *Block) Mapped() bool { return b.mapped }

// Size returns the block's length in bytes.
func (b *Block) Size() int { return len(b.mem) }

// Contains reports whether p points into the block.
func (b *Block) Contains(p unsafe.Pointer) bool {
	if b == nil || len(b.mem) == 0 || p == nil {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b.mem)))
	return uintptr(p) >= start && uintptr(p) < start+uintptr(len(b.mem))
}

// Seal makes the block inaccessible, or poisons it when it is not mapped.
func (b *Block) Seal() {
	if b.sealed {
		return
	}
	b.sealed = true
	if b.mapped {
		protect(b.mem, false)
		return
	}
	for i := range b.mem {
		b.mem[i] = Poison
	}
}

// Open makes a sealed block accessible again. It reports false when the
// block is not mapped and a byte of its poison was overwritten while it
// was sealed: a write after Put.
func (b *Block) Open() bool {
	if !b.sealed {
		return true
	}
	b.sealed = false
	if b.mapped {
		protect(b.mem, true)
		return true
	}
	for _, c := range b.mem {
		if c != Poison {
			return false
		}
	}
	return true
}

// Free gives the block's memory back. Nothing may use it afterwards: a
// mapped block is unmapped, so a stale reference faults (until the address
// is mapped again).
func (b *Block) Free() {
	if b.mapped && b.mem != nil {
		unmapPages(b.mem)
		mappings.Add(-1)
	}
	b.mem = nil
}
