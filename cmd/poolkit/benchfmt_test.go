package main

import (
	"bytes"
	"testing"
)

// TestBenchfmt checks the lines -format benchfmt writes for a made-up
// report: names, one line per run, the per-run speed-up against the naive
// run of the same round, and failed rows as comments. (That benchfmt and
// benchstat read the output is checked in the benchmarks module, which
// may depend on golang.org/x/perf.)
func TestBenchfmt(t *testing.T) {
	cold := func(n uint64) *uint64 { return &n }
	rep := &report{
		Env: env{GoVersion: "go1.99", GOOS: "linux", GOARCH: "amd64", CPU: "Some  CPU\n@ 3GHz",
			Count: 2, Benchtime: "10ms", Clock: "wall", Date: "2026-11-22 20:00 UTC"},
		Elapsed: "3s",
		Rows: []reportRow{
			{Workload: "replicate n=5", Variant: "naive", Label: "naive", NsRuns: []float64{100, 90},
				AllocsRuns: []float64{1, 1}, bytesRuns: []float64{80, 80}, itersRuns: []int{1000, 1200}, ColdAllocs: cold(1)},
			{Workload: "replicate n=5", Variant: "poolkit", Label: "poolkit (a/b c)", NsRuns: []float64{50, 60},
				AllocsRuns: []float64{0, 0.25}, bytesRuns: []float64{0, 2.5}, itersRuns: []int{2000, 2100}, ColdAllocs: cold(3)},
			{Workload: "replicate n=5", Variant: "seed", Label: "seed", NsRuns: []float64{25},
				AllocsRuns: []float64{1e-5}, bytesRuns: []float64{0}, itersRuns: []int{4000}, ColdAllocs: cold(7),
				Error: "bad\nresult"},
			{Workload: "log line (parallel)", Variant: "naive", Label: "naive", Procs: 2, NsRuns: []float64{400},
				AllocsRuns: []float64{4}, bytesRuns: []float64{280}, itersRuns: []int{300}, ColdAllocs: cold(4)},
			{Workload: "log line (parallel)", Variant: "poolkit", Label: "poolkit (logfmt)", Procs: 2, NsRuns: []float64{100, 80},
				AllocsRuns: []float64{0, 0}, bytesRuns: []float64{0, 0}, itersRuns: []int{500, 600}, ColdAllocs: cold(4)},
			{Workload: "gzip", Variant: "seed", Label: "seed", Error: "cold call failed"},
		},
	}
	const want = `# poolkit bench -format benchfmt -count 2 -benchtime 10ms -clock wall; 2026-11-22 20:00 UTC; took 3s
goos: linux
goarch: amd64
pkg: github.com/poolkit/poolkit/cmd/poolkit/internal/workloads
cpu: Some CPU @ 3GHz
go: go1.99
clock: wall
Unit cold-allocs/op assume=exact better=lower
Unit speed-up better=higher
BenchmarkReplicate_n=5/variant=naive	1000	100 ns/op	80 B/op	1 allocs/op	1 cold-allocs/op	1 speed-up
BenchmarkReplicate_n=5/variant=naive	1200	90 ns/op	80 B/op	1 allocs/op	1 cold-allocs/op	1 speed-up
BenchmarkReplicate_n=5/variant=poolkit_(a_b_c)	2000	50 ns/op	0 B/op	0 allocs/op	3 cold-allocs/op	2 speed-up
BenchmarkReplicate_n=5/variant=poolkit_(a_b_c)	2100	60 ns/op	2.5 B/op	0.25 allocs/op	3 cold-allocs/op	1.5 speed-up
# BenchmarkReplicate_n=5/variant=seed: error: bad result
BenchmarkReplicate_n=5/variant=seed	4000	25 ns/op	0 B/op	0.00001 allocs/op	7 cold-allocs/op	4 speed-up
BenchmarkLog_line_(parallel)/variant=naive-2	300	400 ns/op	280 B/op	4 allocs/op	4 cold-allocs/op	1 speed-up
BenchmarkLog_line_(parallel)/variant=poolkit_(logfmt)-2	500	100 ns/op	0 B/op	0 allocs/op	4 cold-allocs/op	4 speed-up
BenchmarkLog_line_(parallel)/variant=poolkit_(logfmt)-2	600	80 ns/op	0 B/op	0 allocs/op	4 cold-allocs/op
# BenchmarkGzip/variant=seed: error: cold call failed
`
	var out bytes.Buffer
	if err := writeReport(&out, rep, "benchfmt"); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("benchfmt output:\n%s\nwant:\n%s", out.String(), want)
	}

	rep.Interrupted = true
	out.Reset()
	if err := writeReport(&out, rep, "benchfmt"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("\n# INTERRUPTED: ")) {
		t.Errorf("interrupted output does not say so:\n%s", out.String())
	}
}
