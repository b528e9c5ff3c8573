package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// newFlagSet returns the flag set of the subcommand name ("poolkit
// bench"): it reports errors on stderr, and its usage prints the synopsis
// lines, a blank line, the about lines, a blank line and the flags.
func newFlagSet(name string, stderr io.Writer, synopsis, about []string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		for _, l := range synopsis {
			fmt.Fprintln(stderr, l)
		}
		fmt.Fprintln(stderr)
		for _, l := range about {
			fmt.Fprintln(stderr, l)
		}
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	return fs
}

// usageStatus returns the exit status of a subcommand whose command line
// did not parse: 0 when err is flag.ErrHelp (the usage is printed
// already), else 2, after printing err on stderr after the name.
func usageStatus(stderr io.Writer, name string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "%s: %v\n", name, err)
	return 2
}
