package pool_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
)

// TestGetPtrPutPtrRoundTrip checks that a box put with PutPtr comes back
// from GetPtr as the same box holding the value written into it, that
// its value comes back from Get and that a value Put comes back from
// GetPtr, on each shape of pool.
func TestGetPtrPutPtrRoundTrip(t *testing.T) {
	pooltest.SkipIfRace(t) // the race detector makes sync.Pool drop values at random
	pooltest.SkipIfChecked(t)
	pooltest.PinGC(t)
	t.Run("slice", func(t *testing.T) {
		p := pool.New(func() []int { return make([]int, 0, 4) })
		b := p.GetPtr()
		if b == nil || len(*b) != 0 || cap(*b) != 4 {
			t.Fatalf("GetPtr() on an empty pool = %v, want a box holding New's slice", b)
		}
		grown := append((*b)[:0], 1, 2, 3, 4, 5) // outgrows the array
		*b = grown
		p.PutPtr(b)
		got := p.GetPtr()
		if got != b || unsafe.SliceData(*got) != unsafe.SliceData(grown) || len(*got) != 5 {
			t.Fatalf("GetPtr() after PutPtr = box %p holding %v, want box %p holding the grown slice", got, *got, b)
		}
		p.PutPtr(got)
		if s := p.Get(); unsafe.SliceData(s) != unsafe.SliceData(grown) {
			t.Fatalf("Get() after PutPtr = %v, want the slice put", s)
		}
		q := []int{7}
		p.Put(q)
		if b := p.GetPtr(); unsafe.SliceData(*b) != unsafe.SliceData(q) {
			t.Fatalf("GetPtr() after Put = %v, want a box holding the slice put", *b)
		}
	})
	t.Run("pointer", func(t *testing.T) {
		p := pool.New(func() *object { return &object{id: -1} })
		b := p.GetPtr()
		if *b == nil || (*b).id != -1 {
			t.Fatalf("GetPtr() on an empty pool holds %v, want New's object", *b)
		}
		o := &object{id: 5}
		*b = o
		p.PutPtr(b)
		if got := p.Get(); got != o {
			t.Fatalf("Get() after PutPtr = %p, want %p", got, o)
		}
	})
	t.Run("struct", func(t *testing.T) {
		p := pool.New(func() pair { return pair{-1, -1} })
		b := p.GetPtr()
		*b = pair{3, 4}
		p.PutPtr(b)
		if got := p.Get(); got != (pair{3, 4}) {
			t.Fatalf("Get() after PutPtr = %v, want {3 4}", got)
		}
	})
	t.Run("zero pool", func(t *testing.T) {
		var p pool.Pool[[]byte]
		b := p.GetPtr()
		if b == nil || *b != nil {
			t.Fatalf("zero Pool.GetPtr() = %v, want a box holding a nil slice", b)
		}
		*b = append(*b, "abc"...)
		p.PutPtr(b)
		if got := p.GetPtr(); got != b || string(*got) != "abc" {
			t.Fatalf("GetPtr() after PutPtr = %p %q, want %p %q", got, *got, b, "abc")
		}
	})
}

// TestPutPtrNil checks that PutPtr(nil) and PutPtr of a box holding a nil
// value keep nothing: the next GetPtr calls New.
func TestPutPtrNil(t *testing.T) {
	pooltest.PinGC(t)
	p := pool.New(func() []byte { return make([]byte, 0, 64) }, pool.WithStats[[]byte]())
	p.PutPtr(nil)
	b := p.GetPtr()
	*b = nil
	p.PutPtr(b)
	if got := p.GetPtr(); *got == nil || cap(*got) != 64 {
		t.Fatalf("GetPtr() after PutPtr of nil = %#v, want New's slice of capacity 64", *got)
	}
	if got := p.Stats(); got.Puts != 0 || got.Gets != 2 || got.News != 2 {
		t.Fatalf("Stats() = %+v, want Gets 2, Puts 0, News 2", got)
	}
	// The same on the fast path of a pool without options.
	q := pool.New(func() []byte { return make([]byte, 0, 64) })
	q.PutPtr(nil)
	b = q.GetPtr()
	*b = nil
	q.PutPtr(b)
	if got := q.GetPtr(); *got == nil {
		t.Fatal("GetPtr() after PutPtr of a nil slice handed out the nil")
	}
}

