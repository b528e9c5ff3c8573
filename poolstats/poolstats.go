// Package poolstats publishes the counts of named pools to expvar's
// /debug/vars, and through Read to any metrics system.
//
// github.com/poolkit/poolkit/poolprom builds a Prometheus collector on it.
//
// A pool's counts say what an operator wants to know of it: the hit
// ratio, 1 - News/Gets, the share of Gets served without allocating, and
// Drops, the values the pool refused to keep. A ratio that stays low means
// the pool is too small for the traffic (a GC empties it faster than it
// fills) or that values are not being put back.
//
//	var requests = pool.New(newRequest, pool.WithStats[*Request]())
//	var buffers bytebuf.Pool
//
//	func init() {
//		poolstats.Publish("requests", requests)
//		poolstats.Publish("buffers", &buffers)
//	}
//
// Any value with a method Stats() pool.Stats is a Source and can be
// published: poolkit's pools, and a pool of your own that counts its
// traffic.
//
// # Migrating from the API before 1.0
//
// Enable, Read and Publish took an any and refused at run time what was
// not a poolkit pool; they now take a Source, so the compiler checks it.
// Calls with a *pool.Pool, *slicepool.Pool or *bytebuf.Pool compile
// unchanged, except Read, which no longer returns an error:
//
//	c, err := poolstats.Read(&buffers) // before
//	c := poolstats.Read(&buffers)      // now
//
// Counts.Kind is gone: a pool's Go type says what kind it is.
package poolstats

import (
	"expvar"
	"fmt"
	"maps"
	"reflect"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
)

// Source is a pool whose counts can be published: *pool.Pool[T],
// *slicepool.Pool[E], *bytebuf.Pool, or a pool of your own. A Source that
// has an EnableStats method has it called by Enable and Publish; its
// Stats must report Counting after that, or Enable refuses it.
type Source interface {
	Stats() pool.Stats
}

// Counts is a pool's counts at one moment, as Publish shows them in
// /debug/vars.
type Counts struct {
	Gets  uint64 `json:"gets"`  // calls to Get
	Puts  uint64 `json:"puts"`  // calls to Put with a value to keep
	News  uint64 `json:"news"`  // Gets the pool could not serve, which made a new value
	Drops uint64 `json:"drops"` // Puts whose value the pool refused to keep
	// HitRatio is 1 - News/Gets, the share of Gets served from the pool;
	// 0 before the first Get.
	HitRatio float64 `json:"hit_ratio"`

	// For a bytebuf.Pool, its Calibration: the capacity new buffers start
	// with (0 until the pool calibrates), the largest capacity it keeps,
	// and how many times it has calibrated. Zero for other pools.
	DefaultSize  int    `json:"default_size,omitempty"`
	MaxSize      int    `json:"max_size,omitempty"`
	Calibrations uint64 `json:"calibrations,omitempty"`
}

// calibrated is a *bytebuf.Pool.
type calibrated interface{ Calibration() bytebuf.Calibration }

// Enable turns counting on for src, calling its EnableStats method if it
// has one (a *bytebuf.Pool or *slicepool.Pool does), and checks that src
// then counts: a *pool.Pool[T] counts only when made with pool.WithStats,
// which cannot be turned on later. It returns an error for a src that
// does not count, and for a nil pointer.
func Enable(src Source) error {
	if src == nil {
		return fmt.Errorf("poolstats: nil Source")
	}
	if v := reflect.ValueOf(src); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("poolstats: nil %T", src)
	}
	if e, ok := src.(interface{ EnableStats() }); ok {
		e.EnableStats()
	}
	if !src.Stats().Counting {
		return fmt.Errorf("poolstats: the %T counts nothing: its Stats report Counting false (a pool.Pool counts only when made with pool.WithStats)", src)
	}
	return nil
}

// Read returns src's counts; src must not be nil (Enable checks that).
// The Gets and Puts of a pool that does not count are zero; call Enable
// first.
func Read(src Source) Counts {
	s := src.Stats()
	c := Counts{Gets: s.Gets, Puts: s.Puts, News: s.News, Drops: s.Drops, HitRatio: s.HitRatio()}
	if b, ok := src.(calibrated); ok {
		cal := b.Calibration()
		c.DefaultSize, c.MaxSize, c.Calibrations = cal.DefaultSize, cal.MaxSize, cal.Calibrations
	}
	return c
}

// VarName is the expvar variable Publish adds its pools to, a map from
// each pool's name to its Counts.
const VarName = "poolkit_pools"

var (
	mu        sync.Mutex
	published = map[string]Source{}
	once      sync.Once
)

// Publish adds src (bytebuf.Default() for bytebuf's package-level pool)
// under name to the expvar variable VarName, so that /debug/vars shows
// its Counts. It calls Enable, which turns counting on for bytebuf and
// slicepool pools; call it before the pool is used so that the counts
// start together.
//
// Like expvar.Publish, it is meant for package initialisation and panics
// on a programming error: a name already published, or a src Enable
// refuses.
func Publish(name string, src Source) {
	if err := Enable(src); err != nil {
		panic(fmt.Sprintf("poolstats: Publish %q: %v", name, err))
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := published[name]; dup {
		panic(fmt.Sprintf("poolstats: Publish: a pool named %q is already published", name))
	}
	published[name] = src
	once.Do(func() { expvar.Publish(VarName, expvar.Func(snapshot)) })
}

// snapshot reads every published pool's counts.
func snapshot() any {
	mu.Lock()
	pools := maps.Clone(published)
	mu.Unlock()
	out := make(map[string]Counts, len(pools))
	for name, src := range pools {
		out[name] = Read(src)
	}
	return out
}
