// Package benchallocs finds where benchmarks allocate, per operation and
// per site.
//
// It runs each benchmark of a package with every allocation sampled and
// attributes the allocations per operation to their sites, with the
// compiler's escape-analysis reason and poolkit's advice.
//
// A heap profile covers a whole process, and
// package testing sets no profile labels, so Run runs one process per
// benchmark (per leaf sub-benchmark), from a test binary compiled once per
// package. Each benchmark runs twice, for a fixed n and 2n iterations, and
// the difference between the two profiles, over n, is the steady-state
// cost of one operation: setup code, warm-up and the first-call
// allocations that fill pools cancel out, and it does not matter whether
// the benchmark loops over b.N or b.Loop (which run a different number of
// warm-up iterations). Allocations are attributed to a benchmark when its
// function, or a closure inside it, is on the allocating stack, which
// leaves out the testing package's own; so are those of b.RunParallel's
// goroutines, whose stacks hold the body but not the benchmark.
package benchallocs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/numfmt"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/source"
	"github.com/poolkit/poolkit/internal/goenv"
)

// Config says which benchmarks Run runs, and for how long.
type Config struct {
	Bench string   // a regular expression, as go test -bench takes
	N     int      // iterations of the shorter of the two runs per benchmark
	Pkgs  []string // package patterns, as go list takes
}

// Benchmark is what Run found for one benchmark.
type Benchmark struct {
	Pkg    string
	Name   string  // full name, sub-benchmarks included
	N      int     // operations the per-op figures are over
	Mem    string  // what go test -benchmem reported for the longer run
	Allocs float64 // per op, over all sites
	Bytes  float64
	Sites  []Site // largest first
}

// Site is where a benchmark allocates, per operation.
type Site struct {
	Func    string
	File    string
	Line    int64
	Via     string // the first frame in the benchmark's package, when the site is elsewhere
	ViaFile string
	ViaLine int64
	Allocs  float64 // per op
	Bytes   float64
	Reason  []string // the compiler's escape explanation: headline first
	Advice  memprof.Advice
}

type listedPkg struct {
	ImportPath   string
	Dir          string
	Name         string
	Module       *struct{ Path, Dir string }
	TestGoFiles  []string
	XTestGoFiles []string
	Error        *struct{ Err string }
}

// goCmd runs the go command in dir and returns its combined output.
func goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// Run compiles the test binary of each package cfg.Pkgs names, from dir,
// runs each benchmark that matches cfg.Bench in its own process at
// cfg.N and 2*cfg.N iterations, and returns the steady-state allocations
// per operation of each, by site. It reports each step on progress.
func Run(ctx context.Context, dir string, cfg Config, progress io.Writer) ([]Benchmark, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return nil, fmt.Errorf("running go env GOMOD: %v", err)
	}
	if gomod := strings.TrimSpace(string(out)); gomod == "" || gomod == os.DevNull {
		return nil, fmt.Errorf("not in a module: no go.mod in %s or any directory above it "+
			"(run poolkit allocs inside a Go module, or create one with go mod init)", dir)
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-json"}, cfg.Pkgs...)...)
	cmd.Dir = dir
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	out, err = cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(cfg.Pkgs, " "), err, errBuf.String())
	}
	var pkgs []listedPkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPkg
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("reading go list output: %v", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	tmp, err := os.MkdirTemp("", "poolkit-allocs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	var results []Benchmark
	tested := 0
	for i, p := range pkgs {
		if len(p.TestGoFiles)+len(p.XTestGoFiles) == 0 {
			continue
		}
		tested++
		bin := filepath.Join(tmp, fmt.Sprintf("pkg%d.test", i))
		if runtime.GOOS == "windows" {
			bin += ".exe"
		}
		fmt.Fprintf(progress, "compiling %s\n", p.ImportPath)
		mOut, err := goCmd(ctx, dir, "test", "-c", "-o", bin, "-gcflags=-m=2", p.ImportPath)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// Show the compiler's errors without the -m diagnostics.
			plain, _ := goCmd(ctx, dir, "test", "-c", "-o", os.DevNull, p.ImportPath)
			return nil, fmt.Errorf("package %s does not compile:\n%s", p.ImportPath, strings.TrimSpace(string(plain)))
		}
		reasons := parseEscapes(mOut, dir)
		names, err := listBenchmarks(ctx, bin, p.Dir, cfg.Bench)
		if err != nil {
			return nil, fmt.Errorf("package %s: %v", p.ImportPath, err)
		}
		if len(names) == 0 {
			fmt.Fprintf(progress, "%s: no benchmark matches -bench %q\n", p.ImportPath, cfg.Bench)
			continue
		}
		for _, name := range names {
			fmt.Fprintf(progress, "profiling %s %s\n", p.ImportPath, name)
			ba, err := profileBenchmark(ctx, bin, p, name, cfg.N, tmp)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", p.ImportPath, name, err)
			}
			for i := range ba.Sites {
				s := &ba.Sites[i]
				s.Reason = reasons[fileLine{s.File, s.Line}]
				if s.Reason == nil && s.ViaFile != "" {
					s.Reason = reasons[fileLine{s.ViaFile, s.ViaLine}]
				}
			}
			results = append(results, ba)
		}
	}
	if tested == 0 {
		return nil, fmt.Errorf("no test files in %s, so no benchmarks to run", strings.Join(cfg.Pkgs, " "))
	}
	if len(results) == 0 {
		return nil, fmt.Errorf("no benchmark matched -bench %q in %s", cfg.Bench, strings.Join(cfg.Pkgs, " "))
	}
	return results, nil
}

