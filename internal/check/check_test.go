package check

import (
	"runtime"
	"testing"
	"unsafe"
)

func TestBlockPoisonFindsWrites(t *testing.T) {
	b := &Block{mem: make([]byte, 100)} // what Alloc falls back to
	b.mem[3] = 'x'
	b.Seal()
	for i, c := range b.mem {
		if c != Poison {
			t.Fatalf("byte %d = %#x after Seal, want poison %#x", i, c, Poison)
		}
	}
	if !b.Open() {
		t.Fatal("Open of an untouched sealed block reported a write")
	}
	b.Seal()
	b.mem[99] = 0
	if b.Open() {
		t.Fatal("Open missed a write to a sealed block")
	}
}

func TestAllocMapsPages(t *testing.T) {
	b := Alloc(5000)
	defer b.Free()
	if runtime.GOOS == "linux" && !b.Mapped() {
		t.Fatal("Alloc on Linux gave heap memory, want a mapping")
	}
	if b.Size() < 5000 || (b.Mapped() && b.Size()%pageSize != 0) {
		t.Fatalf("Size() = %d, want at least 5000, whole pages when mapped", b.Size())
	}
	mem := b.Bytes()
	mem[4999] = 1
	b.Seal()
	if !b.Open() || mem[4999] != 1 {
		t.Fatal("a mapped block lost its content across Seal and Open")
	}
	if !b.Contains(unsafePointer(&mem[4999])) || b.Contains(unsafePointer(new(byte))) {
		t.Fatal("Contains is wrong")
	}
}

type node struct {
	name string
	buf  []byte
	next *node
	m    map[int]int
}

func TestSumSeesWhatValuesReach(t *testing.T) {
	n := &node{buf: make([]byte, 4, 16), next: &node{buf: make([]byte, 8)}, m: map[int]int{}}
	changes := []struct {
		name   string
		change func()
	}{
		{"field", func() { n.name = "x" }},
		{"slice within length", func() { n.buf[0] = 1 }},
		{"slice beyond length", func() { n.buf[:16][15] = 1 }},
		{"map length", func() { n.m[1] = 1 }},
	}
	for _, c := range changes {
		before := Sum(&n)
		c.change()
		if Sum(&n) == before {
			t.Errorf("Sum missed a change to the %s", c.name)
		}
	}
	if a, b := Sum(&n), Sum(&n); a != b {
		t.Error("Sum of unchanged memory changed")
	}
	// What a pointer below the top points at may be shared: not summed.
	before := Sum(&n)
	n.next.buf[7] = 1
	n.next.name = "shared"
	if Sum(&n) != before {
		t.Error("Sum changed with memory behind a nested pointer, which the value need not own")
	}
	// A slice of structs: their slices are followed.
	s := []node{{buf: make([]byte, 4)}}
	before = Sum(&s)
	s[0].buf[3] = 1
	if Sum(&s) == before {
		t.Error("Sum missed a change to a slice inside a slice's element")
	}
}

func TestIdentity(t *testing.T) {
	p := &node{}
	if Identity(&p) == 0 {
		t.Error("a pointer has no identity")
	}
	var empty struct{}
	pe := &empty
	if Identity(&pe) != 0 {
		t.Error("a pointer to a zero-size value has an identity; all such pointers may be equal")
	}
	s := make([]byte, 0, 8)
	if Identity(&s) == 0 {
		t.Error("a slice with capacity has no identity")
	}
	var nilSlice []byte
	if Identity(&nilSlice) != 0 {
		t.Error("a nil slice has an identity")
	}
	type rec struct {
		cfg *node // shared between values: not an identity
		buf []byte
	}
	r := rec{cfg: p, buf: s}
	if got, want := Identity(&r), Identity(&s); got != want {
		t.Errorf("Identity(struct) = %#x, want its slice field's %#x", got, want)
	}
	f := func() {}
	if Identity(&f) != 0 {
		t.Error("a func has an identity; one closure may serve many owners")
	}
}

func unsafePointer(p *byte) unsafe.Pointer { return unsafe.Pointer(p) }
