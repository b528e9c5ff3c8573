package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/poolkit/poolkit/poolvet"
)

// runVet runs poolvet's analyzers over the packages, as cmd/poolvet does,
// and exits 3 when they report something, as analysis drivers do.
func runVet(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("poolkit vet", stderr, []string{
		"usage: poolkit vet [-all] [packages]",
	}, []string{
		"Reports sync.Pool and poolkit pool misuse: the checks of github.com/poolkit/poolkit/poolvet.",
		"Exit status: 0 clean, 3 when something was reported, 1 when packages could not be loaded.",
	})
	all := fs.Bool("all", false, "also run the opt-in checks, which need judgement (retention of large buffers)")
	tests := fs.Bool("tests", true, "also check the packages' test files")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "poolkit vet: %v\n", err)
		return 1
	}
	cfg := &packages.Config{Context: ctx, Mode: packages.LoadAllSyntax, Tests: *tests, Dir: dir}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "poolkit vet: %v\n", err)
		return 1
	}
	if len(pkgs) == 0 {
		fmt.Fprintf(stderr, "poolkit vet: no packages match %v\n", patterns)
		return 1
	}
	bad := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			fmt.Fprintln(stderr, e)
			bad = true
		}
	})
	if bad {
		fmt.Fprintln(stderr, "poolkit vet: the packages above do not load or compile")
		return 1
	}
	graph, err := checker.Analyze(poolvet.Analyzers(*all), pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "poolkit vet: %v\n", err)
		return 1
	}
	found := false
	for act := range graph.All() {
		if act.IsRoot && len(act.Diagnostics) > 0 {
			found = true
		}
	}
	if err := graph.PrintText(stdout, -1); err != nil {
		fmt.Fprintf(stderr, "poolkit vet: %v\n", err)
		return 1
	}
	if found {
		return 3
	}
	return 0
}
