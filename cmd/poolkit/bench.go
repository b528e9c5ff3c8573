package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/poolkit/allocs"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/workloads"
	"github.com/poolkit/poolkit/internal/cputime"
)

// Defaults of poolkit bench, chosen so that the whole default run stays
// under two minutes on two busy cores: about forty cases times five runs
// of 150ms each, plus warm-up and garbage collections.
const (
	defaultCount     = 5
	defaultBenchtime = 150 * time.Millisecond
)

// benchConfig is poolkit bench's parsed command line.
type benchConfig struct {
	run       *regexp.Regexp
	count     int
	benchtime string
	cpus      []int
	format    string
	clock     string
	html      string
	progress  bool
}

// row is one line of the table: one case at one GOMAXPROCS.
type row struct {
	c     workloads.Case
	procs int // GOMAXPROCS of the runs; 0 for serial cases

	ns, allocs, bytes []float64 // one entry per completed run
	iters             []int     // the final N of each completed run
	cold              uint64
	coldDone          bool
	err               error
}

func (r *row) id() string {
	s := r.c.Workload + "/" + r.c.Label()
	if r.procs > 0 {
		s += fmt.Sprintf("/P=%d", r.procs)
	}
	return s
}

// group returns the key of the rows a speed-up is relative to: the same
// workload at the same GOMAXPROCS.
func (r *row) group() string { return fmt.Sprintf("%s\x00%d", r.c.Workload, r.procs) }

func parseBenchFlags(args []string, stderr io.Writer) (*benchConfig, error) {
	fs := newFlagSet("poolkit bench", stderr, []string{
		"usage: poolkit bench [flags]",
	}, []string{
		"Measures each workload of the articles as naive / the article's own pool (seed) / poolkit, in this process.",
	})
	run := fs.String("run", "", "run only the cases whose `regexp` matches workload/variant (as in the table's first two columns)")
	count := fs.Int("count", defaultCount, "run each case `n` times; the table shows the median")
	benchtime := fs.String("benchtime", defaultBenchtime.String(), "time (or iteration count, 1000x) of each run, as go test -benchtime")
	cpu := fs.String("cpu", "", "comma-separated GOMAXPROCS `list` for the parallel cases (default: the current GOMAXPROCS)")
	format := fs.String("format", "text", "output `format`: text, markdown, csv, json, or benchfmt (go test -bench lines, one per run, for benchstat)")
	clock := fs.String("clock", "wall", "what ns/op measures: `wall` time, as go test does, or the process's cpu time per op "+
		"(steadier on a machine busy with other work; counts GC work on every core)")
	html := fs.String("html", "", "also write a self-contained HTML page with a chart of the speed-ups to `file`")
	progress := fs.Bool("progress", isTerminal(os.Stderr), "show a progress line on stderr (default: when stderr is a terminal)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (bench takes flags only)", fs.Arg(0))
	}
	cfg := &benchConfig{count: *count, benchtime: *benchtime, format: *format, clock: *clock, html: *html, progress: *progress}
	switch cfg.clock {
	case "wall":
	case "cpu":
		if _, ok := cputime.Process(); !ok {
			return nil, fmt.Errorf("-clock cpu: cannot read the process's CPU time on %s", runtime.GOOS)
		}
	default:
		return nil, fmt.Errorf("-clock: unknown clock %q (want wall or cpu)", cfg.clock)
	}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			return nil, fmt.Errorf("-run: %v", err)
		}
		cfg.run = re
	}
	if cfg.count < 1 {
		return nil, fmt.Errorf("-count must be at least 1, got %d", cfg.count)
	}
	if err := checkBenchtime(cfg.benchtime); err != nil {
		return nil, err
	}
	if *cpu == "" {
		cfg.cpus = []int{runtime.GOMAXPROCS(0)}
	} else {
		for _, f := range strings.Split(*cpu, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return nil, fmt.Errorf("-cpu: %q is not a positive integer", f)
			}
			cfg.cpus = append(cfg.cpus, n)
		}
	}
	switch cfg.format {
	case "text", "markdown", "csv", "json", "benchfmt":
	default:
		return nil, fmt.Errorf("-format: unknown format %q (want text, markdown, csv, json or benchfmt)", cfg.format)
	}
	return cfg, nil
}

