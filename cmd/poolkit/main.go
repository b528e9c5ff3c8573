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
	{"bench", "measure published sync.Pool patterns and poolkit on this machine", runBench},
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
