package pool_test

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
)

type object struct {
	id   int
	data [4]int64
}

type pair struct{ a, b int64 }

func TestZeroValue(t *testing.T) {
	var pp pool.Pool[*object]
	if got := pp.Get(); got != nil {
		t.Fatalf("zero Pool[*object].Get() = %v, want nil", got)
	}
	var ps pool.Pool[[]byte]
	if got := ps.Get(); got != nil {
		t.Fatalf("zero Pool[[]byte].Get() = %v, want nil", got)
	}
	var pv pool.Pool[pair]
	if got := pv.Get(); got != (pair{}) {
		t.Fatalf("zero Pool[pair].Get() = %v, want zero pair", got)
	}
	if got := pv.Stats(); got != (pool.Stats{}) {
		t.Fatalf("zero Pool.Stats() = %+v, want all zero", got)
	}

	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	o := &object{id: 7}
	pp.Put(o)
	if got := pp.Get(); got != o {
		t.Fatalf("zero Pool: Get after Put(o) = %p, want %p", got, o)
	}
	pv.Put(pair{1, 2})
	if got := pv.Get(); got != (pair{1, 2}) {
		t.Fatalf("zero Pool[pair]: Get after Put = %v, want {1 2}", got)
	}
	ps.Put([]byte("abc"))
	if got := ps.Get(); string(got) != "abc" {
		t.Fatalf("zero Pool[[]byte]: Get after Put = %q, want %q", got, "abc")
	}
}

func TestNilNew(t *testing.T) {
	p := pool.New[*object](nil, pool.WithStats[*object]())
	if got := p.Get(); got != nil {
		t.Fatalf("New(nil).Get() = %v, want nil", got)
	}
	if got := p.Stats(); got.Gets != 1 || got.News != 1 {
		t.Fatalf("Stats after one Get on an empty pool = %+v, want Gets 1 News 1", got)
	}
}

func TestPutNilIsNoOp(t *testing.T) {
	pooltest.PinGC(t)
	resets := 0
	p := pool.New(func() *object { return &object{id: -1} },
		pool.WithStats[*object](),
		pool.WithReset(func(o *object) *object { resets++; return o }),
		pool.WithKeep(func(o *object) bool { return o.id >= 0 }), // would nil-panic if called with nil
	)
	p.Put(nil)
	if got := p.Get(); got == nil || got.id != -1 {
		t.Fatalf("Get after Put(nil) = %v, want a new object", got)
	}
	if resets != 0 {
		t.Fatalf("Put(nil) called reset %d times, want 0", resets)
	}
	if got := p.Stats(); got.Puts != 0 {
		t.Fatalf("Put(nil) counted: Stats = %+v", got)
	}

	// Every pointer-shaped kind.
	var pm pool.Pool[map[string]int]
	pm.Put(nil)
	if got := pm.Get(); got != nil {
		t.Fatalf("Pool[map].Get after Put(nil) = %v, want nil from the empty pool", got)
	}
	var pc pool.Pool[chan int]
	pc.Put(nil)
	if got := pc.Get(); got != nil {
		t.Fatalf("Pool[chan].Get after Put(nil) = %v, want nil", got)
	}
	var pf pool.Pool[func()]
	pf.Put(nil)
	if got := pf.Get(); got != nil {
		t.Fatal("Pool[func()].Get after Put(nil) returned a non-nil func")
	}
	var pu pool.Pool[unsafe.Pointer]
	pu.Put(nil)
	if got := pu.Get(); got != nil {
		t.Fatalf("Pool[unsafe.Pointer].Get after Put(nil) = %v, want nil", got)
	}
}

