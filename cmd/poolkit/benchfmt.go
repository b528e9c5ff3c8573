package main

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/workloads"
)

// benchfmtPkg is the pkg configuration value of -format benchfmt: the
// package that holds the measured code, as go test names the package it
// benchmarks.
const benchfmtPkg = "github.com/poolkit/poolkit/cmd/poolkit/internal/workloads"

// writeBenchfmt writes rep in the Go benchmark format
// (golang.org/design/14313-benchmark-format, read by benchstat): a
// configuration header, then one result line per run of every row, so that
// benchstat sees every run, not the median.
//
// The header holds only what tells two runs apart as different setups:
// goos, goarch, cpu, pkg, go (the Go version) and clock (what ns/op
// measures). benchstat puts results of differing configurations in separate
// tables, so the date, -count and -benchtime go in a comment instead.
//
// Each row is a benchmark named Benchmark<Workload>/variant=<label>, with
// -P appended on parallel rows as go test appends GOMAXPROCS; spaces become
// underscores, as go test does in sub-benchmark names, and a slash becomes
// an underscore so that it does not start another name part. The units are
// go test's ns/op, B/op and allocs/op (steady state, exact), plus
// cold-allocs/op (one call after the garbage collector emptied the pools,
// measured once per row and repeated on each of its lines) and speed-up
// (the naive row's ns/op over this row's in the same round). Rows that
// failed are listed in comments.
func writeBenchfmt(w io.Writer, rep *report) error {
	bw := bufio.NewWriter(w)
	e := rep.Env
	bw.WriteString("# poolkit bench -format benchfmt -count " + strconv.Itoa(e.Count) + " -benchtime " + e.Benchtime +
		" -clock " + e.Clock + "; " + e.Date + "; took " + rep.Elapsed + "\n")
	if rep.Interrupted {
		bw.WriteString("# INTERRUPTED: the lines below are the runs completed so far.\n")
	}
	for _, kv := range [][2]string{
		{"goos", e.GOOS},
		{"goarch", e.GOARCH},
		{"pkg", benchfmtPkg},
		{"cpu", e.CPU},
		{"go", e.GoVersion},
		{"clock", e.Clock},
	} {
		bw.WriteString(kv[0] + ": " + oneLine(kv[1]) + "\n")
	}
	bw.WriteString("Unit cold-allocs/op assume=exact better=lower\n")
	bw.WriteString("Unit speed-up better=higher\n")

	naive := map[string]*reportRow{}
	for i := range rep.Rows {
		if r := &rep.Rows[i]; r.Variant == string(workloads.Naive) {
			naive[r.Workload+"\x00"+strconv.Itoa(r.Procs)] = r
		}
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for i := range rep.Rows {
		r := &rep.Rows[i]
		name := benchfmtName(r)
		if r.Error != "" {
			bw.WriteString("# " + name + ": error: " + oneLine(r.Error) + "\n")
		}
		base := naive[r.Workload+"\x00"+strconv.Itoa(r.Procs)]
		for run, ns := range r.NsRuns {
			bw.WriteString(name + "\t" + strconv.Itoa(r.itersRuns[run]) +
				"\t" + num(ns) + " ns/op" +
				"\t" + num(r.bytesRuns[run]) + " B/op" +
				"\t" + num(r.AllocsRuns[run]) + " allocs/op")
			if r.ColdAllocs != nil {
				bw.WriteString("\t" + strconv.FormatUint(*r.ColdAllocs, 10) + " cold-allocs/op")
			}
			if base != nil && run < len(base.NsRuns) && ns > 0 {
				bw.WriteString("\t" + num(base.NsRuns[run]/ns) + " speed-up")
			}
			bw.WriteString("\n")
		}
	}
	return bw.Flush()
}

// benchfmtName returns the benchmark name of a row.
func benchfmtName(r *reportRow) string {
	w := []rune(nameField(r.Workload))
	if len(w) > 0 {
		w[0] = unicode.ToUpper(w[0])
	}
	name := "Benchmark" + string(w) + "/variant=" + nameField(r.Label)
	if r.Procs > 0 {
		name += "-" + strconv.Itoa(r.Procs)
	}
	return name
}

// nameField makes s one part of a benchmark name: no white space, which
// ends the name, and no slash, which starts another part.
func nameField(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsSpace(c) || c == '/' {
			return '_'
		}
		return c
	}, s)
}

// oneLine keeps a configuration value or a comment on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
