package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain also serves as the server process: the driver re-executes the
// test binary with serveEnv set, as it re-executes the command.
func TestMain(m *testing.M) {
	if name := os.Getenv(serveEnv); name != "" {
		if err := serve(name, os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString("server: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Two variants that must be refused: one answers a body that differs from
// naive's by one byte, the other the same body with different SQL.
func init() {
	variants = append(variants,
		variant{name: "test-body", handler: func() http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				(&naive{gz: gzFresh}).ServeHTTP(&rewriter{ResponseWriter: w, from: `"accepted"`, to: `"accepted"` + " "}, r)
			})
		}},
		variant{name: "test-sql", handler: func() http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				(&naive{gz: gzFresh}).ServeHTTP(w, r)
				db.mu.Lock()
				db.last[1] = bytes.Replace(db.last[1], []byte("INSERT INTO"), []byte("INSERT IGNORE INTO"), 1)
				db.mu.Unlock()
			})
		}},
	)
}

// rewriter replaces from with to in the uncompressed body: the test-body
// variant sends no gzip (its Accept-Encoding check sees none).
type rewriter struct {
	http.ResponseWriter
	from, to string
}

func (w *rewriter) Write(p []byte) (int, error) {
	q := bytes.Replace(p, []byte(w.from), []byte(w.to), 1)
	_, err := w.ResponseWriter.Write(q)
	return len(p), err
}

func runJSON(t *testing.T, args ...string) (map[string]any, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := mainErr(context.Background(), append([]string{"-format", "json", "-q"}, args...), &out, &errOut)
	if errOut.Len() > 0 {
		t.Logf("stderr: %s", errOut.String())
	}
	if out.Len() == 0 {
		return nil, err
	}
	var rep map[string]any
	if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil {
		t.Fatalf("output is not JSON: %v\n%s", jerr, out.String())
	}
	return rep, err
}

// TestEndToEnd runs every variant with tiny phases and checks the output:
// its shape, the identity of the bodies, and what must hold whatever the
// machine's speed.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts seven server processes")
	}
	htmlFile := filepath.Join(t.TempDir(), "report.html")
	var names []string
	for _, v := range variants {
		if !strings.HasPrefix(v.name, "test-") {
			names = append(names, v.name)
		}
	}
	rep, err := runJSON(t, "-rounds", "2", "-phase", "120ms", "-rates", "150,auto", "-conc", "4",
		"-html", htmlFile, "-variants", strings.Join(names, ","))
	if err != nil {
		t.Fatal(err)
	}
	if rep["bodies_identical"] != true {
		t.Errorf("bodies_identical = %v, want true", rep["bodies_identical"])
	}
	if rep["accept_encoding"] != browserAcceptEncoding {
		t.Errorf("accept_encoding = %v, want the browser's %q by default", rep["accept_encoding"], browserAcceptEncoding)
	}
	if rep["fixed_rate"] != 150.0 {
		t.Errorf("fixed_rate = %v, want 150 (the first of -rates)", rep["fixed_rate"])
	}
	if rates, _ := rep["rates"].([]any); len(rates) != 2 || rates[1].(float64) < 10 {
		t.Errorf("rates = %v, want 150 and a third of naive's maximum", rep["rates"])
	}
	vs, ok := rep["variants"].(map[string]any)
	if !ok || len(vs) != len(names) {
		t.Fatalf("variants = %v, want an object with %d variants", rep["variants"], len(names))
	}
	figures := []string{"cpu_us_per_req", "allocs_per_req", "bytes_per_req", "gc_cycles_per_10k",
		"gc_cpu_fraction", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_rps"}
	num := map[string]map[string]float64{}
	for _, name := range names {
		v, ok := vs[name].(map[string]any)
		if !ok {
			t.Errorf("variant %s missing", name)
			continue
		}
		num[name] = map[string]float64{}
		for _, f := range append(figures, "log_lines_per_req") {
			x, ok := v[f].(float64)
			if !ok || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				t.Errorf("%s.%s = %v, want a finite number >= 0", name, f, v[f])
			}
			num[name][f] = x
		}
		n := num[name]
		if n["cpu_us_per_req"] <= 0 || n["allocs_per_req"] <= 0 || n["bytes_per_req"] <= 0 || n["max_rps"] <= 0 || n["p50_ms"] <= 0 {
			t.Errorf("%s: CPU, allocations, bytes, max req/s and p50 must be above 0: %v", name, n)
		}
		if n["gc_cpu_fraction"] > 1 {
			t.Errorf("%s: gc_cpu_fraction %v above 1", name, n["gc_cpu_fraction"])
		}
		if !(n["p50_ms"] <= n["p90_ms"] && n["p90_ms"] <= n["p99_ms"] && n["p99_ms"] <= n["p999_ms"]) {
			t.Errorf("%s: percentiles out of order: %v", name, n)
		}
		// Every request the server answered wrote exactly one access-log
		// line (none for the floors).
		want := 1.0
		if v, _ := lookupVariant(name); v.floor {
			want = 0
		}
		if n["log_lines_per_req"] != want {
			t.Errorf("%s: %v access-log lines per request, want %v", name, n["log_lines_per_req"], want)
		}
		if at, _ := v["at_rates"].([]any); len(at) != 2 {
			t.Errorf("%s: at_rates has %d entries, want 2", name, len(at))
		}
	}
	// Allocation counts are exact and do not depend on the machine: the
	// pooled variants allocate less than naive, and poolkit less than seed.
	for _, pair := range [][2]string{{"empty", "poolkit"}, {"poolkit", "seed"}, {"seed", "naive"}, {"peers", "naive"}} {
		if num[pair[0]]["allocs_per_req"] >= num[pair[1]]["allocs_per_req"] {
			t.Errorf("allocs per request: %s %v, not below %s %v", pair[0], num[pair[0]]["allocs_per_req"], pair[1], num[pair[1]]["allocs_per_req"])
		}
	}
	// naive's fresh gzip writer is some 800 KB per request; a pooled one
	// removes it.
	if naive, pooled := num["naive"]["bytes_per_req"], num["naive+pooledgz"]["bytes_per_req"]; naive < 10*pooled {
		t.Errorf("bytes per request: naive %v, naive+pooledgz %v: want naive 10x more", naive, pooled)
	}
	if goals, _ := rep["goals"].([]any); len(goals) != 8 {
		t.Errorf("goals = %v, want eight", rep["goals"])
	}
	page, err := os.ReadFile(htmlFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(page, []byte("<svg")); n != 4 {
		t.Errorf("the HTML report has %d charts, want 4", n)
	}
}

