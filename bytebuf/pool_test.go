package bytebuf_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/allocs"
	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/check"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
)

func TestPoolZeroValue(t *testing.T) {
	var p bytebuf.Pool
	if got := p.Stats(); got != (pool.Stats{}) {
		t.Fatalf("zero Pool.Stats() = %+v, want all zero", got)
	}
	want := bytebuf.Calibration{MaxSize: bytebuf.MaxRetainedCap}
	if got := p.Calibration(); got != want {
		t.Fatalf("zero Pool.Calibration() = %+v, want %+v", got, want)
	}
	b := p.Get()
	if b == nil || b.Len() != 0 {
		t.Fatalf("zero Pool.Get() = %v, want an empty buffer", b)
	}
	b.WriteString("hello")
	p.Put(b)
	p.Put(nil) // no-op
	if got := p.Get(); got == nil || got.Len() != 0 {
		t.Fatalf("Get after Put = %v, want an empty buffer", got)
	}
}

func TestPackageGetPut(t *testing.T) {
	b := bytebuf.Get()
	if b == nil || b.Len() != 0 {
		t.Fatalf("bytebuf.Get() = %v, want an empty buffer", b)
	}
	b.WriteString("used")
	bytebuf.Put(b)
	bytebuf.Put(nil) // no-op
	for range 10 {
		if got := bytebuf.Get(); got.Len() != 0 {
			t.Fatalf("bytebuf.Get() after Put returned %q, want an empty buffer", got.B)
		}
	}
}

func TestPoolPut(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	tests := []struct {
		name      string
		cap       int
		len       int
		wantKept  bool
		wantDrops uint64
	}{
		{"empty", 0, 0, true, 0},
		{"small", 64, 10, true, 0},
		{"large", 1 << 20, 1 << 20, true, 0},
		{"at MaxRetainedCap", bytebuf.MaxRetainedCap, 100, true, 0},
		{"over MaxRetainedCap", bytebuf.MaxRetainedCap + 1, 100, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p bytebuf.Pool
			b := &bytebuf.Buffer{B: make([]byte, tt.len, tt.cap)}
			p.Put(b)
			got := p.Get()
			if (got == b) != tt.wantKept {
				t.Fatalf("Put(cap %d) then Get: same buffer = %v, want %v", tt.cap, got == b, tt.wantKept)
			}
			if got.Len() != 0 {
				t.Fatalf("Get returned a buffer holding %d bytes, want 0", got.Len())
			}
			if s := p.Stats(); s.Drops != tt.wantDrops {
				t.Fatalf("Stats().Drops = %d, want %d", s.Drops, tt.wantDrops)
			}
		})
	}
}

func TestPoolCalibration(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	var p bytebuf.Pool
	payload := bytes.Repeat([]byte("x"), 1000)
	// About 1,250 sampled Puts of ~1 KB: two calibrations or more.
	for range 40000 {
		b := p.Get()
		b.Write(payload)
		p.Put(b)
	}
	s, c := p.Stats(), p.Calibration()
	if c.Calibrations == 0 {
		t.Fatalf("no calibration after 40,000 Puts: %+v", c)
	}
	if c.DefaultSize != 1024 || c.MaxSize != 2048 {
		t.Fatalf("calibrated to DefaultSize %d MaxSize %d, want 1024 and 2048 for 1000-byte buffers", c.DefaultSize, c.MaxSize)
	}

	// Buffers far larger than the calibrated maximum are dropped.
	big := &bytebuf.Buffer{B: make([]byte, 0, 64<<10)}
	p.Put(big)
	if got := p.Stats().Drops; got != s.Drops+1 {
		t.Fatalf("Drops = %d after putting a 64 KiB buffer, want %d", got, s.Drops+1)
	}
	// New buffers start at the calibrated size: drain the pool first.
	runtime.GC()
	runtime.GC()
	if b := p.Get(); b.Cap() != c.DefaultSize || b == big {
		t.Fatalf("Get from the empty calibrated pool = cap %d, want a new buffer of cap %d", b.Cap(), c.DefaultSize)
	}
}