// checkBenchtime accepts what go test's -benchtime accepts: a positive
// duration or a positive count followed by x.
func checkBenchtime(s string) error {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		if v, err := strconv.Atoi(n); err != nil || v < 1 {
			return fmt.Errorf("-benchtime: invalid count %q", s)
		}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("-benchtime: invalid duration %q", s)
	}
	return nil
}

var testingInit sync.Once

// setBenchtime hands -benchtime to package testing, whose Benchmark reads
// it from its own flag.
func setBenchtime(s string) error {
	testingInit.Do(testing.Init)
	return flag.CommandLine.Set("test.benchtime", s)
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseBenchFlags(args, stderr)
	if err != nil {
		return usageStatus(stderr, "poolkit bench", err)
	}
	rep, err := bench(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "poolkit bench: %v\n", err)
		return 1
	}
	if err := writeReport(stdout, rep, cfg.format); err != nil {
		fmt.Fprintf(stderr, "poolkit bench: %v\n", err)
		return 1
	}
	if cfg.html != "" {
		if err := writeHTMLFile(cfg.html, rep); err != nil {
			fmt.Fprintf(stderr, "poolkit bench: %v\n", err)
			return 1
		}
	}
	if rep.Interrupted {
		return 130
	}
	for _, r := range rep.Rows {
		if r.Error != "" {
			return 1
		}
	}
	return 0
}

// selectRows expands the registered cases into the table's rows: parallel
// cases once per -cpu value, rows of one workload and GOMAXPROCS together.
func selectRows(cases []workloads.Case, cfg *benchConfig) []*row {
	var rows []*row
	var order []string // workloads in registration order
	byWorkload := map[string][]workloads.Case{}
	for _, c := range cases {
		if cfg.run != nil && !cfg.run.MatchString(c.Workload+"/"+c.Label()) {
			continue
		}
		if _, ok := byWorkload[c.Workload]; !ok {
			order = append(order, c.Workload)
		}
		byWorkload[c.Workload] = append(byWorkload[c.Workload], c)
	}
	for _, w := range order {
		cs := byWorkload[w]
		// Serial cases of the workload first, then its parallel cases per
		// GOMAXPROCS.
		for _, c := range cs {
			if !c.Parallel {
				rows = append(rows, &row{c: c})
			}
		}
		for _, p := range cfg.cpus {
			for _, c := range cs {
				if c.Parallel {
					rows = append(rows, &row{c: c, procs: p})
				}
			}
		}
	}
	return rows
}

// bench measures the selected rows, interleaving their runs, and returns
// what it measured, also when ctx is cancelled part way.
func bench(ctx context.Context, cfg *benchConfig, stderr io.Writer) (*report, error) {
	rows := selectRows(workloads.All(), cfg)
	if len(rows) == 0 {
		if cfg.run != nil {
			return nil, fmt.Errorf("no case matches -run %q", cfg.run)
		}
		return nil, errors.New("no workloads are registered")
	}
	defaultProcs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(defaultProcs)

	if err := setBenchtime(cfg.benchtime); err != nil {
		return nil, err
	}

	start := time.Now()
	total := len(rows) * cfg.count
	done := 0
	prog := &progress{w: stderr, on: cfg.progress, start: start}
	interrupted := false
measure:
	for round := 1; round <= cfg.count; round++ {
		for _, r := range rows {
			if ctx.Err() != nil {
				interrupted = true
				break measure
			}
			done++
			prog.show(done, total, r, round, cfg.count)
			if r.err != nil {
				continue
			}
			procs := defaultProcs
			if r.procs > 0 {
				procs = r.procs
			}
			runtime.GOMAXPROCS(procs)
			if !r.coldDone {
				r.coldDone = true
				var opErr error
				r.cold = allocs.First(func() { opErr = r.c.Op() })
				if opErr != nil {
					r.err = opErr
					continue
				}
			}
			m, err := measureOnce(r.c)
			if err != nil {
				r.err = err
				continue
			}
			elapsed := float64(m.res.T.Nanoseconds())
			if cfg.clock == "cpu" {
				elapsed = float64(m.cpu.Nanoseconds())
			}
			a, b := steadyAllocs(m.trials)
			r.ns = append(r.ns, elapsed/float64(m.res.N))
			r.allocs = append(r.allocs, a)
			r.bytes = append(r.bytes, b)
			r.iters = append(r.iters, m.res.N)
		}
	}
	runtime.GOMAXPROCS(defaultProcs)
	prog.clear()
	rep := buildReport(rows, cfg, time.Since(start))
	rep.Interrupted = interrupted
	return rep, nil
}

// trial is one call of a benchmark function by testing.Benchmark: its N
// and the allocations it made.
type trial struct {
	n              int
	mallocs, bytes uint64
}

// steadyAllocs returns the allocations and bytes per operation in steady
// state: the difference between the last two trial runs over the
// difference of their N. What each run pays once, whatever its N, cancels
// out: the objects a pool must make again after the collection testing
// forces before every run, RunParallel's goroutines. Only when there was a
// single trial is it the plain mean.
func steadyAllocs(ts []trial) (allocs, bytes float64) {
	if len(ts) == 0 {
		return 0, 0
	}
	last := ts[len(ts)-1]
	if len(ts) >= 2 {
		prev := ts[len(ts)-2]
		if dn := last.n - prev.n; dn > 0 {
			a := (float64(last.mallocs) - float64(prev.mallocs)) / float64(dn)
			b := (float64(last.bytes) - float64(prev.bytes)) / float64(dn)
			return max(a, 0), max(b, 0)
		}
	}
	return float64(last.mallocs) / float64(last.n), float64(last.bytes) / float64(last.n)
}

// measurement is what one run of a case measured.
type measurement struct {
	res    testing.BenchmarkResult // the final trial's
	cpu    time.Duration           // the process's CPU time during the final trial
	trials []trial                 // every trial, the final one last
}

// measureOnce runs one case under testing.Benchmark.
func measureOnce(c workloads.Case) (m measurement, err error) {
	var mu sync.Mutex
	var opErr error
	fail := func(err error) {
		mu.Lock()
		if opErr == nil {
			opErr = err
		}
		mu.Unlock()
	}
	m.res = testing.Benchmark(func(b *testing.B) {
		// testing.Benchmark calls this once per trial run, the last with
		// the final N; keep the CPU time of each, so the last one stays,
		// and the allocations of each.
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		m0, by0 := ms.Mallocs, ms.TotalAlloc
		c0, _ := cputime.Process()
		defer func() {
			c1, _ := cputime.Process()
			m.cpu = c1 - c0
			runtime.ReadMemStats(&ms)
			m.trials = append(m.trials, trial{b.N, ms.Mallocs - m0, ms.TotalAlloc - by0})
		}()
		if c.Parallel {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := c.Op(); err != nil {
						fail(err)
						return
					}
				}
			})
			return
		}
		for range b.N {
			if err := c.Op(); err != nil {
				fail(err)
				return
			}
		}
	})
	if opErr != nil {
		return measurement{}, opErr
	}
	if m.res.N == 0 {
		return measurement{}, errors.New("benchmark did not run")
	}
	return m, nil
}

// progress writes the one-line progress indicator.
type progress struct {
	w     io.Writer
	on    bool
	start time.Time
}

func (p *progress) show(k, n int, r *row, round, count int) {
	if !p.on {
		return
	}
	fmt.Fprintf(p.w, "\r\033[K[%d/%d] %s (run %d of %d)  %s elapsed",
		k, n, r.id(), round, count, time.Since(p.start).Round(time.Second))
}

func (p *progress) clear() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// median returns the median of xs, sorting a copy, so xs keeps its order
// (the runs' order, which -format json and benchfmt print); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
