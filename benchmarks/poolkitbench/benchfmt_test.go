// Package poolkitbench checks that the output of poolkit bench -format
// benchfmt is what the Go benchmark tools read: it parses with
// golang.org/x/perf/benchfmt, and benchstat compares two runs row by row.
// It lives in this module because golang.org/x/perf needs a newer Go than
// poolkit's own go.mod allows.
package poolkitbench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// benchArgs select two workloads, one serial and one parallel at two
// GOMAXPROCS values, with fixed iteration counts so the test is quick.
var benchArgs = []string{"bench", "-count", "2", "-benchtime", "20x", "-cpu", "1,2", "-progress=false",
	"-run", `^(replicate n=5|log line \(parallel\))/`}

// units are the units every result line carries, as benchfmt tidies them
// (ns/op becomes sec/op).
var units = []string{"sec/op", "B/op", "allocs/op", "cold-allocs/op", "speed-up"}

func TestBenchfmtReadsAndCompares(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs poolkit bench three times")
	}
	dir := t.TempDir()
	poolkit := filepath.Join(dir, "poolkit")
	// Built in poolkit's own module (two directories up), as a user
	// builds it, not with this module's dependencies.
	build := exec.Command("go", "build", "-o", poolkit, "./cmd/poolkit")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/poolkit: %v\n%s", err, out)
	}
	runPoolkit := func(format, file string) []byte {
		out, err := exec.Command(poolkit, append(benchArgs, "-format", format)...).Output()
		if err != nil {
			t.Fatalf("poolkit bench -format %s: %v", format, err)
		}
		if file != "" {
			if err := os.WriteFile(filepath.Join(dir, file), out, 0o666); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}

	// The rows the table has, from the JSON report of the same selection.
	var rep struct {
		Rows []struct {
			Workload, Label string
			Procs           int
		}
	}
	if err := json.Unmarshal(runPoolkit("json", ""), &rep); err != nil {
		t.Fatal(err)
	}
	parallel := 0
	for _, r := range rep.Rows {
		if r.Procs > 0 {
			parallel++
		}
	}
	if len(rep.Rows) != 9 || parallel != 6 {
		t.Fatalf("-run selected %d rows, %d parallel; want 9 (3 serial, 3 parallel at -cpu 1,2)", len(rep.Rows), parallel)
	}

	for _, file := range []string{"old.txt", "new.txt"} {
		out := runPoolkit("benchfmt", file)
		checkParse(t, file, out, len(rep.Rows), parallel)
	}

	// benchstat old.txt new.txt: one table per unit (a second
	// configuration header would mean two tables), and in each every
	// benchmark has a summary in both columns and a comparison.
	// go tool runs this module's benchstat (the tool line of its go.mod),
	// so it runs here; label=path names the columns old.txt and new.txt.
	cmd := exec.Command("go", "tool", "benchstat", "-format", "csv",
		"old.txt="+filepath.Join(dir, "old.txt"), "new.txt="+filepath.Join(dir, "new.txt"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, stderr.String())
	}
	tables := parseBenchstatCSV(t, out)
	for _, unit := range units {
		rows, ok := tables[unit]
		if !ok {
			t.Errorf("benchstat has no %s table:\n%s", unit, out)
			continue
		}
		if len(rows) != len(rep.Rows) {
			t.Errorf("benchstat's %s table has %d rows, want %d:\n%s", unit, len(rows), len(rep.Rows), out)
		}
		for name, rec := range rows {
			// name, old, CI, new, CI, vs base, P
			if len(rec) != 7 || rec[1] == "" || rec[3] == "" || rec[5] == "" {
				t.Errorf("benchstat's %s row %s does not compare old with new: %q", unit, name, rec)
			}
		}
	}
	if strings.Contains(stderr.String(), "vary") {
		t.Errorf("benchstat warns that the runs do not pair up:\n%s", stderr.String())
	}
}

// checkParse reads out with benchfmt: no syntax errors, the configuration
// keys, one result per run of every row (names with a variant key, and
// GOMAXPROCS on the parallel rows), and every unit on every line.
func checkParse(t *testing.T, file string, out []byte, rows, parallel int) {
	t.Helper()
	r := benchfmt.NewReader(bytes.NewReader(out), file)
	names := map[string]int{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("%v", rec)
		case *benchfmt.Result:
			for _, key := range []string{"goos", "goarch", "cpu", "pkg", "go", "clock"} {
				if rec.GetConfig(key) == "" {
					t.Errorf("%s: %s has no %s configuration", file, rec.Name, key)
				}
			}
			base, parts := rec.Name.Parts()
			if len(base) == 0 || len(parts) == 0 || !bytes.HasPrefix(parts[0], []byte("/variant=")) {
				t.Errorf("%s: name %s is not Name/variant=...", file, rec.Name)
			}
			for _, unit := range units {
				if _, ok := rec.Value(unit); !ok {
					t.Errorf("%s: %s has no %s", file, rec.Name, unit)
				}
			}
			if rec.Iters < 1 {
				t.Errorf("%s: %s ran %d iterations", file, rec.Name, rec.Iters)
			}
			names[rec.Name.String()]++
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	withProcs := 0
	for name, n := range names {
		if n != 2 {
			t.Errorf("%s: %d results for %s, want one per run (-count 2)", file, n, name)
		}
		if _, parts := benchfmt.Name(name).Parts(); len(parts) == 2 && strings.HasPrefix(string(parts[1]), "-") {
			withProcs++
		}
	}
	if len(names) != rows || withProcs != parallel {
		t.Errorf("%s: %d benchmarks, %d with GOMAXPROCS; want %d, %d", file, len(names), withProcs, rows, parallel)
	}
	if m := r.Units().Get("cold-allocs/op", "assume"); m == nil || m.Value != "exact" {
		t.Errorf("%s: cold-allocs/op is not marked exact: %v", file, m)
	}
}

// parseBenchstatCSV returns benchstat -format csv's tables by unit, each
// by benchmark name. It fails if the configuration header repeats, which
// means the results were split into tables that do not compare.
func parseBenchstatCSV(t *testing.T, out []byte) map[string]map[string][]string {
	t.Helper()
	if n := bytes.Count(out, []byte("\ngoos: ")) + bytes.Count(out[:min(len(out), 5)], []byte("goos:")); n != 1 {
		t.Fatalf("benchstat printed %d configuration headers, want 1:\n%s", n, out)
	}
	tables := map[string]map[string][]string{}
	var unit string
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" || !strings.Contains(line, ",") {
			unit = "" // a blank line ends a table; configuration lines come before
			continue
		}
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			t.Fatalf("benchstat csv line %q: %v", line, err)
		}
		switch {
		case rec[0] == "" && len(rec) > 1 && rec[1] == "old.txt":
			// The file header of a table; its unit comes next.
		case rec[0] == "" && len(rec) > 1:
			unit = rec[1]
			tables[unit] = map[string][]string{}
		case unit != "" && rec[0] != "geomean":
			tables[unit][rec[0]] = rec
		}
	}
	return tables
}
