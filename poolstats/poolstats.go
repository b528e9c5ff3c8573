// Package poolstats publishes the counts of named poolkit pools where
// operators look: expvar's /debug/vars, and through Read, any metrics
// system (github.com/poolkit/poolkit/poolprom builds a Prometheus
// collector on it).
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
package poolstats

import (
	"expvar"
	"fmt"
	"maps"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

// Counts is a pool's counts at one moment.
type Counts struct {
	Kind  string `json:"kind"`  // "pool", "slicepool" or "bytebuf"
	Gets  uint64 `json:"gets"`  // calls to Get
	Puts  uint64 `json:"puts"`  // calls to Put with a value to keep
	News  uint64 `json:"news"`  // Gets the pool could not serve, which made a new value
	Drops uint64 `json:"drops"` // Puts whose value the pool refused to keep
	// HitRatio is 1 - News/Gets, the share of Gets served from the pool;
	// 0 before the first Get.
	HitRatio float64 `json:"hit_ratio"`

	// For a bytebuf.Pool: the capacity new buffers start with (0 until
	// the pool calibrates), the largest capacity it keeps, and how many
	// times it has calibrated.
	DefaultSize  int    `json:"default_size,omitempty"`
	MaxSize      int    `json:"max_size,omitempty"`
	Calibrations uint64 `json:"calibrations,omitempty"`
}

// poolStats is every *pool.Pool[T], whatever T.
type poolStats interface{ Stats() pool.Stats }

// sliceStats is every *slicepool.Pool[E], whatever E.
type sliceStats interface {
	Stats() slicepool.Stats
	EnableStats()
}

// Enable turns counting on for p, a *bytebuf.Pool or a
// *slicepool.Pool[E] (their EnableStats), and checks that a *pool.Pool[T]
// was made with pool.WithStats, which cannot be turned on later. It
// returns an error for any other p.
func Enable(p any) error {
	switch p := p.(type) {
	case *bytebuf.Pool:
		if p == nil {
			return fmt.Errorf("poolstats: nil *bytebuf.Pool")
		}
		p.EnableStats()
	case sliceStats:
		p.EnableStats()
	case poolStats:
		if !p.Stats().Counting {
			return fmt.Errorf("poolstats: the %T was made without pool.WithStats, so it counts nothing", p)
		}
	default:
		return fmt.Errorf("poolstats: %T is not a poolkit pool (want a *pool.Pool, *slicepool.Pool or *bytebuf.Pool)", p)
	}
	return nil
}

// Read returns p's counts; p is a pool Enable accepts. The counts of a
// bytebuf or slicepool pool are zero (News and Drops apart, for bytebuf)
// until counting is enabled.
func Read(p any) (Counts, error) {
	var c Counts
	switch p := p.(type) {
	case *bytebuf.Pool:
		if p == nil {
			return c, fmt.Errorf("poolstats: nil *bytebuf.Pool")
		}
		s := p.Stats()
		c = Counts{Kind: "bytebuf", Gets: s.Gets, Puts: s.Puts, News: s.News, Drops: s.Drops,
			DefaultSize: s.DefaultSize, MaxSize: s.MaxSize, Calibrations: s.Calibrations}
	case sliceStats:
		s := p.Stats()
		c = Counts{Kind: "slicepool", Gets: s.Gets, Puts: s.Puts, News: s.News, Drops: s.Drops}
	case poolStats:
		s := p.Stats()
		c = Counts{Kind: "pool", Gets: s.Gets, Puts: s.Puts, News: s.News, Drops: s.Drops}
	default:
		return c, fmt.Errorf("poolstats: %T is not a poolkit pool (want a *pool.Pool, *slicepool.Pool or *bytebuf.Pool)", p)
	}
	if c.Gets > 0 {
		// News can run ahead of Gets between two loads of concurrent
		// counters; the ratio stays within [0, 1].
		c.HitRatio = max(0, 1-float64(c.News)/float64(c.Gets))
	}
	return c, nil
}

// VarName is the expvar variable Publish adds its pools to, a map from
// each pool's name to its Counts.
const VarName = "poolkit_pools"

var (
	mu        sync.Mutex
	published = map[string]any{}
	once      sync.Once
)

// Publish adds p, a *pool.Pool made WithStats, a *slicepool.Pool or a
// *bytebuf.Pool (bytebuf.Default() for the package-level one), under name
// to the expvar variable VarName, so that /debug/vars shows its Counts. It
// turns counting on for bytebuf and slicepool pools (EnableStats); call it
// before the pool is used so that the counts start together.
//
// Like expvar.Publish, it is meant for package initialisation and panics
// on a programming error: a name already published, or a p Enable
// refuses.
func Publish(name string, p any) {
	if err := Enable(p); err != nil {
		panic(fmt.Sprintf("poolstats: Publish %q: %v", name, err))
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := published[name]; dup {
		panic(fmt.Sprintf("poolstats: Publish: a pool named %q is already published", name))
	}
	published[name] = p
	once.Do(func() { expvar.Publish(VarName, expvar.Func(snapshot)) })
}

// snapshot reads every published pool's counts.
func snapshot() any {
	mu.Lock()
	pools := maps.Clone(published)
	mu.Unlock()
	out := make(map[string]Counts, len(pools))
	for name, p := range pools {
		c, _ := Read(p) // Publish accepted p, so Read does too
		out[name] = c
	}
	return out
}
