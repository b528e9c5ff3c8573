package slicepool_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/slicepool"
)

func TestGetCapacity(t *testing.T) {
	tests := []struct {
		maxCap  int
		n       int
		wantCap int
	}{
		{0, -5, 8},
		{0, 0, 8},
		{0, 1, 8},
		{0, 5, 8},
		{0, 8, 8},
		{0, 9, 16},
		{0, 16, 16},
		{0, 17, 32},
		{0, 32, 32},
		{0, 33, 64},
		{0, 1000, 1024},
		{0, 1024, 1024},
		{0, 1025, 2048},
		{0, slicepool.DefaultMaxCap, slicepool.DefaultMaxCap},
		{0, slicepool.DefaultMaxCap + 1, slicepool.DefaultMaxCap + 1}, // not pooled: exact
		{100, 90, 128},
		{100, 128, 128},
		{100, 129, 129},
		{1 << 20, 1<<20 - 1, 1 << 20},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("MaxCap=%d/n=%d", tt.maxCap, tt.n), func(t *testing.T) {
			p := slicepool.Pool[int64]{MaxCap: tt.maxCap}
			s := p.Get(tt.n)
			if len(s) != 0 || cap(s) != tt.wantCap {
				t.Fatalf("Get(%d) = len %d cap %d, want len 0 cap %d", tt.n, len(s), cap(s), tt.wantCap)
			}
		})
	}
}

// TestGetNeverGrows puts slices of random capacities and asks for random
// sizes: every slice Get returns must hold n elements without growing.
func TestGetNeverGrows(t *testing.T) {
	p := slicepool.Pool[byte]{MaxCap: 4096}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		if rng.IntN(2) == 0 {
			c := rng.IntN(6000)
			p.Put(make([]byte, rng.IntN(c+1), c))
			continue
		}
		n := rng.IntN(6000)
		if s := p.Get(n); len(s) != 0 || cap(s) < n {
			t.Fatalf("Get(%d) = len %d cap %d", n, len(s), cap(s))
		}
	}
}

func TestPutKeepsAndDrops(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	tests := []struct {
		name   string
		maxCap int
		put    []byte // nil: Put(nil)
		get    int
		kept   bool
	}{
		{"nil", 0, nil, 0, false},
		{"below the smallest class", 0, make([]byte, 7), 0, false},
		{"smallest class", 0, make([]byte, 3, 8), 8, true},
		{"odd cap in the smallest class", 0, make([]byte, 3, 15), 8, true},
		{"odd cap serves its floor class", 0, make([]byte, 0, 100), 64, true},
		{"odd cap is not handed to a larger class", 0, make([]byte, 0, 100), 65, false},
		{"at DefaultMaxCap", 0, make([]byte, 0, slicepool.DefaultMaxCap), slicepool.DefaultMaxCap, true},
		{"over DefaultMaxCap", 0, make([]byte, 0, slicepool.DefaultMaxCap+1), slicepool.DefaultMaxCap / 2, false},
		{"at rounded MaxCap", 100, make([]byte, 0, 128), 90, true},
		{"over rounded MaxCap", 100, make([]byte, 0, 256), 90, false},
		{"large MaxCap", 1 << 20, make([]byte, 0, 1<<20), 1 << 20, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := slicepool.Pool[byte]{MaxCap: tt.maxCap}
			p.Put(tt.put)
			got := p.Get(tt.get)
			same := tt.put != nil && cap(tt.put) > 0 && unsafe.SliceData(got) == unsafe.SliceData(tt.put)
			if same != tt.kept {
				t.Fatalf("Put(cap %d) then Get(%d): got the same array = %v, want %v", cap(tt.put), tt.get, same, tt.kept)
			}
			if len(got) != 0 || cap(got) < tt.get {
				t.Fatalf("Get(%d) = len %d cap %d", tt.get, len(got), cap(got))
			}
		})
	}
}

func TestPutClearsPointers(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	t.Run("pointer elements", func(t *testing.T) {
		var p slicepool.Pool[*int]
		s := p.Get(32)
		for i := range cap(s) {
			s = append(s, &i)
		}
		p.Put(s[:5]) // elements beyond the length must be cleared too
		got := p.Get(32)
		if unsafe.SliceData(got) != unsafe.SliceData(s) {
			t.Fatal("the slice was not pooled")
		}
		for i, v := range got[:cap(got)] {
			if v != nil {
				t.Fatalf("element %d still points at %d after Put", i, *v)
			}
		}
	})
	t.Run("struct with a string", func(t *testing.T) {
		type field struct {
			n    int
			name string
		}
		var p slicepool.Pool[field]
		s := append(p.Get(16), field{1, "secret"}, field{2, "other"})
		p.Put(s)
		got := p.Get(16)
		for i, v := range got[:cap(got)] {
			if v != (field{}) {
				t.Fatalf("element %d = %+v after Put, want zero", i, v)
			}
		}
	})
	t.Run("plain data is left alone", func(t *testing.T) {
		// Not clearing pointer-free elements is what keeps Put cheap;
		// Get documents that they may hold old data.
		var p slicepool.Pool[int]
		s := append(p.Get(16), 7, 8, 9)
		p.Put(s)
		got := p.Get(16)
		if len(got) != 0 || got[:3][2] != 9 {
			t.Fatalf("Get(16) = %v (first 3 of the capacity: %v), want len 0 over the old data", got, got[:3])
		}
	})
}

