package bytebuf_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
)

// TestStats checks the counts after a known sequence of hits, misses and
// drops.
func TestStats(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	var p bytebuf.Pool
	if s := p.Stats(); s.Counting {
		t.Fatalf("a new pool counts: %+v", s)
	}
	p.EnableStats()
	p.EnableStats() // twice is once
	b := p.Get()    // miss
	p.Put(b)
	for range 10 {
		c := p.Get() // hits
		if c != b {
			t.Fatal("Get did not return the buffer just put")
		}
		c.WriteString("x")
		p.Put(c)
	}
	o := p.Get()                                                         // hit
	n := p.Get()                                                         // miss
	p.Put(&bytebuf.Buffer{B: make([]byte, 0, bytebuf.MaxRetainedCap+1)}) // drop
	p.Put(nil)                                                           // not a Put
	p.Put(o)
	p.Put(n)
	want := pool.Stats{Gets: 13, Puts: 14, News: 2, Drops: 1, Counting: true}
	if got := p.Stats(); got != want {
		t.Errorf("Stats() = %+v\nwant      %+v", got, want)
	}
}

// TestStatsOff checks that a pool without EnableStats counts only what its
// slow paths see: news and drops.
func TestStatsOff(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	var p bytebuf.Pool
	b := p.Get()
	p.Put(b)
	p.Put(p.Get())
	p.Put(&bytebuf.Buffer{B: make([]byte, 0, bytebuf.MaxRetainedCap+1)})
	want := pool.Stats{News: 1, Drops: 1}
	if got := p.Stats(); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
}

// TestStatsCalibrated checks that counting survives calibration, which
// rewrites the limit EnableStats marks, and that calibration still works
// while every Put takes the slow path.
func TestStatsCalibrated(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	var p bytebuf.Pool
	p.EnableStats()
	const cycles = 40000
	for range cycles {
		b := p.Get()
		b.B = append(b.B, make([]byte, 1000)...)
		p.Put(b)
	}
	s, c := p.Stats(), p.Calibration()
	if c.Calibrations == 0 || c.DefaultSize != 1024 || !s.Counting {
		t.Fatalf("not calibrated to 1 KiB: %+v, %+v", c, s)
	}
	if s.Gets != cycles || s.Puts != cycles || s.News != 1 {
		t.Errorf("Stats() = %+v, want %d Gets and Puts, 1 New", s, cycles)
	}
}

// TestStatsConcurrent checks, under -race too, that concurrent traffic
// keeps the counts consistent: every Get is a hit or a new, every Put is
// counted, and no buffer reaches two holders.
func TestStatsConcurrent(t *testing.T) {
	var p bytebuf.Pool
	p.EnableStats()
	const g, iters = 8, 2000
	pooltest.Stress(t, g, iters, func(id int, holders *sync.Map) (func() error, error) {
		b := p.Get()
		if err := pooltest.Claim(holders, b, id); err != nil {
			return nil, err
		}
		b.WriteByte(byte(id))
		return func() error {
			if len(b.B) != 1 || b.B[0] != byte(id) {
				return errBuf
			}
			holders.Delete(b)
			p.Put(b)
			return nil
		}, nil
	})
	s := p.Stats()
	if s.Gets != s.Puts || s.Gets < g*iters || s.News == 0 || s.News > s.Gets {
		t.Errorf("Stats() = %+v after %d goroutines x %d rounds", s, g, iters)
	}
}

var errBuf = errors.New("a buffer changed while its holder had it")