// benchLine matches a benchmark's result line; with -test.cpu=1 the name
// carries no GOMAXPROCS suffix.
var benchLine = regexp.MustCompile(`^(Benchmark\S*)\s+\d+\s+[\d.]+ ns/op`)

// listBenchmarks runs each matching benchmark once and returns the names of
// the leaves, the benchmarks that report results.
func listBenchmarks(ctx context.Context, bin, dir, bench string) ([]string, error) {
	out, err := runTestBinary(ctx, bin, dir, "-test.run=^$", "-test.bench="+bench, "-test.benchtime=1x", "-test.cpu=1")
	if err != nil {
		return nil, err
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := benchLine.FindStringSubmatch(sc.Text()); m != nil {
			names = append(names, m[1])
		}
	}
	return names, nil
}

func runTestBinary(ctx context.Context, bin, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir // go test runs test binaries in the package's directory
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("benchmark failed: %v\n%s", err, strings.TrimSpace(string(out)))
	}
	return out, nil
}

var memLine = regexp.MustCompile(`(\d+) B/op\s+(\d+) allocs/op`)

// exactBench returns a -test.bench pattern that matches the benchmark
// named name and nothing else, sub-benchmark by sub-benchmark.
func exactBench(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

type siteKey struct {
	fn   string
	file string
	line int64
}

type siteCount struct {
	objects, bytes int64
	via            siteKey
	samples        []memprof.Sample // for the advice
}

// profileBenchmark runs one benchmark for n and 2n iterations and returns
// the per-op difference of their allocation profiles.
func profileBenchmark(ctx context.Context, bin string, p listedPkg, name string, n int, tmp string) (Benchmark, error) {
	top := strings.SplitN(name, "/", 2)[0]
	var counts [2]map[siteKey]*siteCount
	var mem string
	for i, iters := range []int{n, 2 * n} {
		prof := filepath.Join(tmp, fmt.Sprintf("mem%d.prof", i))
		out, err := runTestBinary(ctx, bin, p.Dir, "-test.run=^$", "-test.bench="+exactBench(name),
			fmt.Sprintf("-test.benchtime=%dx", iters), "-test.cpu=1", "-test.benchmem",
			"-test.memprofile="+prof, "-test.memprofilerate=1")
		if err != nil {
			return Benchmark{}, err
		}
		counts[i], err = readAllocProfile(prof, p, top)
		if err != nil {
			return Benchmark{}, err
		}
		if m := memLine.FindSubmatch(out); m != nil {
			mem = string(m[1]) + " B/op, " + string(m[2]) + " allocs/op"
		}
	}
	ba := Benchmark{Pkg: p.ImportPath, Name: name, N: n, Mem: mem}
	// The benchmark's source, read once for the advice of all its sites.
	src := source.New(time.Time{})
	for k, c2 := range counts[1] {
		var objs, byts int64 = c2.objects, c2.bytes
		if c1 := counts[0][k]; c1 != nil {
			objs -= c1.objects
			byts -= c1.bytes
		}
		if objs <= 0 {
			continue
		}
		s := Site{Func: k.fn, File: k.file, Line: k.line,
			Allocs: float64(objs) / float64(n), Bytes: float64(max(byts, 0)) / float64(n),
			Advice: memprof.Advise(c2.samples, benchUserCode(p), src.Line)}
		if c2.via.fn != "" && c2.via != k {
			s.Via, s.ViaFile, s.ViaLine = c2.via.fn, c2.via.file, c2.via.line
		}
		ba.Sites = append(ba.Sites, s)
		ba.Allocs += s.Allocs
		ba.Bytes += s.Bytes
	}
	sort.Slice(ba.Sites, func(i, j int) bool {
		a, b := ba.Sites[i], ba.Sites[j]
		if a.Allocs != b.Allocs {
			return a.Allocs > b.Allocs
		}
		if a.Bytes != b.Bytes {
			return a.Bytes > b.Bytes
		}
		return a.Func < b.Func
	})
	return ba, nil
}

// benchUserCode takes the benchmark's package, its external test
// package and package main for the user's code.
func benchUserCode(p listedPkg) memprof.UserCode {
	return memprof.UserCode{Prefixes: []string{p.ImportPath, p.ImportPath + "_test", "main"}}
}

// readAllocProfile sums the profile's allocations by site, keeping only the
// samples whose stack runs through the benchmark function top.
func readAllocProfile(name string, p listedPkg, top string) (map[siteKey]*siteCount, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("the benchmark wrote no memory profile: %v", err)
	}
	// The test binary's own profile, trusted: a generous limit.
	prof, err := memprof.Parse(data, 1<<30)
	if err != nil {
		return nil, fmt.Errorf("reading memory profile: %v", err)
	}
	ownPkg := func(fn string) bool {
		pkgPath := memprof.FuncPackage(fn)
		return pkgPath == p.ImportPath || pkgPath == p.ImportPath+"_test" ||
			(p.Name == "main" && pkgPath == "main")
	}
	counts := map[siteKey]*siteCount{}
	for _, s := range prof.Samples {
		inBench := false
		for _, fr := range s.Stack {
			if fr.Func == "testing.(*B).RunParallel.func1" {
				// A goroutine of b.RunParallel: the process runs this
				// one benchmark only, so its workers are the
				// benchmark's, even when the body is a closure written
				// in a helper and no frame of the benchmark is on the
				// stack.
				inBench = true
				break
			}
			if ownPkg(fr.Func) {
				local := fr.Func[strings.LastIndex(fr.Func, "/")+1:]
				_, local, _ = strings.Cut(local, ".")
				if local == top || strings.HasPrefix(local, top+".") {
					inBench = true
					break
				}
			}
		}
		if !inBench {
			continue
		}
		var at, via siteKey
		for _, fr := range s.Stack {
			if at.fn == "" && !memprof.IsRuntime(fr.Func) {
				at = siteKey{fr.Func, fr.File, fr.Line}
			}
			if via.fn == "" && ownPkg(fr.Func) {
				via = siteKey{fr.Func, fr.File, fr.Line}
			}
		}
		if at.fn == "" {
			continue
		}
		c := counts[at]
		if c == nil {
			c = &siteCount{via: via}
			counts[at] = c
		}
		c.objects += s.Objects
		c.bytes += s.Bytes
		c.samples = append(c.samples, s)
	}
	return counts, nil
}

