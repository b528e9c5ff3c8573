package poolstats_test

import (
	"encoding/json"
	"expvar"
	"fmt"
	"net"
	"net/http"
	"strings"
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

// TestPublishExpvar publishes one pool of each kind, drives a known
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
	// Names are published once per process: -count=2 runs need new ones.
	run++
	name := func(n string) string { return fmt.Sprintf("%s-%d", n, run) }
	poolstats.Publish(name("requests"), requests)
	poolstats.Publish(name("buffers"), &buffers)
	poolstats.Publish(name("ids"), &ids)
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

	got := scrapeVars(t, url)
	want := map[string]poolstats.Counts{
		"requests": {Kind: "pool", Gets: 11, Puts: 11, News: 1, Drops: 1, HitRatio: 1 - 1.0/11},
		"buffers": {Kind: "bytebuf", Gets: 8, Puts: 8, News: 2, HitRatio: 0.75,
			MaxSize: bytebuf.MaxRetainedCap},
		"ids": {Kind: "slicepool", Gets: 5, Puts: 6, News: 1, Drops: 1, HitRatio: 0.8},
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
		p    any
		want string
	}{
		{"no stats", pool.New(func() *request { return new(request) }), "made without pool.WithStats"},
		{"not a pool", new(strings.Builder), "*strings.Builder is not a poolkit pool"},
		{"nil bytebuf", (*bytebuf.Pool)(nil), "nil *bytebuf.Pool"},
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
	if _, err := poolstats.Read(42); err == nil || !strings.Contains(err.Error(), "int is not a poolkit pool") {
		t.Errorf("Read(42): %v", err)
	}
	c, err := poolstats.Read(bytebuf.Default())
	if err != nil || c.Kind != "bytebuf" || c.MaxSize == 0 {
		t.Errorf("Read(bytebuf.Default()) = %+v, %v", c, err)
	}
}
