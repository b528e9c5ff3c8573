package slicepool_test

import (
	"errors"
	"sync"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

// TestStats checks the counts after a known sequence of hits, misses and
// drops, and that a counting pool still hands back what it keeps.
func TestStats(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	var p slicepool.Pool[*int]
	p.MaxCap = 1024
	if s := p.Stats(); s.Counting {
		t.Fatalf("a new pool counts: %+v", s)
	}
	p.EnableStats()
	p.EnableStats()
	s := p.Get(100) // miss
	if cap(s) != 128 {
		t.Fatalf("cap %d, want 128", cap(s))
	}
	x := 1
	s = append(s, &x)
	first := unsafe.SliceData(s)
	p.Put(s)
	for range 5 {
		r := p.Get(100) // hits
		if unsafe.SliceData(r[:1]) != first {
			t.Fatal("Get did not return the slice just put")
		}
		if r[:1][0] != nil {
			t.Fatal("a counting pool kept a pointer in a pooled slice")
		}
		p.Put(r)
	}
	big := p.Get(5000)        // miss: over MaxCap
	p.Put(big)                // drop
	p.Put(make([]*int, 0, 7)) // drop: too small
	p.Put(nil)                // not a Put
	want := pool.Stats{Gets: 7, Puts: 8, News: 2, Drops: 2, Counting: true}
	if got := p.Stats(); got != want {
		t.Errorf("Stats() = %+v\nwant      %+v", got, want)
	}
}

// TestStatsOff checks that without EnableStats nothing is counted and the
// pool works as before.
func TestStatsOff(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	var p slicepool.Pool[byte]
	s := p.Get(10)
	first := unsafe.SliceData(s[:1])
	p.Put(s)
	if r := p.Get(10); unsafe.SliceData(r[:1]) != first {
		t.Error("Get did not return the slice just put")
	}
	p.Put(p.Get(1 << 20))
	if got := p.Stats(); got != (pool.Stats{}) {
		t.Errorf("Stats() = %+v, want zero", got)
	}
}

// TestStatsConcurrent checks, under -race too, that a counting pool keeps
// one owner per slice and consistent counts.
func TestStatsConcurrent(t *testing.T) {
	var p slicepool.Pool[int]
	p.EnableStats()
	const g, iters = 8, 2000
	pooltest.Stress(t, g, iters, func(id int, holders *sync.Map) (func() error, error) {
		s := p.Get(20 + id)
		if err := pooltest.Claim(holders, unsafe.SliceData(s[:1]), id); err != nil {
			return nil, err
		}
		s = append(s, id, id)
		return func() error {
			if len(s) != 2 || s[0] != id || s[1] != id {
				return errors.New("a slice changed while its holder had it")
			}
			holders.Delete(unsafe.SliceData(s[:1]))
			p.Put(s)
			return nil
		}, nil
	})
	s := p.Stats()
	if s.Gets != s.Puts || s.Gets < g*iters || s.News == 0 || s.News > s.Gets || s.Drops != 0 {
		t.Errorf("Stats() = %+v after %d goroutines x %d rounds", s, g, iters)
	}
}