// TestPutPtrHooks checks that PutPtr applies keep and reset to the boxed
// value, as Put does.
func TestPutPtrHooks(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	p := pool.New(func() []string { return make([]string, 0, 4) },
		pool.WithReset(func(s []string) []string { clear(s); return s[:0] }),
		pool.WithKeep(func(s []string) bool { return cap(s) <= 8 }),
		pool.WithStats[[]string]())
	b := p.GetPtr()
	*b = append(*b, "secret")
	kept := *b
	p.PutPtr(b)
	got := p.GetPtr()
	if len(*got) != 0 || unsafe.SliceData(*got) != unsafe.SliceData(kept) || kept[:1][0] != "" {
		t.Fatalf("GetPtr() after PutPtr = %q (first element of the array %q), want the same array reset", *got, kept[:1][0])
	}
	*got = append(*got, make([]string, 9)...) // over the keep limit
	p.PutPtr(got)
	if s := p.Stats(); s.Drops != 1 || s.Puts != 2 {
		t.Fatalf("Stats() = %+v, want Puts 2, Drops 1", s)
	}
	if next := p.GetPtr(); cap(*next) != 4 {
		t.Fatalf("GetPtr() after a dropped PutPtr holds cap %d, want New's 4", cap(*next))
	}
}

func TestGetPtrAllocs(t *testing.T) {
	ints := pool.New(func() []int { return make([]int, 0, 16) })
	reset := pool.New(func() []int { return make([]int, 0, 16) },
		pool.WithReset(func(s []int) []int { return s[:0] }))
	ptrs := pool.New(func() *object { return new(object) })
	var zero pool.Pool[[]byte]
	structs := pool.New(func() pair { return pair{} })
	tests := []struct {
		name string
		f    func()
	}{
		{"slice", func() { b := ints.GetPtr(); *b = append((*b)[:0], 1); ints.PutPtr(b) }},
		{"slice with reset", func() { b := reset.GetPtr(); *b = append(*b, 1); reset.PutPtr(b) }},
		{"pointer", func() { b := ptrs.GetPtr(); (*b).id++; ptrs.PutPtr(b) }},
		{"zero pool", func() { b := zero.GetPtr(); *b = append((*b)[:0], 'x'); zero.PutPtr(b) }},
		{"struct", func() { b := structs.GetPtr(); b.a++; structs.PutPtr(b) }},
		{"mixed with Get and Put", func() {
			b := ints.GetPtr()
			s := ints.Get()
			ints.PutPtr(b)
			ints.Put(s)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { pooltest.WantSteadyAllocs(t, 0, 10, tt.f) })
	}
}

// TestGetPtrConcurrentOwnership: goroutines take boxes, claim the box and
// its array, write a pattern of their own, yield, check it and put the
// box back, through the fast path and through a pool with a reset. A box
// or array handed to two holders at once fails.
func TestGetPtrConcurrentOwnership(t *testing.T) {
	const goroutines = 16
	iters := 2000
	if testing.Short() {
		iters = 200
	}
	for _, p := range []*pool.Pool[[]int64]{
		pool.New(func() []int64 { return make([]int64, 0, 8) }),
		pool.New(func() []int64 { return make([]int64, 0, 8) },
			pool.WithReset(func(s []int64) []int64 { clear(s[:cap(s)]); return s[:0] })),
	} {
		pooltest.Stress(t, goroutines, iters, func(g int, holders *sync.Map) (func() error, error) {
			b := p.GetPtr()
			if err := pooltest.Claim(holders, b, g); err != nil {
				return nil, err
			}
			s := (*b)[:0]
			for i := range 4 + g%12 { // sometimes grows the array
				s = append(s, int64(g)<<16|int64(i))
			}
			if err := pooltest.Claim(holders, unsafe.SliceData(s), g); err != nil {
				return nil, err
			}
			*b = s
			return func() error {
				for i, v := range *b {
					if v != int64(g)<<16|int64(i) {
						return fmt.Errorf("goroutine %d's slice was changed by someone else at %d: %#x", g, i, v)
					}
				}
				holders.Delete(b)
				holders.Delete(unsafe.SliceData(s))
				p.PutPtr(b)
				return nil
			}, nil
		})
	}
}

func ExamplePool_GetPtr() {
	// A pool of slices through GetPtr and PutPtr: the box travels with
	// the slice, and the grown slice is written back into it.
	lines := pool.New(func() []string { return make([]string, 0, 16) })

	b := lines.GetPtr()
	s := (*b)[:0]
	s = append(s, "GET /", "Host: example.com")
	fmt.Println(strings.Join(s, "\n")) // use s before PutPtr
	clear(s)                           // drop the strings before the pool keeps the array
	*b = s
	lines.PutPtr(b) // neither b nor s may be used after this
	// Output:
	// GET /
	// Host: example.com
}
