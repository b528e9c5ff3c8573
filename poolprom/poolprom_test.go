package poolprom_test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/poolprom"
	"github.com/poolkit/poolkit/poolstats"
	"github.com/poolkit/poolkit/slicepool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

type request struct{ body []byte }

// scrape serves reg with promhttp on 127.0.0.1, fetches it over HTTP and
// parses the text exposition with expfmt.
func scrape(t *testing.T, reg *prometheus.Registry) map[string]*dto.MetricFamily {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError})}
	go srv.Serve(ln)
	defer srv.Close()
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/metrics", nil)
	req.Header.Set("Accept", "text/plain") // the text format, not protobuf
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape: %s", resp.Status)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("scrape: Content-Type %q", ct)
	}
	// Legacy validation: the names must be valid for every Prometheus
	// release, not only those that accept UTF-8 names.
	p := expfmt.NewTextParser(model.LegacyValidation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parsing the scrape: %v", err)
	}
	return mfs
}

// value returns the value of the family's sample with label pool=name,
// checking the family's type.
func value(t *testing.T, mfs map[string]*dto.MetricFamily, family string, typ dto.MetricType, pool string) (float64, bool) {
	t.Helper()
	mf := mfs[family]
	if mf == nil {
		return 0, false
	}
	if mf.GetType() != typ {
		t.Errorf("%s is a %v, want a %v", family, mf.GetType(), typ)
	}
	for _, m := range mf.GetMetric() {
		if len(m.GetLabel()) != 1 || m.GetLabel()[0].GetName() != "pool" {
			t.Errorf("%s has labels %v, want pool only", family, m.GetLabel())
			continue
		}
		if m.GetLabel()[0].GetValue() != pool {
			continue
		}
		if typ == dto.MetricType_COUNTER {
			return m.GetCounter().GetValue(), true
		}
		return m.GetGauge().GetValue(), true
	}
	return 0, false
}

// TestCollector registers pools in a real registry, drives a known number
// of Gets, Puts, misses and drops through them, and checks what a
// Prometheus server would scrape.
func TestCollector(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	requests := pool.New(func() *request { return new(request) },
		pool.WithStats[*request](),
		pool.WithKeep(func(r *request) bool { return cap(r.body) <= 1024 }))
	var buffers bytebuf.Pool
	var ids slicepool.Pool[int64]

	c := poolprom.NewCollector()
	jobs := &jobPool{stats: pool.Stats{Counting: true}}
	for name, p := range map[string]poolstats.Source{"requests": requests, "buffers": &buffers, "ids": &ids, "jobs": jobs} {
		if err := c.Add(name, p); err != nil {
			t.Fatal(err)
		}
	}
	reg := prometheus.NewPedanticRegistry() // checks Collect against Describe
	reg.MustRegister(c)

	// requests: 1 miss then 19 hits, and 1 request too big to keep.
	for range 20 {
		requests.Put(requests.Get())
	}
	big := requests.Get()
	big.body = make([]byte, 1<<20)
	requests.Put(big)
	// buffers: 3 held at once (3 misses), then 12 hits.
	var held []*bytebuf.Buffer
	for range 3 {
		held = append(held, buffers.Get())
	}
	for _, b := range held {
		buffers.Put(b)
	}
	for range 4 {
		x, y, z := buffers.Get(), buffers.Get(), buffers.Get()
		buffers.Put(x)
		buffers.Put(y)
		buffers.Put(z)
	}
	buffers.Put(&bytebuf.Buffer{B: make([]byte, 0, bytebuf.MaxRetainedCap+1)}) // dropped
	// ids: 1 miss, 2 hits.
	for range 3 {
		ids.Put(ids.Get(40))
	}
	// jobs: 2 misses, 5 hits, 1 drop.
	jobs.stats = pool.Stats{Gets: 7, Puts: 6, News: 2, Drops: 1, Counting: true}

	mfs := scrape(t, reg)
	check := func(family string, typ dto.MetricType, pool string, want float64) {
		t.Helper()
		got, ok := value(t, mfs, family, typ, pool)
		if !ok || got != want {
			t.Errorf("%s{pool=%q} = %v (present %v), want %v", family, pool, got, ok, want)
		}
	}
	for _, w := range []struct {
		pool                    string
		gets, puts, news, drops float64
	}{
		{"requests", 21, 21, 1, 1},
		{"buffers", 15, 16, 3, 1},
		{"ids", 3, 3, 1, 0},
		{"jobs", 7, 6, 2, 1},
	} {
		check("poolkit_pool_gets_total", dto.MetricType_COUNTER, w.pool, w.gets)
		check("poolkit_pool_puts_total", dto.MetricType_COUNTER, w.pool, w.puts)
		check("poolkit_pool_news_total", dto.MetricType_COUNTER, w.pool, w.news)
		check("poolkit_pool_drops_total", dto.MetricType_COUNTER, w.pool, w.drops)
	}
	check("poolkit_bytebuf_default_size_bytes", dto.MetricType_GAUGE, "buffers", 0)
	check("poolkit_bytebuf_max_size_bytes", dto.MetricType_GAUGE, "buffers", bytebuf.MaxRetainedCap)
	check("poolkit_bytebuf_calibrations_total", dto.MetricType_COUNTER, "buffers", 0)
	for _, p := range []string{"requests", "ids", "jobs"} {
		if _, ok := value(t, mfs, "poolkit_bytebuf_max_size_bytes", dto.MetricType_GAUGE, p); ok {
			t.Errorf("pool %q, not a bytebuf.Pool, has bytebuf gauges", p)
		}
	}

	// Counters move with the traffic between scrapes.
	requests.Put(requests.Get())
	if got, _ := value(t, scrape(t, reg), "poolkit_pool_gets_total", dto.MetricType_COUNTER, "requests"); got != 22 {
		t.Errorf("after one more Get: gets_total %v, want 22", got)
	}
}

func TestAddErrors(t *testing.T) {
	c := poolprom.NewCollector()
	var b bytebuf.Pool
	if err := c.Add("b", &b); err != nil {
		t.Fatal(err)
	}
	for _, e := range []struct {
		name string
		p    poolstats.Source
		want string
	}{
		{"b", &b, `poolprom: Add: a pool named "b" is already added`},
		{"plain", pool.New(func() *request { return new(request) }), "counts nothing"},
		{"own", &jobPool{}, "the *poolprom_test.jobPool counts nothing"},
		{"nil", (*slicepool.Pool[int])(nil), "nil *slicepool.Pool[int]"},
	} {
		if err := c.Add(e.name, e.p); err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("Add(%q): %v, want %q", e.name, err, e.want)
		}
	}
}

// jobPool stands for a pool of the user's own: any type with a method
// Stats() pool.Stats can be added.
type jobPool struct{ stats pool.Stats }

func (p *jobPool) Stats() pool.Stats { return p.stats }
