package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Verdicts, as REAL-WORLD.md defines them.
var verdictKinds = []string{"true", "true-minor", "debatable", "false"}

// key names one report: its module, check and file:line.
type key struct{ module, check, pos string }

// fileLine returns the file:line of a file:line:col position.
func fileLine(posn string) string {
	if i := strings.LastIndexByte(posn, ':'); i >= 0 {
		if j := strings.LastIndexByte(posn[:i], ':'); j >= 0 {
			return posn[:i]
		}
	}
	return posn
}

func (f finding) key() key { return key{f.module, f.check, fileLine(f.posn)} }

// verdict is the triage of one report.
type verdict struct{ kind, reason string }

// problem is a misuse found by reading a module's Get and Put sites: a
// report of check (any check if "*") at one of pos catches it.
type problem struct {
	module, check string
	pos           []string
	what          string
}

// fields splits the tab-separated lines of r into n fields each,
// skipping blank lines and # comments.
func fields(r io.Reader, n int, name string) ([][]string, error) {
	var rows [][]string
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		t := sc.Text()
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.SplitN(t, "\t", n)
		if len(f) != n {
			return nil, fmt.Errorf("%s:%d: %d tab-separated fields, want %d", name, line, len(f), n)
		}
		rows = append(rows, f)
	}
	return rows, sc.Err()
}

// readVerdicts reads lines "module check file:line verdict reason",
// tab-separated.
func readVerdicts(r io.Reader, name string) (map[key]verdict, error) {
	rows, err := fields(r, 5, name)
	if err != nil {
		return nil, err
	}
	vs := map[key]verdict{}
	for _, f := range rows {
		k := key{f[0], f[1], f[2]}
		if !slices.Contains(verdictKinds, f[3]) {
			return nil, fmt.Errorf("%s: %v: verdict %q is none of %v", name, k, f[3], verdictKinds)
		}
		if _, dup := vs[k]; dup {
			return nil, fmt.Errorf("%s: %v has two verdicts", name, k)
		}
		vs[k] = verdict{f[3], f[4]}
	}
	return vs, nil
}

// readProblems reads lines "module check file:line[,file:line...] what",
// tab-separated.
func readProblems(r io.Reader, name string) ([]problem, error) {
	rows, err := fields(r, 4, name)
	if err != nil {
		return nil, err
	}
	var ps []problem
	for _, f := range rows {
		ps = append(ps, problem{f[0], f[1], strings.Split(f[2], ","), f[3]})
	}
	return ps, nil
}

// caughtBy returns the checks among reported (the keys of reports) that
// catch p.
func (p problem) caughtBy(reported map[key]bool) []string {
	var by []string
	for k := range reported {
		if k.module == p.module && (p.check == "*" || p.check == k.check) && slices.Contains(p.pos, k.pos) && !slices.Contains(by, k.check) {
			by = append(by, k.check)
		}
	}
	return by
}
