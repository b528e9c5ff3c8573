// Command poolkit measures pooling on the machine at hand, finds where a
// program allocates and checks its use of pools.
//
// Usage:
//
//	poolkit bench  [flags]                    measure the seed articles' table here
//	poolkit allocs [-bench RE] [-top N] [pkgs] list allocation sites per benchmark
//	poolkit allocs -profile FILE|URL           list a running service's allocation sites
//	poolkit vet    [-all] [pkgs]              report sync.Pool and poolkit pool misuse
//
// Run "poolkit <command> -h" for a command's flags.
//
// # bench
//
// bench runs every workload registered in internal/workloads, each as the
// naive version, the seed article's pooled pattern and poolkit's, in this
// process with testing.Benchmark. Each case runs -count times, the runs of
// all cases interleaved so that a burst of load on the machine hits every
// case alike. The table has one row per case, and per -cpu value for the
// parallel cases, in the order internal/workloads registers them: by
// workload, each workload's rows together, serial before parallel. It
// reports per case the median ns/op with the
// largest deviation of any run from it (±), the steady-state allocations
// per operation, exact (not truncated to an integer as -benchmem does), the
// allocations of a cold first call made after the garbage collector has
// emptied every sync.Pool, the speed-up over the naive version measured in
// the same run, and beside it what the article published.
//
// # allocs
//
// allocs runs the benchmarks of the given packages (default ".") with
// -memprofilerate=1, reads the allocation profile and prints, per
// benchmark, every allocation site with its allocations and bytes per
// operation, largest first, with the compiler's escape-analysis reason
// where it gives one and the advice -profile gives (below), the
// benchmark's package taken for the user's code. The workers of
// b.RunParallel count as the benchmark's even when their body is a
// closure written in a helper. It replaces the GODEBUG=allocfreetrace=1
// recipe of the methane article, which Go 1.23 removed.
//
// allocs -profile SOURCE reads a running service's memory profile instead,
// from a pprof file or a net/http/pprof URL (a delta over -seconds), and
// lists the sites that allocate most per second (-sort bytes: most bytes),
// each with the first frame in the user's code, the allocations the
// runtime recorded there (a site with fewer than 10 is marked "?"), and
// the poolkit package that removes it, or "no rule". The advice reads the
// whole stack: a gzip writer started inside json.Encoder.Encode is
// gzpool's, a strings.Builder inside net/url is net/url's (no rule), a
// sync.Pool's misses are already pooled; it names a package only when the
// pattern covers at least half of the site, and says which part when not
// all. The user's code is, unless -user says otherwise, the packages built
// from a working tree, or when every file comes from the module cache, the
// module of package main, else the module outermost on the stacks that
// allocate most; the report says which. Source lines are read
// from the working tree, the module cache (for "module@version/..." file
// names) and GOROOT, with a warning when a file changed after the profile
// was taken. A profile is refused when it inflates past -max-profile-mib
// (16 MiB) or its parsing would take more than 32 times that.
//
// # vet
//
// vet runs the analyzers of github.com/poolkit/poolkit/poolvet over the
// given packages (default ".") and their tests, as cmd/poolvet does, and
// exits 3 when they report something. -all adds the opt-in checks.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands, in the order usage shows them.
var commands = []command{
	{"bench", "measure the seed articles' pooling table on this machine", runBench},
	{"allocs", "list the allocation sites of benchmarks, per operation", runAllocs},
	{"vet", "report sync.Pool and poolkit pool misuse (the poolvet analyzers)", runVet},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: poolkit <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "poolkit <command> -h" for a command's flags.`)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go func() {
				// After the first Ctrl-C a second one kills the process at
				// once, as usual.
				<-ctx.Done()
				stop()
			}()
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "poolkit: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}