// TestPointerShapedRoundTrip checks the direct path, which reads values
// of pointer-shaped types straight out of the interfaces sync.Pool holds,
// for every such kind, on a zero Pool and on one made by New: a value put
// comes back as itself, and an empty pool gives New's value or the zero T.
func TestPointerShapedRoundTrip(t *testing.T) {
	pooltest.SkipIfRace(t) // the race detector makes sync.Pool drop values at random
	pooltest.PinGC(t)

	m := map[string]int{"k": 1}
	mapIdentity := func(x map[string]int) uintptr { return reflect.ValueOf(x).Pointer() }
	roundTrip(t, "map", func() map[string]int { return map[string]int{} }, m, mapIdentity)
	c := make(chan int, 1)
	roundTrip(t, "chan", func() chan int { return make(chan int) }, c, func(x chan int) uintptr { return reflect.ValueOf(x).Pointer() })
	calls := 0
	f := func() { calls++ }
	roundTrip(t, "func", func() func() { return func() {} }, f, func(x func()) uintptr { return reflect.ValueOf(x).Pointer() })
	o := &object{id: 3}
	roundTrip(t, "unsafe.Pointer", func() unsafe.Pointer { return unsafe.Pointer(new(object)) }, unsafe.Pointer(o), func(x unsafe.Pointer) uintptr { return uintptr(x) })
	roundTrip(t, "pointer", func() *object { return &object{id: -1} }, o, func(x *object) uintptr { return uintptr(unsafe.Pointer(x)) })

	// A func taken back out of the pool is the one put in, callable.
	var pf pool.Pool[func()]
	pf.Put(f)
	pf.Get()()
	if calls != 1 {
		t.Fatalf("calling the func Get returned ran the put func %d times, want 1", calls)
	}

	// A New that returns a nil pointer gives nil, not a value from nowhere.
	pn := pool.New(func() *object { return nil })
	if got := pn.Get(); got != nil {
		t.Fatalf("Get from a pool whose New returns nil = %p, want nil", got)
	}
}

// roundTrip puts v into a zero Pool[T] and a Pool[T] made by New(newFn),
// and checks, comparing with id, that each gives v back and then, empty,
// gives the zero T and a value made by newFn respectively.
func roundTrip[T any](t *testing.T, kind string, newFn func() T, v T, id func(T) uintptr) {
	t.Helper()
	var zero pool.Pool[T]
	made := pool.New(newFn)
	want := id(v)
	for _, tt := range []struct {
		name      string
		p         *pool.Pool[T]
		emptyZero bool
	}{{"zero Pool", &zero, true}, {"New", made, false}} {
		tt.p.Put(v)
		if v = tt.p.Get(); id(v) != want { // v is ours again
			t.Errorf("%s[%s]: Get after Put(v) = %#x, want v = %#x", tt.name, kind, id(v), want)
		}
		got := tt.p.Get()
		if isZero := id(got) == 0; isZero != tt.emptyZero {
			t.Errorf("%s[%s]: Get from the empty pool = %#x; want the zero value: %v", tt.name, kind, id(got), tt.emptyZero)
		}
	}
}

func TestResetReturningNilIsDropped(t *testing.T) {
	pooltest.PinGC(t)
	news := 0
	p := pool.New(func() *object { news++; return new(object) },
		pool.WithReset(func(*object) *object { return nil }))
	p.Put(new(object))
	if got := p.Get(); got == nil {
		t.Fatal("Get returned nil: a reset that returned nil was pooled")
	}
	if news != 1 {
		t.Fatalf("New called %d times, want 1", news)
	}
}