func TestZeroValue(t *testing.T) {
	var p slicepool.Pool[string]
	s := p.Get(3)
	if s == nil || len(s) != 0 || cap(s) < 3 {
		t.Fatalf("zero Pool.Get(3) = %#v (cap %d)", s, cap(s))
	}
	p.Put(append(s, "a", "b"))
	p.Put(nil)
}

// TestGC checks the victim cache: a pooled slice survives one garbage
// collection and is gone after two more.
func TestGC(t *testing.T) {
	pooltest.SkipIfChecked(t) // checked mode holds slices itself, out of the GC's reach
	pooltest.PinGC(t)
	var p slicepool.Pool[uint64]
	arrays := map[*uint64]bool{}
	for range 100 {
		s := make([]uint64, 0, 64)
		arrays[unsafe.SliceData(s)] = true
		p.Put(s)
	}
	runtime.GC()
	if s := p.Get(64); !arrays[unsafe.SliceData(s)] {
		t.Fatal("after one GC the pool is empty; the victim cache should have kept its slices")
	}
	runtime.GC()
	runtime.GC()
	if s := p.Get(64); arrays[unsafe.SliceData(s)] {
		t.Fatal("after two more GCs Get returned a pooled slice, want a new one")
	}
}

func TestAllocs(t *testing.T) {
	var bytes slicepool.Pool[byte]
	var ptrs slicepool.Pool[*int]
	small := slicepool.Pool[int64]{MaxCap: 100}
	for _, n := range []int{0, 1, 16, 17, 100, 1000, 4096, 50000, slicepool.DefaultMaxCap} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			f := func() {
				s := bytes.Get(n)
				s = append(s, 1)
				bytes.Put(s)
				q := ptrs.Get(n)
				q = append(q, nil)
				ptrs.Put(q)
			}
			pooltest.WantSteadyAllocs(t, 0, 10, f)
		})
	}
	t.Run("n=MaxCap not a power of two", func(t *testing.T) {
		f := func() { small.Put(small.Get(100)) }
		f()
		pooltest.WantAllocs(t, 0, f)
	})
	t.Run("mixed sizes held at once", func(t *testing.T) {
		f := func() {
			a, b, c := bytes.Get(10), bytes.Get(300), bytes.Get(300)
			bytes.Put(c)
			bytes.Put(a)
			bytes.Put(b)
		}
		pooltest.WantSteadyAllocs(t, 0, 10, f)
	})
}

// TestConcurrentOwnership: goroutines Get one to three slices at a time,
// fill them with a pattern of their own, yield, verify, Put. A slice handed
// to two holders at once (or twice to one), or one that still holds the
// previous holder's pointers, fails.
func TestConcurrentOwnership(t *testing.T) {
	const goroutines = 16
	iters := 2000
	if testing.Short() {
		iters = 200
	}
	p := slicepool.Pool[*int]{MaxCap: 200}
	ids := make([]int, goroutines+1)
	rngs := make([]*rand.Rand, goroutines+1) // rngs[g] is used by goroutine g only
	for i := range ids {
		ids[i] = i
		rngs[i] = rand.New(rand.NewPCG(uint64(i), 0))
	}
	pooltest.Stress(t, goroutines, iters, func(g int, holders *sync.Map) (func() error, error) {
		mine := &ids[g]
		n := rngs[g].IntN(300) // some over MaxCap, which Put drops
		s := p.Get(n)
		if len(s) != 0 || cap(s) < n {
			return nil, fmt.Errorf("Get(%d) = len %d cap %d", n, len(s), cap(s))
		}
		for i, v := range s[:cap(s)] {
			if v != nil {
				return nil, fmt.Errorf("goroutine %d got a slice whose element %d points at goroutine %d's id", g, i, *v)
			}
		}
		key := unsafe.SliceData(s)
		if err := pooltest.Claim(holders, key, g); err != nil {
			return nil, err
		}
		for range n {
			s = append(s, mine)
		}
		return func() error {
			for i, v := range s {
				if v != mine {
					return fmt.Errorf("goroutine %d's slice changed at %d by goroutine %d", g, i, *v)
				}
			}
			holders.Delete(key)
			p.Put(s)
			return nil
		}, nil
	})
}
