package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/benchallocs"
)

// allocsConfig is poolkit allocs's parsed command line, without -profile.
type allocsConfig struct {
	bench   string
	top     int
	n       int
	verbose bool
	pkgs    []string
}

func parseAllocsFlags(args []string, stderr io.Writer) (*allocsConfig, error) {
	fs := newFlagSet("poolkit allocs", stderr, []string{
		"usage: poolkit allocs [-bench regexp] [-top n] [packages]",
		"       poolkit allocs -profile file-or-URL [-seconds n] [-top n] [-format text|json]   (a running service; -profile -h)",
	}, []string{
		"Lists, per benchmark, where it allocates: function, file:line, allocations and bytes per op,",
		"largest first, with the compiler's reason (go build -gcflags=-m=2) where it gives one.",
	})
	bench := fs.String("bench", ".", "run only the benchmarks matching `regexp`, as go test -bench")
	top := fs.Int("top", 10, "show the `n` largest sites per benchmark; 0 shows all")
	benchtime := fs.String("benchtime", "1000x", "iterations `n` of the shorter of the two runs per benchmark (Nx)")
	verbose := fs.Bool("v", false, "show the compiler's whole escape-analysis explanation for each site")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	cfg := &allocsConfig{bench: *bench, top: *top, verbose: *verbose, pkgs: fs.Args()}
	if _, err := regexp.Compile(cfg.bench); err != nil {
		return nil, fmt.Errorf("-bench: %v", err)
	}
	if cfg.top < 0 {
		return nil, fmt.Errorf("-top must not be negative, got %d", cfg.top)
	}
	s, ok := strings.CutSuffix(*benchtime, "x")
	n, err := strconv.Atoi(s)
	if !ok || err != nil || n < 1 {
		return nil, fmt.Errorf("-benchtime must be an iteration count such as 1000x, got %q "+
			"(a duration would leave the number of operations unknown)", *benchtime)
	}
	cfg.n = n
	if len(cfg.pkgs) == 0 {
		cfg.pkgs = []string{"."}
	}
	return cfg, nil
}

func runAllocs(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if hasProfileFlag(args) {
		return runAllocsProfile(ctx, args, stdout, stderr)
	}
	if f := profileOnlyFlag(args); f != "" {
		fmt.Fprintf(stderr, "poolkit allocs: %s applies to a running service's profile: add -profile URL-or-file "+
			"(poolkit allocs -profile -h lists its flags)\n", f)
		return 2
	}
	cfg, err := parseAllocsFlags(args, stderr)
	if err != nil {
		return usageStatus(stderr, "poolkit allocs", err)
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "poolkit allocs: %v\n", err)
		return 1
	}
	results, err := benchallocs.Run(ctx, dir, benchallocs.Config{Bench: cfg.bench, N: cfg.n, Pkgs: cfg.pkgs}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "poolkit allocs: %v\n", err)
		return 1
	}
	benchallocs.Write(stdout, results, cfg.top, cfg.verbose)
	return 0
}
