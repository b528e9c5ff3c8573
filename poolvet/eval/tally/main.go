// Command tally summarises the reports of go vet -vettool=poolvet -json
// over the modules run.sh analyses, and scores them against the triage
// REAL-WORLD.md records.
//
// Usage:
//
//	tally -out DIR -findings FILE [-scored] [-verdicts FILE] [-problems FILE] MODULE=ROOT...
//
// For each MODULE, DIR/NAME.json holds what go vet -json printed, on
// standard output and error, while run in ROOT, the module's copy (NAME
// is MODULE with each "/" replaced by "_"). Positions are printed
// relative to ROOT. Output that is not go vet's JSON (a build or type
// error) is printed to standard error and counted in the table's last
// column, so a module that did not build is not mistaken for a clean one.
//
// tally prints one row per module with the number of reports of each
// check and writes the reports, one a line, to the -findings file, each
// with its verdict from the -verdicts file (tab-separated lines: module,
// check, file:line, verdict, reason; verdicts are true, true-minor,
// debatable and false). It then prints the verdict counts and the false
// positive rate, for the default checks and with the opt-in ones, and,
// given a -problems file (tab-separated lines: module, check or "*", the
// file:line positions where a report would catch the problem, joined by
// commas, and what the problem is), which of those problems the reports
// catch. A report with no verdict is listed as untriaged. With -scored,
// only reports in the files a draw scores count: a module's own .go
// files that are not tests and not under vendor/, testdata/ or a
// directory the go command ignores.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/poolkit/poolkit/poolvet"
)

func main() {
	out := flag.String("out", "", "directory of the NAME.json files")
	list := flag.String("findings", "", "file to write the reports to, one a line")
	verdictsFile := flag.String("verdicts", "", "triage of the reports")
	problemsFile := flag.String("problems", "", "problems found by reading the modules")
	scoredOnly := flag.Bool("scored", false, "count only reports in non-test files outside vendor/ and testdata/")
	flag.Parse()
	if *out == "" || *list == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: tally -out DIR -findings FILE [-verdicts FILE] [-problems FILE] MODULE=ROOT...")
		os.Exit(2)
	}
	if err := run(os.Stdout, *out, *list, *verdictsFile, *problemsFile, *scoredOnly, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "tally:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, out, list, verdictsFile, problemsFile string, scoredOnly bool, modules []string) error {
	type row struct {
		module string
		res    result
	}
	var rows []row
	checks := map[string]bool{}
	for _, arg := range modules {
		module, root, ok := strings.Cut(arg, "=")
		if !ok {
			return fmt.Errorf("%q is not MODULE=ROOT", arg)
		}
		f, err := os.Open(filepath.Join(out, strings.ReplaceAll(module, "/", "_")+".json"))
		if err != nil {
			return err
		}
		res, err := parse(module, root, f)
		f.Close()
		if err != nil {
			return err
		}
		for _, e := range res.errors {
			fmt.Fprintf(os.Stderr, "%s: not a report: %s\n", module, e)
		}
		if scoredOnly {
			res.findings = slices.DeleteFunc(res.findings, func(fd finding) bool { return !scored(fd.posn) })
		}
		for _, fd := range res.findings {
			checks[fd.check] = true
		}
		rows = append(rows, row{module, res})
	}
	var verdicts map[key]verdict
	if verdictsFile != "" {
		b, err := os.ReadFile(verdictsFile)
		if err != nil {
			return err
		}
		if verdicts, err = readVerdicts(bytes.NewReader(b), verdictsFile); err != nil {
			return err
		}
	}

	names := slices.Sorted(func(yield func(string) bool) {
		for c := range checks {
			if !yield(c) {
				return
			}
		}
	})
	var lines bytes.Buffer
	var all []finding
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintf(tw, "module\treports\t%s\tnot reports\n", strings.Join(names, "\t"))
	total := map[string]int{}
	errs := 0
	for _, r := range rows {
		n := map[string]int{}
		for _, fd := range r.res.findings {
			n[fd.check]++
			total[fd.check]++
			v := verdicts[fd.key()]
			if v.kind == "" {
				v.kind = "untriaged"
			}
			fmt.Fprintf(&lines, "%s\t%s\t%s\t%s\t%s\t%s\n", fd.module, fd.check, fd.posn, v.kind, fd.message, v.reason)
		}
		all = append(all, r.res.findings...)
		errs += len(r.res.errors)
		fmt.Fprintf(tw, "%s\t%d", r.module, len(r.res.findings))
		for _, c := range names {
			fmt.Fprintf(tw, "\t%d", n[c])
		}
		fmt.Fprintf(tw, "\t%d\n", len(r.res.errors))
	}
	fmt.Fprintf(tw, "total\t%d", len(all))
	for _, c := range names {
		fmt.Fprintf(tw, "\t%d", total[c])
	}
	fmt.Fprintf(tw, "\t%d\n", errs)
	tw.Flush()
	if err := os.WriteFile(list, lines.Bytes(), 0o666); err != nil {
		return err
	}

	var optIn []string
	for _, a := range poolvet.OptIn() {
		optIn = append(optIn, a.Name)
	}
	isDefault := func(check string) bool { return !slices.Contains(optIn, check) }
	if verdicts != nil {
		fmt.Fprintln(w)
		score(w, "default checks", all, verdicts, isDefault)
		score(w, "with -all", all, verdicts, func(string) bool { return true })
	}
	if problemsFile != "" {
		b, err := os.ReadFile(problemsFile)
		if err != nil {
			return err
		}
		problems, err := readProblems(bytes.NewReader(b), problemsFile)
		if err != nil {
			return err
		}
		fmt.Fprintln(w)
		recall(w, problems, all, isDefault)
	}
	return nil
}