func TestOptions(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	type step struct {
		put     *object // nil: Get instead
		wantID  int     // for Get: the id the object must have
		wantNew bool    // for Get: whether it must be a fresh object
	}
	fresh := -1
	tests := []struct {
		name      string
		opts      []pool.Option[*object]
		steps     []step
		wantStats pool.Stats
	}{
		{
			name:      "no options keeps state",
			opts:      []pool.Option[*object]{pool.WithStats[*object]()},
			steps:     []step{{put: &object{id: 5}}, {wantID: 5}, {wantID: fresh, wantNew: true}},
			wantStats: pool.Stats{Gets: 2, Puts: 1, News: 1, Counting: true},
		},
		{
			name: "reset clears state",
			opts: []pool.Option[*object]{pool.WithStats[*object](),
				pool.WithReset(func(o *object) *object { *o = object{}; return o })},
			steps:     []step{{put: &object{id: 5}}, {wantID: 0}},
			wantStats: pool.Stats{Gets: 1, Puts: 1, Counting: true},
		},
		{
			name: "keep refuses",
			opts: []pool.Option[*object]{pool.WithStats[*object](),
				pool.WithKeep(func(o *object) bool { return o.id < 10 })},
			steps: []step{
				{put: &object{id: 11}}, {wantID: fresh, wantNew: true},
				{put: &object{id: 3}}, {wantID: 3},
			},
			wantStats: pool.Stats{Gets: 2, Puts: 2, News: 1, Drops: 1, Counting: true},
		},
		{
			name: "reset runs only on kept values",
			opts: []pool.Option[*object]{pool.WithStats[*object](),
				pool.WithKeep(func(o *object) bool { return o.id != 99 }),
				pool.WithReset(func(o *object) *object {
					if o.id == 99 {
						panic("reset called on a dropped value")
					}
					o.id = 42
					return o
				})},
			steps: []step{
				{put: &object{id: 99}}, {wantID: fresh, wantNew: true},
				{put: &object{id: 1}}, {wantID: 42},
			},
			wantStats: pool.Stats{Gets: 2, Puts: 2, News: 1, Drops: 1, Counting: true},
		},
		{
			name:      "without stats the counters stay zero",
			opts:      nil,
			steps:     []step{{put: &object{id: 1}}, {wantID: 1}, {wantID: fresh, wantNew: true}},
			wantStats: pool.Stats{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pool.New(func() *object { return &object{id: fresh} }, tt.opts...)
			var last *object
			for i, s := range tt.steps {
				if s.put != nil {
					last = s.put
					p.Put(s.put)
					continue
				}
				got := p.Get()
				if got == nil {
					t.Fatalf("step %d: Get() = nil", i)
				}
				if got.id != s.wantID {
					t.Fatalf("step %d: Get().id = %d, want %d", i, got.id, s.wantID)
				}
				if !s.wantNew && got != last {
					t.Fatalf("step %d: Get() = %p, want the object put last (%p)", i, got, last)
				}
			}
			if got := p.Stats(); got != tt.wantStats {
				t.Fatalf("Stats() = %+v, want %+v", got, tt.wantStats)
			}
		})
	}
}

func TestNonPointerTypes(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	t.Run("slice with reset", func(t *testing.T) {
		p := pool.New(func() []byte { return make([]byte, 0, 8) },
			pool.WithReset(func(s []byte) []byte { return s[:0] }))
		s := append(p.Get(), "hello"...)
		p.Put(s)
		got := p.Get()
		if len(got) != 0 || cap(got) != cap(s) || unsafe.SliceData(got) != unsafe.SliceData(s) {
			t.Fatalf("Get() = len %d cap %d, want the same array truncated to len 0", len(got), cap(got))
		}
	})
	t.Run("struct", func(t *testing.T) {
		p := pool.New(func() pair { return pair{-1, -1} })
		// As with sync.Pool on one P: the first value put is in the
		// private slot and comes back first.
		p.Put(pair{3, 4})
		p.Put(pair{5, 6})
		if got := p.Get(); got != (pair{3, 4}) {
			t.Fatalf("first Get() = %v, want {3 4}", got)
		}
		if got := p.Get(); got != (pair{5, 6}) {
			t.Fatalf("second Get() = %v, want {5 6}", got)
		}
		if got := p.Get(); got != (pair{-1, -1}) {
			t.Fatalf("Get() on the empty pool = %v, want New's {-1 -1}", got)
		}
	})
	t.Run("string", func(t *testing.T) {
		var p pool.Pool[string]
		p.Put("x")
		if got := p.Get(); got != "x" {
			t.Fatalf("Get() = %q, want %q", got, "x")
		}
	})
	t.Run("keep on struct", func(t *testing.T) {
		p := pool.New(func() pair { return pair{} },
			pool.WithKeep(func(v pair) bool { return v.a < 100 }), pool.WithStats[pair]())
		p.Put(pair{a: 100})
		if got := p.Get(); got != (pair{}) {
			t.Fatalf("Get() = %v, want a new zero pair", got)
		}
		if got := p.Stats(); got.Drops != 1 {
			t.Fatalf("Stats().Drops = %d, want 1", got.Drops)
		}
	})
}