// TestPoolRecalibratesOnShift calibrates a pool on 100-byte buffers, then
// shifts the traffic to 3,000-byte buffers, which the calibrated pool drops.
// The drops must trigger a recalibration long before the 16,000 Puts a
// sampled recalibration takes, after which the pool keeps the new size.
func TestPoolRecalibratesOnShift(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	var p bytebuf.Pool
	small, large := bytes.Repeat([]byte("s"), 100), bytes.Repeat([]byte("L"), 3000)
	cycle := func(payload []byte) {
		b := p.Get()
		b.Write(payload)
		p.Put(b)
	}
	for range 40000 {
		cycle(small)
	}
	before, beforeCal := p.Stats(), p.Calibration()
	if beforeCal.MaxSize >= len(large) {
		t.Fatalf("calibrated MaxSize %d on 100-byte buffers, want < %d", beforeCal.MaxSize, len(large))
	}
	const shifted = 4000
	for range shifted {
		cycle(large)
	}
	after, afterCal := p.Stats(), p.Calibration()
	if afterCal.MaxSize < len(large) {
		t.Fatalf("after %d Puts of 3,000 bytes MaxSize is still %d (%d drops): no recalibration", shifted, afterCal.MaxSize, after.Drops-before.Drops)
	}
	if drops := after.Drops - before.Drops; drops > shifted/2 {
		t.Fatalf("%d of %d Puts dropped after the shift, want the pool to adapt within half of them", drops, shifted)
	}
	// Settled: the larger buffers are kept and no longer allocate.
	if got := allocs.PerRun(1000, func() { cycle(large) }); got != 0 {
		t.Fatalf("Get/write 3,000 B/Put after recalibrating = %v allocs, want 0", got)
	}
}

// TestPoolMemoryBound runs 100,000 Get/write/Put cycles of about 1 KiB
// mixed with 100 cycles of 8 MiB, on one P, through a bytebuf.Pool and
// through a plain sync.Pool of *bytes.Buffer. Once calibrated, the bytebuf
// pool holds no 8 MiB buffer; the sync.Pool keeps one for good.
func TestPoolMemoryBound(t *testing.T) {
	pooltest.SkipIfRace(t) // a memory measure
	if testing.Short() {
		t.Skip("moves about 2 GB of memory")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const (
		cycles   = 100_100
		bigEvery = 1001 // 100 big cycles
		bigSize  = 8 << 20
	)
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	write := func(w interface{ Write([]byte) (int, error) }, i int) {
		if i%bigEvery == bigEvery-1 {
			for range bigSize / len(chunk) {
				w.Write(chunk)
			}
			return
		}
		w.Write(chunk[:900+i%200]) // 900 to 1099 bytes
	}
	// heap returns the live heap after one GC,
	// which moves pooled objects to the victim cache but keeps them.
	heap := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}

	t.Run("bytebuf.Pool", func(t *testing.T) {
		var p bytebuf.Pool
		base := heap()
		for i := range cycles {
			b := p.Get()
			write(b, i)
			p.Put(b)
		}
		grown := heap() - base
		s, c := p.Stats(), p.Calibration()
		t.Logf("stats %+v, calibration %+v, heap growth %d KiB", s, c, grown>>10)
		if c.Calibrations == 0 || c.MaxSize >= bigSize {
			t.Fatalf("pool did not calibrate below 8 MiB: %+v", c)
		}
		// The first calibration comes after about 16,600 Puts, so the
		// first 16 or so big buffers are kept and reused until then.
		if s.Drops < 75 {
			t.Fatalf("Drops = %d, want the big buffers after calibration dropped", s.Drops)
		}
		if grown >= bigSize/4 {
			t.Fatalf("live heap grew by %d KiB: an 8 MiB buffer is still pooled", grown>>10)
		}
		for range 64 { // everything the pool holds on one P, and more
			if b := p.Get(); b.Cap() >= bigSize {
				t.Fatalf("the pool still holds a buffer of cap %d", b.Cap())
			}
		}
		runtime.KeepAlive(&p)
	})

	t.Run("sync.Pool of *bytes.Buffer keeps it", func(t *testing.T) {
		p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
		base := heap()
		for i := range cycles {
			b := p.Get().(*bytes.Buffer)
			write(b, i)
			b.Reset()
			p.Put(b)
		}
		grown := heap() - base
		t.Logf("heap growth %d KiB", grown>>10)
		if grown < bigSize*3/4 {
			t.Fatalf("live heap grew by only %d KiB; expected the sync.Pool to pin an 8 MiB buffer", grown>>10)
		}
		found := false
		for range 64 {
			if b := p.Get().(*bytes.Buffer); b.Cap() >= bigSize {
				found = true
			}
		}
		if !found {
			t.Fatal("the sync.Pool holds no 8 MiB buffer; the comparison shows nothing")
		}
	})
}