// TestRefusesDifferentOutput checks that the tool measures nothing when a
// variant's body or SQL differs from the others'.
func TestRefusesDifferentOutput(t *testing.T) {
	for _, tc := range []struct{ variant, want string }{
		{"test-body", "bodies first differ"},
		{"test-sql", "SQL differs"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			rep, err := runJSON(t, "-rounds", "1", "-phase", "100ms", "-rates", "100", "-variants", "naive,"+tc.variant)
			if err == nil || !strings.Contains(err.Error(), "refusing to measure") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a refusal saying %q", err, tc.want)
			}
			if rep == nil || rep["bodies_identical"] != false {
				t.Errorf("output %v, want bodies_identical false", rep)
			}
		})
	}
}

// TestAcceptEncodingFlag checks that -accept-encoding gzip runs the
// gzip-only measurement and says so.
func TestAcceptEncodingFlag(t *testing.T) {
	rep, err := runJSON(t, "-rounds", "1", "-phase", "100ms", "-rates", "100", "-variants", "naive,peers,poolkit", "-accept-encoding", "gzip")
	if err != nil {
		t.Fatal(err)
	}
	if rep["accept_encoding"] != "gzip" || rep["bodies_identical"] != true {
		t.Errorf("accept_encoding = %v, bodies_identical = %v; want gzip, true", rep["accept_encoding"], rep["bodies_identical"])
	}
}

// TestMemProfile checks that -memprofile leaves one allocation profile
// per server, a gzipped protobuf as pprof reads.
func TestMemProfile(t *testing.T) {
	dir := t.TempDir()
	if _, err := runJSON(t, "-rounds", "1", "-phase", "100ms", "-rates", "100", "-variants", "empty,poolkit", "-memprofile", dir); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"empty", "poolkit"} {
		b, err := os.ReadFile(filepath.Join(dir, v+".pprof"))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 100 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s.pprof: %d bytes, not a gzipped profile", v, len(b))
		}
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-rounds", "0"}, {"-phase", "1ms"}, {"-rates", "fast"}, {"-rates", ""},
		{"-format", "xml"}, {"-variants", "nosuch"}, {"extra"}, {"-accept-encoding", " "},
	} {
		if _, err := runJSON(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// discardWriter is a ResponseWriter that keeps nothing, with a fresh
// header map per request as net/http gives.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

// BenchmarkHandler runs each variant's handler in this process, without
// net/http or the network: what the handler itself costs per request,
// with a browser's Accept-Encoding (ae=browser: gzhttp and httpcompress
// answer zstd, the others gzip) and with gzip alone (ae=gzip). Its
// allocations are exact; for where the CPU goes, add -cpuprofile.
func BenchmarkHandler(b *testing.B) {
	bodies := requestBodies(loadBodies)
	for _, v := range variants {
		if strings.HasPrefix(v.name, "test-") {
			continue
		}
		h := v.handler()
		for _, ae := range []struct{ name, value string }{{"browser", browserAcceptEncoding}, {"gzip", "gzip"}} {
			b.Run("variant="+v.name+"/ae="+ae.name, func(b *testing.B) {
				rd := bytes.NewReader(nil)
				body := io.NopCloser(rd)
				req, err := http.NewRequest(http.MethodPost, "/orders", nil)
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("Accept-Encoding", ae.value)
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					rd.Reset(bodies[i%len(bodies)])
					req.Body = body
					h.ServeHTTP(&discardWriter{h: http.Header{}}, req)
				}
			})
		}
	}
}
