package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/workloads"
	"github.com/poolkit/poolkit/internal/check"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/race"
)

// TestBench runs the whole table with a tiny -benchtime and checks its
// shape, and that every poolkit row allocates what its package's tests
// assert.
//
// The runs are counted (2000x), not timed: on a loaded machine a timed run
// can end after a handful of iterations, and then a pool's first object
// on each P weighs a whole allocation per operation; over 2000 iterations
// it weighs less than the 0.005 the comparison allows.
//
// The garbage collector is off while it runs: every collection empties the
// pools, and the refills would add a fraction of an allocation per
// operation that depends on the heap size, not on the code. (The table
// shows those fractions, as they are part of the cost; this test checks
// the steady-state claims.) testing.Benchmark still collects once before
// each run, which sync.Pool's victim cache absorbs. Serial cases run at
// GOMAXPROCS=1 for the same reason: a goroutine that moves to another P
// between Put and Get misses the object Put left in the first P's private
// slot, and on a busy machine that happens at random.
func TestBench(t *testing.T) {
	pooltest.PinGC(t)
	cfg, err := parseBenchFlags([]string{"-count", "1", "-benchtime", "2000x", "-cpu", "1,2", "-progress=false"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := bench(context.Background(), cfg, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	cases := workloads.All()
	want := 0
	for _, c := range cases {
		if c.Parallel {
			want += 2 // -cpu 1,2
		} else {
			want++
		}
	}
	if len(rep.Rows) != want {
		t.Fatalf("table has %d rows, want %d (one per serial case, one per parallel case and -cpu value)", len(rep.Rows), want)
	}
	groups := map[string]bool{}
	for _, r := range rep.Rows {
		id := r.Workload + "/" + r.Label
		if r.Error != "" {
			t.Errorf("%s: %s", id, r.Error)
			continue
		}
		if r.Runs != 1 || r.NsPerOp <= 0 || math.IsNaN(r.NsPerOp) || r.ColdAllocs == nil {
			t.Errorf("%s: runs=%d ns/op=%v cold=%v, want one run with a positive time and a cold count", id, r.Runs, r.NsPerOp, r.ColdAllocs)
		}
		if r.Parallel != (r.Procs > 0) {
			t.Errorf("%s: parallel=%v but P=%d", id, r.Parallel, r.Procs)
		}
		if r.Variant == string(workloads.Naive) {
			groups[r.Workload+"/"+string(rune('0'+r.Procs))] = true
			if math.Abs(r.Speedup-1) > 1e-9 {
				t.Errorf("%s: naive speed-up %v, want 1", id, r.Speedup)
			}
		}
		if r.Speedup <= 0 {
			t.Errorf("%s: no speed-up computed", id)
		}
		if r.WantAllocs != nil && !race.Enabled && !check.Enabled {
			// Equal to two decimals: what is left beside the claim is
			// warm-up (a pool's first object on each P).
			if math.Abs(r.AllocsPerOp-*r.WantAllocs) >= 0.005 {
				t.Errorf("%s: measured %v allocs/op, its package's tests assert %v", id, r.AllocsPerOp, *r.WantAllocs)
			}
		}
	}
	for _, r := range rep.Rows {
		if !groups[r.Workload+"/"+string(rune('0'+r.Procs))] {
			t.Errorf("%s/%s: no naive row at P=%d to compare with", r.Workload, r.Label, r.Procs)
		}
	}

	// Every format writes every row.
	var text bytes.Buffer
	if err := writeReport(&text, rep, "text"); err != nil {
		t.Fatal(err)
	}
	head := regexp.MustCompile(`(?m)^workload +variant +P +ns/op +± +allocs/op +cold +B/op +speed-up +\| +pub ns/op +pub allocs +pub speed-up$`)
	if !head.Match(text.Bytes()) {
		t.Errorf("text table has no header line:\n%s", text.String())
	}
	for _, r := range rep.Rows {
		if !strings.Contains(text.String(), r.Workload) {
			t.Errorf("text table lacks workload %q", r.Workload)
		}
	}
	var md bytes.Buffer
	if err := writeReport(&md, rep, "markdown"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(md.String(), "\n| "); n != len(rep.Rows)+1 {
		t.Errorf("markdown table has %d lines, want %d", n, len(rep.Rows)+1)
	}
	var c bytes.Buffer
	if err := writeReport(&c, rep, "csv"); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rep.Rows)+1 {
		t.Errorf("csv has %d records, want %d", len(recs), len(rep.Rows)+1)
	}
	var j bytes.Buffer
	if err := writeReport(&j, rep, "json"); err != nil {
		t.Fatal(err)
	}
	var back report
	if err := json.Unmarshal(j.Bytes(), &back); err != nil || len(back.Rows) != len(rep.Rows) {
		t.Errorf("json does not round-trip: %v, %d rows", err, len(back.Rows))
	}
	var bf bytes.Buffer
	if err := writeReport(&bf, rep, "benchfmt"); err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, l := range strings.Split(bf.String(), "\n") {
		if name, _, ok := strings.Cut(l, "\t"); ok && strings.HasPrefix(name, "Benchmark") {
			names[name]++
		}
	}
	if len(names) != len(rep.Rows) {
		t.Errorf("benchfmt names %d benchmarks, want one per row, %d:\n%s", len(names), len(rep.Rows), bf.String())
	}
	for name, n := range names {
		if n != 1 {
			t.Errorf("benchfmt has %d lines for %s, want one per run (-count 1)", n, name)
		}
	}
	var page bytes.Buffer
	writeHTML(&page, rep)
	p := page.String()
	if !strings.Contains(p, "<svg") || !strings.Contains(p, "</html>") {
		t.Error("html page lacks its chart")
	}
	if m := regexp.MustCompile(`(src|href)=|@import|url\(`).FindString(p); m != "" {
		t.Errorf("html page refers to an external asset (%s)", m)
	}
}

func TestBenchInterrupted(t *testing.T) {
	cfg, err := parseBenchFlags([]string{"-count", "1", "-benchtime", "1x", "-progress=false"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := bench(ctx, cfg, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted {
		t.Error("report not marked interrupted")
	}
	var out bytes.Buffer
	if err := writeReport(&out, rep, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "INTERRUPTED") || !strings.Contains(out.String(), "not run") {
		t.Errorf("interrupted table does not say so:\n%s", out.String())
	}
}

func TestBenchFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-count", "0"}, "-count must be at least 1"},
		{[]string{"-benchtime", "fast"}, `-benchtime: invalid duration "fast"`},
		{[]string{"-benchtime", "0x"}, `-benchtime: invalid count "0x"`},
		{[]string{"-cpu", "1,x"}, `-cpu: "x" is not a positive integer`},
		{[]string{"-format", "xml"}, `unknown format "xml"`},
		{[]string{"-clock", "sundial"}, `unknown clock "sundial"`},
		{[]string{"-run", "("}, "-run: error parsing regexp"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		_, err := parseBenchFlags(tc.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"bench", "-run", "^no such workload$"}, &bytes.Buffer{}, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "no case matches -run") {
		t.Errorf("bench -run with no match: exit %d, stderr %q", code, stderr.String())
	}
}