// TestGC checks that pooled values survive one garbage collection (in the
// victim cache) and are gone after two, for the direct and the boxed path.
func TestGC(t *testing.T) {
	pooltest.SkipIfChecked(t) // checked mode holds values itself, out of the GC's reach
	pooltest.PinGC(t)
	t.Run("pointer", func(t *testing.T) {
		p := pool.New(func() *object { return &object{id: -1} })
		testGC(t, func(i int) { p.Put(&object{id: i}) }, func() int { return p.Get().id })
	})
	t.Run("struct", func(t *testing.T) {
		p := pool.New(func() pair { return pair{a: -1} })
		testGC(t, func(i int) { p.Put(pair{a: int64(i)}) }, func() int { return int(p.Get().a) })
	})
}

func testGC(t *testing.T, put func(int), get func() int) {
	t.Helper()
	// Enough values to spill from the per-P private slot into the shared
	// queue; under -race sync.Pool drops one Put in four at random.
	for i := range 100 {
		put(i)
	}
	runtime.GC()
	if got := get(); got < 0 {
		t.Fatal("after one GC the pool is empty; the victim cache should have kept its values")
	}
	runtime.GC()
	runtime.GC()
	if got := get(); got != -1 {
		t.Fatalf("after two more GCs Get() returned pooled value %d, want a new one", got)
	}
}

// TestAllocs asserts that Get and Put allocate nothing in steady state for
// every kind of T.
func TestAllocs(t *testing.T) {
	ptr := pool.New(func() *object { return new(object) })
	slice := pool.New(func() []byte { return make([]byte, 0, 64) },
		pool.WithReset(func(s []byte) []byte { return s[:0] }))
	small := pool.New(func() pair { return pair{} })
	str := pool.New(func() string { return "" })
	withAll := pool.New(func() *object { return new(object) },
		pool.WithReset(func(o *object) *object { *o = object{}; return o }),
		pool.WithKeep(func(*object) bool { return true }),
		pool.WithStats[*object]())
	var zero pool.Pool[pair]
	tests := []struct {
		name string
		f    func()
	}{
		{"pointer", func() { o := ptr.Get(); o.id++; ptr.Put(o) }},
		{"slice", func() { s := slice.Get(); s = append(s, 1); slice.Put(s) }},
		{"small struct", func() { v := small.Get(); v.a++; small.Put(v) }},
		{"string", func() { str.Put(str.Get() + "") }},
		{"all options", func() { withAll.Put(withAll.Get()) }},
		{"zero pool struct", func() { zero.Put(zero.Get()) }},
		{"two held at once", func() {
			a, b := small.Get(), small.Get()
			small.Put(a)
			small.Put(b)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A few calls first, so the sync.Pools' per-P queues exist:
			// steady state is what is asserted.
			pooltest.WantSteadyAllocs(t, 0, 10, tt.f)
		})
	}
}

