package poolstats_test

import (
	"encoding/json"
	"expvar"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/poolstats"
	"github.com/poolkit/poolkit/slicepool"
)

type request struct{ body []byte }

// run numbers the runs of the tests that publish, for -count.
var run int

// serveVars serves expvar's /debug/vars on 127.0.0.1 and returns its URL.
func serveVars(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/debug/vars", expvar.Handler())
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/debug/vars"
}

// scrapeVars reads /debug/vars over HTTP and returns the pools in it.
func scrapeVars(t *testing.T, url string) map[string]poolstats.Counts {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var vars map[string]json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&vars); err != nil {
		t.Fatalf("/debug/vars is not JSON: %v", err)
	}
	if _, ok := vars["memstats"]; !ok {
		t.Fatalf("/debug/vars lacks expvar's own memstats: %v", vars)
	}
	var pools map[string]poolstats.Counts
	if err := json.Unmarshal(vars[poolstats.VarName], &pools); err != nil {
		t.Fatalf("%s: %v in %s", poolstats.VarName, err, vars[poolstats.VarName])
	}
	return pools
}

// TestPublishExpvar publishes one pool of each kind, and a Source of the
// test's own, drives a known
// number of Gets, Puts, misses and drops through them, and reads the
// counts back from /debug/vars over HTTP.
func TestPublishExpvar(t *testing.T) {
	pooltest.SkipIfRace(t)
	pooltest.PinGC(t)
	requests := pool.New(func() *request { return new(request) },
		pool.WithStats[*request](),
		pool.WithKeep(func(r *request) bool { return cap(r.body) <= 1024 }))
	var buffers bytebuf.Pool
	var ids slicepool.Pool[int]
	frames := &framePool{}
	// Names are published once per process: -count=2 runs need new ones.
	run++
	name := func(n string) string { return fmt.Sprintf("%s-%d", n, run) }
	poolstats.Publish(name("requests"), requests)
	poolstats.Publish(name("buffers"), &buffers)
	poolstats.Publish(name("ids"), &ids)
	poolstats.Publish(name("frames"), frames)
	url := serveVars(t)

	// requests: 1 miss, 9 hits, then a request that grew too big.
	r := requests.Get()
	requests.Put(r)
	for range 9 {
		requests.Put(requests.Get())
	}
	big := requests.Get()
	big.body = make([]byte, 4096)
	requests.Put(big) // dropped
	// buffers: 2 misses (two held at once), 6 hits.
	b1, b2 := buffers.Get(), buffers.Get()
	buffers.Put(b1)
	buffers.Put(b2)
	for range 3 {
		x, y := buffers.Get(), buffers.Get()
		buffers.Put(x)
		buffers.Put(y)
	}
	// ids: 1 miss, 4 hits, one slice too large to keep.
	for range 5 {
		ids.Put(ids.Get(10))
	}
	ids.Put(make([]int, 0, 1<<20))
	// frames: 1 miss, 3 hits, one frame kept by the caller.
	frames.Put(frames.Get())
	frames.Put(frames.Get())
	frames.Put(frames.Get())
	_ = frames.Get()

	got := scrapeVars(t, url)
	want := map[string]poolstats.Counts{
		"requests": {Gets: 11, Puts: 11, News: 1, Drops: 1, HitRatio: 1 - 1.0/11},
		"buffers": {Gets: 8, Puts: 8, News: 2, HitRatio: 0.75,
			MaxSize: bytebuf.MaxRetainedCap},
		"ids":    {Gets: 5, Puts: 6, News: 1, Drops: 1, HitRatio: 0.8},
		"frames": {Gets: 4, Puts: 3, News: 1, HitRatio: 0.75},
	}
	for n, w := range want {
		if got[name(n)] != w {
			t.Errorf("%s: /debug/vars has %+v\nwant %+v", name(n), got[name(n)], w)
		}
	}

	// The counts are live: more traffic shows on the next scrape.
	requests.Put(requests.Get())
	if c := scrapeVars(t, url)[name("requests")]; c.Gets != 12 || c.Puts != 12 {
		t.Errorf("after one more Get and Put: %+v", c)
	}
}

func TestPublishErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		p    poolstats.Source
		want string
	}{
		{"no stats", pool.New(func() *request { return new(request) }), "the *pool.Pool[*github.com/poolkit/poolkit/poolstats_test.request] counts nothing"},
		{"own pool not counting", notCounting{}, "the poolstats_test.notCounting counts nothing"},
		{"nil bytebuf", (*bytebuf.Pool)(nil), "nil *bytebuf.Pool"},
		{"nil slicepool", (*slicepool.Pool[int])(nil), "nil *slicepool.Pool[int]"},
		{"nil Source", nil, "nil Source"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, c.want) {
					t.Errorf("panic %q, want %q", msg, c.want)
				}
			}()
			poolstats.Publish("bad "+c.name, c.p)
		})
	}
	t.Run("duplicate", func(t *testing.T) {
		var p bytebuf.Pool
		run++
		twice := fmt.Sprintf("twice-%d", run)
		poolstats.Publish(twice, &p)
		defer func() {
			if msg, _ := recover().(string); !strings.Contains(msg, fmt.Sprintf("a pool named %q is already published", twice)) {
				t.Errorf("panic %q", msg)
			}
		}()
		poolstats.Publish(twice, &p)
	})
}

func TestRead(t *testing.T) {
	if c := poolstats.Read(bytebuf.Default()); c.MaxSize == 0 {
		t.Errorf("Read(bytebuf.Default()) = %+v, want its calibration's MaxSize", c)
	}
	// Read takes the counts as the pool reports them, and the hit ratio
	// stays within [0, 1] when News was loaded after a racing Get.
	want := poolstats.Counts{Gets: 4, Puts: 3, News: 5, Drops: 1}
	if c := poolstats.Read(fixed(pool.Stats{Gets: 4, Puts: 3, News: 5, Drops: 1, Counting: true})); c != want {
		t.Errorf("Read = %+v, want %+v", c, want)
	}
	var p slicepool.Pool[byte]
	if c := poolstats.Read(&p); c.MaxSize != 0 || c.DefaultSize != 0 || c.Calibrations != 0 {
		t.Errorf("Read of a slicepool.Pool = %+v, want no calibration", c)
	}
}

// framePool is a pool of the user's own, counting its traffic as a
// pool.Stats, which Publish takes as it takes poolkit's pools.
type framePool struct {
	mu    sync.Mutex
	free  []*[64]byte
	stats pool.Stats
}

func (p *framePool) Get() *[64]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stats.Gets++
	if n := len(p.free); n > 0 {
		f := p.free[n-1]
		p.free = p.free[:n-1]
		return f
	}
	p.stats.News++
	return new([64]byte)
}

func (p *framePool) Put(f *[64]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stats.Puts++
	p.free = append(p.free, f)
}

func (p *framePool) Stats() pool.Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.Counting = true
	return s
}

// notCounting is a Source whose counts are off.
type notCounting struct{}

func (notCounting) Stats() pool.Stats { return pool.Stats{} }

// fixed is a Source reporting the same counts every time.
type fixed pool.Stats

func (f fixed) Stats() pool.Stats { return pool.Stats(f) }
