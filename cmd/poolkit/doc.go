/*
Command poolkit measures published sync.Pool patterns on the machine at
hand, finds where a program allocates and checks its use of pools.

Usage:

	poolkit bench  [flags]                      measure published sync.Pool patterns and poolkit here
	poolkit allocs [-bench RE] [-top N] [pkgs]  list allocation sites per benchmark
	poolkit allocs -profile FILE|URL            list a running service's allocation sites
	poolkit vet    [-all] [pkgs]                report sync.Pool and poolkit pool misuse

Run "poolkit <command> -h" for a command's flags. Install it with

	go install github.com/poolkit/poolkit/cmd/poolkit@latest

or run it from a clone of the repository with "go run ./cmd/poolkit".

# Bench: published sync.Pool patterns on your machine

"poolkit bench" measures the workloads of articles that published a
sync.Pool pattern with its benchmark: ludwig125's "golangのsync.Poolで速度改善したい"
(string replication, gzip, gunzip, JSON, the sync.Pool documentation's log
line), the Qiita article "Goでsliceをpoolするときの罠" (four ways to pool a slice),
"使用 Sync Pool 提升程序性能" (a bytes.Buffer, a JSON array) and methane's
"Goでアロケーションに気をつけたコードを書く方法" (SQL placeholder interpolation). Each workload
runs three ways: naive, the article's own pooled pattern (the rows labelled
seed) and poolkit's.

It runs in one process with testing.Benchmark, each case -count times
(default 5), the runs of all cases interleaved so that a burst of load on
the machine hits every case alike; the default run takes about a minute on
two cores. The flags:

	-run REGEXP    only the cases whose workload/variant matches
	-count N       runs per case; the table shows the median
	-benchtime D   time (or iterations, 1000x) of each run
	-cpu 1,2,4     GOMAXPROCS values of the parallel (b.RunParallel) rows
	-clock cpu     the process's CPU time per op instead of wall time: steadier on a busy machine
	-format F      text, markdown, csv, json, or benchfmt (for benchstat)
	-html FILE     also write a self-contained page with a chart of the speed-ups

A progress line runs on stderr when it is a terminal (-progress forces it);
Ctrl-C prints the runs completed so far. An excerpt, from a shared 2-core
machine, without the legend, footnotes and sources the table is followed by:

	$ poolkit bench -run '^interpolate' -count 3 -clock cpu
	poolkit bench: go1.26.8 linux/amd64, Intel(R) Xeon(R) Processor, 2 CPUs, GOMAXPROCS=2; -count 3 -benchtime 150ms -clock cpu; 2026-11-26 08:42 UTC; took 11s

	workload     variant                         P  ns/op    ±  allocs/op  cold  B/op  speed-up  | pub ns/op  pub allocs  pub speed-up
	interpolate  naive [1]                           1800  18%     13.000    22   928      base  |      3887          15          base
	interpolate  seed [2]                             531  12%      1.000     1   176     3.39x  |      1403           1         2.77x
	interpolate  poolkit (sqlinterp.Append) [3]       448   6%          0     1     0     4.01x  |         -           -             -

How to read it:

  - ns/op is the median of the runs, ± the largest deviation of a run from
    it.
  - allocs/op is the steady-state count, exact rather than truncated as
    -benchmem does: the difference between a run's last two trials over the
    difference of their N, so what a trial pays once cancels. 2.1e-06 is
    real, just rare; 13.000 is within 0.0005 of 13 but not exactly 13.
  - cold is the allocations of one call made after two garbage collections
    emptied every sync.Pool: the cost after an idle period, which warm-up
    hides.
  - speed-up is the naive row's ns/op over this row's, from the same run.
  - the pub columns are the article's own figures, from another machine and
    Go version: compare their ratios, not their nanoseconds.
  - numbered footnotes, printed under the table, say where an article's code
    was changed and why: only bugs that would crash or corrupt the result are
    fixed.

# Comparing two runs with benchstat

-format benchfmt writes the Go benchmark format, one line per run rather
than the median, so that golang.org/x/perf/cmd/benchstat compares two runs
row by row: before and after a change, a Go upgrade, or two machines.

	poolkit bench -format benchfmt > old.txt
	# change something
	poolkit bench -format benchfmt > new.txt
	benchstat old.txt new.txt

Each row is a benchmark named Benchmark<Workload>/variant=<variant>, spaces
turned to underscores and, on parallel rows, -P appended as go test appends
GOMAXPROCS: BenchmarkGzip/variant=poolkit_(AppendCompress,_reused_dst). The
units are ns/op (what -clock measures), B/op and allocs/op (steady state,
exact), cold-allocs/op (marked exact, so benchstat asks for no more runs of
it) and speed-up. The header holds goos, goarch, cpu, pkg, go (the Go
version) and clock, and benchstat puts results whose header differs in
separate tables: to compare two Go versions or machines, ignore that key or
make it the columns ("benchstat -ignore go old.txt new.txt", "benchstat -col
go ..."). "benchstat -row .name -col /variant new.txt" sets one run's
variants side by side. benchstat wants 6 or more runs per row for a
confidence interval: -count 10.

# Allocs: where a benchmark allocates

"poolkit allocs" runs the benchmarks of the packages it is given (default
"."), in any module, and prints, per benchmark, every site that allocates in
the steady state, largest first: allocations and bytes per operation, the
function and line that allocate, the first caller in the benchmark's package
when the site is elsewhere, the compiler's escape-analysis reason where it
gives one, and the advice of -profile (below). It stands in for the
GODEBUG=allocfreetrace=1 recipe, which Go 1.23 removed.

It compiles each package's test binary once with -gcflags=-m=2, then runs
each benchmark in a process of its own with -memprofilerate=1, at n and 2n
iterations (-benchtime nx, default 1000x): the difference of the two
profiles over n is the cost of one operation, so setup, warm-up and the
allocations that fill pools cancel out. The workers of b.RunParallel count
as their benchmark's even when their body is a closure written in a helper.
-bench selects benchmarks as go test's does, -top limits the sites per
benchmark (default 10, 0 for all) and -v prints the compiler's whole
explanation.

	$ poolkit allocs -bench 'Fields|Counter'
	BenchmarkFields  example.com/demo: 1 allocs/op, 48 B/op (steady state, over 1000 ops; go test -benchmem: 48 B/op, 1 allocs/op)
	  allocs/op     B/op  site
	          1       48  strings.genSplit  $GOROOT/src/strings/strings.go:305
	                        called from example.com/demo.Fields  demo.go:11
	                        advice: no rule: strings.Split makes a new []string per call; strings.Cut or strings.SplitSeq avoid the slice (no poolkit package applies)

	BenchmarkCounter  example.com/demo: 1 allocs/op, 16 B/op (steady state, over 1000 ops; go test -benchmem: 16 B/op, 1 allocs/op)
	  allocs/op     B/op  site
	          1       16  example.com/demo.Counter  demo.go:25
	                        compiler: n escapes to heap in Counter
	                        compiler: moved to heap: n
	                        advice: no rule: the line itself allocates (a value moved to the heap, a closure, a conversion); go build -gcflags=-m says why

The runtime packs pointer-free allocations under 16 bytes into shared
16-byte blocks and the profile sees the blocks, so such a site can show 0.5
where -benchmem counts 1; each benchmark's header gives -benchmem's figure
beside the profile's.

# Allocs -profile: a running service

"poolkit allocs -profile SOURCE" reads a running service's memory profile
instead. SOURCE is a pprof file, gzipped or not, or the URL of a
net/http/pprof allocs or heap endpoint (the server's address alone means
/debug/pprof/allocs). From a URL it takes a delta over -seconds (default
10), so the figures are rates over that window; -save FILE keeps the profile
to read again. A file saved from a delta keeps its duration; a profile of
totals since the process started is reported as totals, unless -seconds
gives the span it covers. The allocations of the pprof handler serving the
profile are left out, and the report says how many.

Each site is the first frame in your code (or, on a stack with none, the
outermost frame, marked so), with its source line when it is at hand and the
function that allocates. Lines of one function that the same fix removes
make one site ("main.go:40 (and 38)"). Sites are ranked by allocations per
second, or by bytes with -sort bytes; -top (default 15) limits them and a
last line gives the rest's share of allocations and bytes.

Each site gets advice: the poolkit package that removes the allocation, or
"no rule". The advice reads the whole stack, weighted by the site's bytes
and objects: the allocating function, its callers down to your line, and
what your line calls. A gzip writer that a response writer creates inside
json.Encoder.Encode is gzpool's, not jsonpool's; a strings.Builder inside
net/url is net/url's, so no rule; the misses of a sync.Pool you already use
are a cost of the pool. A package is named only when its pattern covers at
least half of the site (its bytes and objects averaged), and the advice says
which part when it is not all of it. An allocation that your line only
triggers inside the standard library or a dependency is named as such, with
the dependency's call. Where the profile does not show what your own line
asks of the runtime, the rules read the line, when its source is at hand: a
slice passed to a pool's Put, a make, an append, a bytes.Buffer declared per
call, a query built by concatenation; without the source they guess nothing.
"No rule" is an honest answer: no poolkit package fits.

A pool recycles what is dropped after each use, so a site that keeps what
it allocates gets no pool, whatever its pattern. Go's heap and allocs
profiles say, beside what each site allocated, what of it is still in use:
as of the last GC in a profile of totals, the growth over the span in a
delta. When at least half of a site's bytes are still in use, the advice
says "no pool: retained, not churned": a cache, a map, a field or a caller
keeps them. A site whose objects are kept a while and then replaced (a cache
refreshed every few seconds) shows a small share in a long-running process,
and this rule does not tell it apart.

Your code is, unless -user gives package path prefixes ("main" for package
main), the packages built from a working tree. When every file comes from
the module cache, as for a program installed with go install module@version,
it is the module of package main, or, when no frame of
package main allocates, the module outermost on the stacks that allocate
most. The report says what it took. Source lines are read from the working
tree, the module cache (for file names such as module@version/dir/file.go,
as -trimpath writes them, or another machine's module cache) and GOROOT,
and only Go files under the module around the working directory, the module
cache and GOROOT, symbolic links followed: a profile, perhaps fetched from a
server, cannot make the report show any other file. Control characters in
the profile's names are shown escaped (\x1b, \u202e). The report warns
when a file changed after the profile was taken or is shorter than the
profile's line numbers, since the advice may then be wrong.

Profiles are sampled: Go records one allocation per 512 KiB allocated on
average, so small or rare sites can be missing. Each site shows its sample
count, and a site with fewer than 10 is marked "?": its figures may be off
by a third or more. To sample finer, run the service with
GODEBUG=memprofilerate=4096 in its environment, which needs no change to its
code, or set runtime.MemProfileRate first thing in main. The estimates tend
to come out below the runtime's exact counters (runtime/metrics
/gc/heap/allocs:objects), and a site of pointer-free allocations under 16
bytes shows fewer than were made, as in benchmarks. A profile that inflates
past -max-profile-mib (default 16) is refused before it fills the
memory. An excerpt, from a delta of a JSON API built on go-httpbin behind a
hand-written gzip middleware (cmd/poolkit/testdata/corpus/jsonapi.pb.gz):

	$ poolkit allocs -profile jsonapi.pb.gz -sort bytes -top 3
	Allocations at jsonapi.pb.gz over 15.1s (a delta profile): 39,727 allocs/s, 474.7 MiB/s in all, estimated from 56,917 recorded allocations.
	Sampling: one allocation recorded per 4.0 KiB allocated, on average (runtime.MemProfileRate = 4096), scaled up
	to estimates; finer than Go's default of 512 KiB.
	Left out: 888 allocs/s by the net/http/pprof handler itself while it served the profile.
	Your code: the packages built from a working tree, not taken from the module cache: main; -user prefixes changes it.

	    allocs/s      bytes/s  samples  site: first frame in your code (ranked by bytes)
	       7,529  421.3 MiB/s   32,246  main.(*gzipWriter).Write  example.com/jsonapi/main.go:40 (and 38)
	                                    allocated in compress/flate.NewWriter (also compress/flate.(*compressor).initDeflate, compress/flate.newHuffmanBitWriter, compress/flate.newHuffmanEncoder, …)
	                                    advice: gzpool: a gzip/flate writer is made per call (about 1 MB of state); gzpool.AppendCompress, gzpool.NewWriter or the httpcompress.Handler middleware reuse pooled writers
	...

-format json gives the same report as one object: the source, whether the
figures are rates and over how long, the sampling rate, your code, the
source files that cannot match, the totals, what was left out and what -top
did not show, and per site its function, file and line, source line,
figures, sample count, thin flag, advice, the package it names ("" for no
rule) and the share of the site it covers. The per-second fields are null
when the profile holds totals.

# In production

 1. Find the sites: serve net/http/pprof in the service and run
    "poolkit allocs -profile http://host:port/debug/pprof/allocs -seconds 30".
 2. Fix them with the package the advice names, and check the fix in a
    benchmark with "poolkit allocs" or with
    [github.com/poolkit/poolkit/allocs.PerRun] in a test.
 3. Watch the pools' hit ratios: [github.com/poolkit/poolkit/poolstats]
    publishes each pool's Gets, Puts, News (Gets the pool could not serve)
    and Drops (Puts it refused) on expvar, and
    github.com/poolkit/poolkit/poolprom for Prometheus; the hit ratio is
    1 - News/Gets. A ratio that stays low means values do not come back (a
    missing Put) or the garbage collector empties the pool faster than
    traffic refills it; steady drops mean the values outgrow the pool's
    limit.

# Vet

"poolkit vet" runs the analyzers of [github.com/poolkit/poolkit/poolvet]
over the packages it is given (default ".") and their tests, as cmd/poolvet
does. They report sync.Pool and poolkit pool misuse, such as a Put of a
value that allocates when boxed, or a pooled value used after Put or decoded
into without being zeroed. -all adds the opt-in checks, which need judgement
(retention of large buffers), and -tests=false leaves the test files out.
The exit status is 0 when nothing was reported, 3 when something was, and 1
when packages do not load.
*/
package main