// TestConcurrentOwnership runs many goroutines that each Get one to three
// objects, claim them, fill them with a pattern of their own, yield, check
// the pattern and Put them back. An object handed to two holders at once
// (including twice to the same goroutine), or one that still carries the
// previous holder's data (the reset function clears it), fails the test.
func TestConcurrentOwnership(t *testing.T) {
	const goroutines = 16
	iters := 2000
	if testing.Short() {
		iters = 200
	}

	t.Run("pointer", func(t *testing.T) {
		var resets atomic.Int64
		p := pool.New(func() *object { return new(object) },
			pool.WithReset(func(o *object) *object { *o = object{}; resets.Add(1); return o }))
		pooltest.Stress(t, goroutines, iters, func(g int, holders *sync.Map) (func() error, error) {
			o := p.Get()
			if *o != (object{}) {
				return nil, fmt.Errorf("Get returned an object holding %+v: previous holder's data", *o)
			}
			if prev, loaded := holders.LoadOrStore(o, g); loaded {
				return nil, fmt.Errorf("object %p handed to goroutine %d while goroutine %v holds it", o, g, prev)
			}
			o.id = g
			for i := range o.data {
				o.data[i] = int64(g)<<8 | int64(i)
			}
			return func() error {
				for i := range o.data {
					if o.id != g || o.data[i] != int64(g)<<8|int64(i) {
						return fmt.Errorf("goroutine %d's object was changed by someone else: %+v", g, *o)
					}
				}
				holders.Delete(o)
				p.Put(o)
				return nil
			}, nil
		})
		if resets.Load() == 0 {
			t.Fatal("reset never ran")
		}
	})

	t.Run("pointer without options", func(t *testing.T) {
		// The fast path: no reset, so the holder clears the object itself.
		p := pool.New(func() *object { return new(object) })
		pooltest.Stress(t, goroutines, iters, func(g int, holders *sync.Map) (func() error, error) {
			o := p.Get()
			if prev, loaded := holders.LoadOrStore(o, g); loaded {
				return nil, fmt.Errorf("object %p handed to goroutine %d while goroutine %v holds it", o, g, prev)
			}
			if o.id != 0 {
				return nil, fmt.Errorf("Get returned an object still marked by goroutine %d", o.id)
			}
			o.id = g
			return func() error {
				if o.id != g {
					return fmt.Errorf("goroutine %d's object was changed by goroutine %d", g, o.id)
				}
				o.id = 0
				holders.Delete(o)
				p.Put(o)
				return nil
			}, nil
		})
	})

	t.Run("slice", func(t *testing.T) {
		p := pool.New(func() []int64 { return make([]int64, 0, 32) },
			pool.WithReset(func(s []int64) []int64 { clear(s[:cap(s)]); return s[:0] }),
			pool.WithKeep(func(s []int64) bool { return cap(s) <= 64 }))
		pooltest.Stress(t, goroutines, iters, func(g int, holders *sync.Map) (func() error, error) {
			s := p.Get()
			if len(s) != 0 {
				return nil, fmt.Errorf("Get returned len %d, want 0", len(s))
			}
			for i, v := range s[:cap(s)] {
				if v != 0 {
					return nil, fmt.Errorf("element %d holds %#x from a previous holder", i, v)
				}
			}
			key := unsafe.SliceData(s)
			if prev, loaded := holders.LoadOrStore(key, g); loaded {
				return nil, fmt.Errorf("array %p handed to goroutine %d while goroutine %v holds it", key, g, prev)
			}
			n := 16 + g%40 // sometimes grows past the keep limit
			for i := range n {
				s = append(s, int64(g)<<16|int64(i))
			}
			return func() error {
				for i, v := range s {
					if v != int64(g)<<16|int64(i) {
						return fmt.Errorf("goroutine %d's slice was changed by someone else at %d: %#x", g, i, v)
					}
				}
				holders.Delete(key)
				p.Put(s)
				return nil
			}, nil
		})
	})

	t.Run("struct", func(t *testing.T) {
		// Values are copied in and out, so only leftovers can be seen:
		// a pair must come back either new or reset to zero.
		p := pool.New(func() pair { return pair{} },
			pool.WithReset(func(pair) pair { return pair{} }))
		pooltest.Stress(t, goroutines, iters, func(g int, _ *sync.Map) (func() error, error) {
			v := p.Get()
			if v != (pair{}) {
				return nil, fmt.Errorf("Get returned %+v, want a zero pair", v)
			}
			v = pair{int64(g), -int64(g)}
			return func() error { p.Put(v); return nil }, nil
		})
	})
}