type fileLine struct {
	file string
	line int64
}

// diagLine matches one line of the compiler's -m output.
var diagLine = regexp.MustCompile(`^(.+?\.go):(\d+):\d+: (.*)$`)

// parseEscapes reads the output of go build -gcflags=-m=2 and returns, per
// file and line, the escape-analysis explanations of heap allocations made
// there: each headline ("x escapes to heap in f:", "moved to heap: x")
// followed by its indented flow lines.
func parseEscapes(out []byte, dir string) map[fileLine][]string {
	reasons := map[fileLine][]string{}
	var cur *fileLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		m := diagLine.FindStringSubmatch(sc.Text())
		if m == nil {
			cur = nil
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		line, _ := strconv.ParseInt(m[2], 10, 64)
		msg := m[3]
		if strings.HasPrefix(msg, "  ") {
			if cur != nil {
				reasons[*cur] = append(reasons[*cur], strings.TrimRight(msg, ":"))
			}
			continue
		}
		cur = nil
		if !strings.Contains(msg, "escapes to heap") && !strings.HasPrefix(msg, "moved to heap:") {
			continue
		}
		k := fileLine{filepath.Clean(file), line}
		msg = strings.TrimSuffix(msg, ":")
		// -m=2 repeats each headline in the short -m=1 form; keep one.
		dup := false
		for _, r := range reasons[k] {
			if !strings.HasPrefix(r, "  ") && strings.HasPrefix(r, msg) {
				dup = true
			}
		}
		if dup {
			continue
		}
		reasons[k] = append(reasons[k], msg)
		cur = &k
	}
	return reasons
}