// TestPoolGC checks the victim cache: a pooled buffer survives one garbage
// collection and is gone after two more.
func TestPoolGC(t *testing.T) {
	pooltest.SkipIfChecked(t) // checked mode holds buffers itself, out of the GC's reach
	pooltest.PinGC(t)
	var p bytebuf.Pool
	kept := map[*bytebuf.Buffer]bool{}
	for range 100 {
		b := &bytebuf.Buffer{B: make([]byte, 0, 128)}
		kept[b] = true
		p.Put(b)
	}
	runtime.GC()
	if b := p.Get(); !kept[b] {
		t.Fatal("after one GC the pool is empty; the victim cache should have kept its buffers")
	}
	runtime.GC()
	runtime.GC()
	if b := p.Get(); kept[b] {
		t.Fatal("after two more GCs Get returned a pooled buffer, want a new one")
	}
}

func TestPoolAllocs(t *testing.T) {
	var p bytebuf.Pool
	for _, n := range []int{0, 64, 1000, 10000, 1 << 20} {
		t.Run(fmt.Sprintf("write=%d", n), func(t *testing.T) {
			data := make([]byte, n)
			f := func() {
				b := p.Get()
				b.Write(data)
				p.Put(b)
			}
			pooltest.WantSteadyAllocs(t, 0, 10, f)
		})
	}
	t.Run("through calibrations", func(t *testing.T) {
		var p bytebuf.Pool
		data := make([]byte, 700)
		f := func() {
			b := p.Get()
			b.Write(data)
			p.Put(b)
		}
		pooltest.SkipIfRace(t)
		before := p.Calibration().Calibrations
		if got := allocs.PerRun(60000, f); got != 0 {
			t.Fatalf("Get + write + Put allocates %v times per run over 60,000 runs, want 0", got)
		}
		if p.Calibration().Calibrations < before+2 {
			t.Fatalf("only %d calibrations in 60,000 runs; the test should cover several", p.Calibration().Calibrations-before)
		}
	})
	t.Run("package Get and Put", func(t *testing.T) {
		f := func() {
			b := bytebuf.Get()
			b.WriteString("hello, world")
			b.AppendInt(42)
			bytebuf.Put(b)
		}
		pooltest.WantSteadyAllocs(t, 0, 10, f)
	})
}

// TestPoolConcurrentOwnership: goroutines Get one to three buffers at a
// time, check they come empty, claim them, fill them with a byte of their
// own, yield, verify, Put. Some buffers grow past what the pool keeps, so
// drops happen too.
func TestPoolConcurrentOwnership(t *testing.T) {
	const goroutines = 16
	iters := 2000
	if testing.Short() || check.Enabled { // a checked Put costs an mprotect system call
		iters = 200
	}
	var p bytebuf.Pool
	// rngs[g] and patterns[g] are used by goroutine g only.
	rngs := make([]*rand.Rand, goroutines+1)
	patterns := make([][]byte, goroutines+1)
	for g := range rngs {
		rngs[g] = rand.New(rand.NewPCG(uint64(g), 1))
		patterns[g] = bytes.Repeat([]byte{byte(g)}, 256<<10)
	}
	pooltest.Stress(t, goroutines, iters, func(g int, holders *sync.Map) (func() error, error) {
		b := p.Get()
		if b.Len() != 0 {
			return nil, fmt.Errorf("goroutine %d got a buffer holding %q from a previous holder", g, b.B[:min(b.Len(), 16)])
		}
		if err := pooltest.Claim(holders, b, g); err != nil {
			return nil, err
		}
		array := unsafe.Pointer(unsafe.SliceData(b.B))
		claimedArray := b.Cap() > 0
		if claimedArray {
			if err := pooltest.Claim(holders, array, g); err != nil {
				return nil, err
			}
		}
		rng, pattern := rngs[g], patterns[g]
		n := 1 + rng.IntN(4096)
		if rng.IntN(100) == 0 {
			n = 256 << 10
		}
		b.Write(pattern[:n/2])
		b.WriteByte(byte(g))
		b.Write(pattern[:n-n/2-1])
		return func() error {
			if !bytes.Equal(b.B, pattern[:n]) {
				i := 0
				for i < min(b.Len(), n) && b.B[i] == byte(g) {
					i++
				}
				return fmt.Errorf("goroutine %d's buffer (%d bytes, want %d) was changed at %d by someone else", g, b.Len(), n, i)
			}
			holders.Delete(b)
			if claimedArray {
				holders.Delete(array)
			}
			p.Put(b)
			return nil
		}, nil
	})
}