// score prints the verdict counts and the false positive rate of the
// reports of the checks selected, and the reports with no verdict.
func score(w io.Writer, name string, all []finding, verdicts map[key]verdict, selected func(string) bool) {
	n := map[string]int{}
	reports := 0
	var untriaged []finding
	for _, fd := range all {
		if !selected(fd.check) {
			continue
		}
		reports++
		v, ok := verdicts[fd.key()]
		if !ok {
			untriaged = append(untriaged, fd)
			continue
		}
		n[v.kind]++
	}
	fmt.Fprintf(w, "%s: %d reports:", name, reports)
	for _, k := range verdictKinds {
		fmt.Fprintf(w, " %s %d,", k, n[k])
	}
	fmt.Fprintf(w, " untriaged %d; false positives %s, false or debatable %s\n",
		len(untriaged), ratio(n["false"], reports-len(untriaged)), ratio(n["false"]+n["debatable"], reports-len(untriaged)))
	for _, fd := range untriaged {
		fmt.Fprintf(w, "  untriaged: %s\t%s\t%s\t%s\n", fd.module, fd.check, fd.posn, fd.message)
	}
}

// recall prints which of the problems found by reading the reports catch,
// by the default checks and with the opt-in ones.
func recall(w io.Writer, problems []problem, all []finding, isDefault func(string) bool) {
	reported := map[key]bool{}
	for _, fd := range all {
		reported[fd.key()] = true
	}
	byDefault, byAll := 0, 0
	for _, p := range problems {
		by := p.caughtBy(reported)
		slices.Sort(by)
		status := "missed"
		if len(by) > 0 {
			status = "caught by " + strings.Join(by, ",")
			byAll++
			if slices.ContainsFunc(by, isDefault) {
				byDefault++
			}
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", p.module, strings.Join(p.pos, ","), status, p.what)
	}
	fmt.Fprintf(w, "problems found by reading: %d; caught by the default checks %s, with -all %s\n",
		len(problems), ratio(byDefault, len(problems)), ratio(byAll, len(problems)))
}

// scored reports whether a report's position, relative to its module's
// root, lies in a file a draw scores.
func scored(posn string) bool {
	file, _, _ := strings.Cut(posn, ":")
	if strings.HasSuffix(file, "_test.go") || filepath.IsAbs(file) {
		return false
	}
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(file)), "/") {
		if dir == "vendor" || dir == "testdata" || strings.HasPrefix(dir, "_") || (strings.HasPrefix(dir, ".") && dir != ".") {
			return false
		}
	}
	return true
}

func ratio(a, b int) string {
	if b == 0 {
		return fmt.Sprintf("%d/%d", a, b)
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}