// summarise returns the headlines of a site's explanation and, for each,
// the step that sends the value to the heap.
func summarise(reason []string, verbose bool) []string {
	if verbose {
		return reason
	}
	var out []string
	for i, r := range reason {
		if strings.HasPrefix(r, "  ") {
			continue
		}
		s := r
		// Find this headline's last "flow: {heap} ← …" step and the
		// "from …" line under it.
		for j := i + 1; j < len(reason) && strings.HasPrefix(reason[j], "  "); j++ {
			if strings.Contains(reason[j], "flow: {heap}") && j+1 < len(reason) {
				s = r + "; " + strings.TrimSpace(reason[j+1])
			}
		}
		out = append(out, s)
	}
	return out
}

// allocsNote explains the one way the profile's counts differ from
// -benchmem's.
const allocsNote = `Note: the runtime packs pointer-free allocations under 16 B into shared 16 B blocks and the profile
sees the blocks, so such sites can show fewer allocs/op than -benchmem counts (two 8 B ints show as 0.5).`

// Write prints results, per benchmark, at most top sites each (0: all),
// with the compiler's whole escape-analysis explanation when verbose.
func Write(w io.Writer, results []Benchmark, top int, verbose bool) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	defer fmt.Fprintf(bw, "\n%s\n", allocsNote)
	// The root of the go command that built the benchmarks; without one
	// the standard library's files keep their absolute paths.
	goroot, _ := goenv.GOROOT()
	goroot = filepath.Clean(goroot)
	wd, _ := os.Getwd()
	short := func(file string) string {
		if rel, err := filepath.Rel(filepath.Join(goroot, "src"), file); err == nil && !strings.HasPrefix(rel, "..") {
			return "$GOROOT/src/" + filepath.ToSlash(rel)
		}
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
		return file
	}
	for i, b := range results {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "%s  %s: %s allocs/op, %.0f B/op (steady state, over %d ops; go test -benchmem: %s)\n",
			b.Name, b.Pkg, numfmt.Allocs(round3(b.Allocs)), b.Bytes, b.N, b.Mem)
		if len(b.Sites) == 0 {
			fmt.Fprintln(bw, "  no allocations")
			continue
		}
		fmt.Fprintf(bw, "  %9s %8s  %s\n", "allocs/op", "B/op", "site")
		shown := b.Sites
		if top > 0 && len(shown) > top {
			shown = shown[:top]
		}
		for _, s := range shown {
			fmt.Fprintf(bw, "  %9s %8.0f  %s  %s:%d\n", numfmt.Allocs(round3(s.Allocs)), s.Bytes, s.Func, short(s.File), s.Line)
			if s.Via != "" {
				fmt.Fprintf(bw, "  %9s %8s    called from %s  %s:%d\n", "", "", s.Via, short(s.ViaFile), s.ViaLine)
			}
			for _, r := range summarise(s.Reason, verbose) {
				fmt.Fprintf(bw, "  %9s %8s    compiler: %s\n", "", "", r)
			}
			fmt.Fprintf(bw, "  %9s %8s    advice%s: %s\n", "", "", s.Advice.Coverage(), s.Advice.Text)
		}
		if rest := b.Sites[len(shown):]; len(rest) > 0 {
			var a, by float64
			for _, s := range rest {
				a += s.Allocs
				by += s.Bytes
			}
			fmt.Fprintf(bw, "  %9s %8.0f  (%d more sites; -top 0 shows all)\n", numfmt.Allocs(round3(a)), by, len(rest))
		}
	}
}

// round3 rounds to three decimals, so that 1000 allocations over 1000 ops
// print as 1 rather than as a float artefact.
func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }
