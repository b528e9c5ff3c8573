// Package poolprom exports the counts of named poolkit pools as Prometheus
// metrics, through a prometheus.Collector. It is a module of its own, so
// that poolkit's go.mod gains no dependency on the Prometheus client.
//
//	c := poolprom.NewCollector()
//	c.Add("requests", requests) // a *pool.Pool made WithStats
//	c.Add("buffers", &buffers)  // a *bytebuf.Pool or *slicepool.Pool: Add turns counting on
//	prometheus.MustRegister(c)
//
// Add takes a poolstats.Source, any value with a method Stats()
// pool.Stats, so a pool of your own that counts its traffic is exported
// like poolkit's. Before poolkit 1.0 Add took an any and refused at run
// time what was not a poolkit pool; calls with poolkit's pools compile
// unchanged.
//
// The metrics, each with a pool label holding the name given to Add:
//
//	poolkit_pool_gets_total                counter  calls to Get
//	poolkit_pool_puts_total                counter  calls to Put with a value to keep
//	poolkit_pool_news_total                counter  Gets that made a new value: misses
//	poolkit_pool_drops_total               counter  Puts whose value the pool refused
//	poolkit_bytebuf_default_size_bytes     gauge    capacity new buffers start with (bytebuf)
//	poolkit_bytebuf_max_size_bytes         gauge    largest capacity kept (bytebuf)
//	poolkit_bytebuf_calibrations_total     counter  calibrations so far (bytebuf)
//
// The hit ratio is not exported, as Prometheus practice is not to export
// what a query can compute: over five minutes it is
//
//	1 - rate(poolkit_pool_news_total[5m]) / rate(poolkit_pool_gets_total[5m])
package poolprom

import (
	"fmt"
	"sort"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/poolstats"
	"github.com/prometheus/client_golang/prometheus"
)

var (
	labels = []string{"pool"}

	getsDesc = prometheus.NewDesc("poolkit_pool_gets_total",
		"Calls to Get on the poolkit pool.", labels, nil)
	putsDesc = prometheus.NewDesc("poolkit_pool_puts_total",
		"Calls to Put on the poolkit pool with a value to keep.", labels, nil)
	newsDesc = prometheus.NewDesc("poolkit_pool_news_total",
		"Gets the poolkit pool could not serve, which made a new value.", labels, nil)
	dropsDesc = prometheus.NewDesc("poolkit_pool_drops_total",
		"Puts whose value the poolkit pool refused to keep.", labels, nil)
	defaultSizeDesc = prometheus.NewDesc("poolkit_bytebuf_default_size_bytes",
		"Capacity new buffers of the bytebuf pool start with; 0 until it calibrates.", labels, nil)
	maxSizeDesc = prometheus.NewDesc("poolkit_bytebuf_max_size_bytes",
		"Largest buffer capacity the bytebuf pool keeps.", labels, nil)
	calibrationsDesc = prometheus.NewDesc("poolkit_bytebuf_calibrations_total",
		"Times the bytebuf pool has calibrated its sizes.", labels, nil)
)

// Collector is a prometheus.Collector of named poolkit pools, safe for
// concurrent use. Make it with NewCollector.
type Collector struct {
	mu    sync.Mutex
	pools map[string]poolstats.Source
}

// NewCollector returns a Collector with no pools.
func NewCollector() *Collector {
	return &Collector{pools: map[string]poolstats.Source{}}
}

// Add adds src under name, the value of the metrics' pool label. src is
// a *pool.Pool made with pool.WithStats, a *slicepool.Pool, a
// *bytebuf.Pool (bytebuf.Default() for the package-level one) or a pool
// of your own. Add calls poolstats.Enable, which turns counting on for
// bytebuf and slicepool pools (EnableStats), so call it before the pool
// is used. It returns an error for a src that does not count, and for a
// name already added.
func (c *Collector) Add(name string, src poolstats.Source) error {
	if err := poolstats.Enable(src); err != nil {
		return fmt.Errorf("poolprom: Add %q: %v", name, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.pools[name]; dup {
		return fmt.Errorf("poolprom: Add: a pool named %q is already added", name)
	}
	c.pools[name] = src
	return nil
}

// Describe sends the descriptions of every metric the Collector may
// export.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{getsDesc, putsDesc, newsDesc, dropsDesc,
		defaultSizeDesc, maxSizeDesc, calibrationsDesc} {
		ch <- d
	}
}

// Collect reads every pool's counts and sends them as metrics.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	names := make([]string, 0, len(c.pools))
	for name := range c.pools {
		names = append(names, name)
	}
	pools := make([]poolstats.Source, len(names))
	sort.Strings(names)
	for i, name := range names {
		pools[i] = c.pools[name]
	}
	c.mu.Unlock()
	for i, name := range names {
		s := pools[i].Stats()
		counter := func(d *prometheus.Desc, v uint64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), name)
		}
		counter(getsDesc, s.Gets)
		counter(putsDesc, s.Puts)
		counter(newsDesc, s.News)
		counter(dropsDesc, s.Drops)
		if b, ok := pools[i].(interface{ Calibration() bytebuf.Calibration }); ok {
			cal := b.Calibration()
			ch <- prometheus.MustNewConstMetric(defaultSizeDesc, prometheus.GaugeValue, float64(cal.DefaultSize), name)
			ch <- prometheus.MustNewConstMetric(maxSizeDesc, prometheus.GaugeValue, float64(cal.MaxSize), name)
			counter(calibrationsDesc, cal.Calibrations)
		}
	}
}
