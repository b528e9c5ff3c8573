package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/numfmt"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/workloads"
)

// report is what poolkit bench measured, in the shape every output format
// is written from.
type report struct {
	Env         env         `json:"env"`
	Rows        []reportRow `json:"rows"`
	Interrupted bool        `json:"interrupted,omitempty"`
	Elapsed     string      `json:"elapsed"`
}

type env struct {
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Count      int    `json:"count"`
	Benchtime  string `json:"benchtime"`
	Clock      string `json:"clock"` // wall or cpu: what ns_per_op measures
	CPUList    []int  `json:"cpu_list"`
	Date       string `json:"date"`
}

type reportRow struct {
	Workload string `json:"workload"`
	Variant  string `json:"variant"`
	Name     string `json:"name,omitempty"`
	Label    string `json:"label"`
	Parallel bool   `json:"parallel,omitempty"`
	Procs    int    `json:"procs,omitempty"` // GOMAXPROCS, parallel rows only

	Runs        int       `json:"runs"`
	NsPerOp     float64   `json:"ns_per_op"`       // median of the runs
	NsSpreadPct float64   `json:"ns_spread_pct"`   // largest deviation of a run from the median, in percent
	NsRuns      []float64 `json:"ns_runs"`         // every run, in order
	AllocsPerOp float64   `json:"allocs_per_op"`   // median of the runs' exact means
	AllocsRuns  []float64 `json:"allocs_runs"`     // every run's exact mean
	BytesPerOp  float64   `json:"bytes_per_op"`    // median
	ColdAllocs  *uint64   `json:"cold_allocs"`     // allocations of a first call after GC emptied the pools
	Speedup     float64   `json:"speedup"`         // naive ns/op over this row's, same run; 0 when unknown
	WantAllocs  *float64  `json:"want_allocs"`     // what the poolkit package's tests assert
	Published   *pubRow   `json:"published"`       // the article's figure
	Footnote    string    `json:"footnote"`        // changes made to the article's code
	Error       string    `json:"error,omitempty"` // why the row stopped early

	// Per run, for -format benchfmt: the final N and the bytes per op.
	itersRuns []int
	bytesRuns []float64
}

type pubRow struct {
	NsPerOp     float64 `json:"ns_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	Speedup     float64 `json:"speedup,omitempty"` // the article's naive over this, 0 when it has no naive figure
	Source      string  `json:"source"`
}

func buildReport(rows []*row, cfg *benchConfig, elapsed time.Duration) *report {
	rep := &report{
		Env: env{
			GoVersion:  runtime.Version(),
			GOOS:       runtime.GOOS,
			GOARCH:     runtime.GOARCH,
			CPU:        cpuModel(),
			NumCPU:     runtime.NumCPU(),
			GOMAXPROCS: runtime.GOMAXPROCS(0),
			Count:      cfg.count,
			Benchtime:  cfg.benchtime,
			Clock:      cfg.clock,
			CPUList:    cfg.cpus,
			Date:       time.Now().UTC().Format("2006-01-02 15:04 MST"),
		},
		Elapsed: elapsed.Round(time.Second).String(),
	}
	naive := map[string]*row{}
	for _, r := range rows {
		if r.c.Variant == workloads.Naive {
			naive[r.group()] = r
		}
	}
	for _, r := range rows {
		rr := reportRow{
			Workload: r.c.Workload,
			Variant:  string(r.c.Variant),
			Name:     r.c.Name,
			Label:    r.c.Label(),
			Parallel: r.c.Parallel,
			Procs:    r.procs,
			Runs:     len(r.ns),
			NsRuns:   r.ns,
			Footnote: r.c.Footnote,

			itersRuns: r.iters,
			bytesRuns: r.bytes,
		}
		if rr.NsRuns == nil {
			rr.NsRuns = []float64{}
		}
		rr.AllocsRuns = r.allocs
		if rr.AllocsRuns == nil {
			rr.AllocsRuns = []float64{}
		}
		if r.err != nil {
			rr.Error = r.err.Error()
		}
		if r.coldDone && r.err == nil {
			cold := r.cold
			rr.ColdAllocs = &cold
		}
		if r.c.WantAllocs >= 0 {
			w := r.c.WantAllocs
			rr.WantAllocs = &w
		}
		if len(r.ns) > 0 {
			rr.NsPerOp = median(r.ns)
			for _, v := range r.ns {
				rr.NsSpreadPct = max(rr.NsSpreadPct, 100*math.Abs(v-rr.NsPerOp)/rr.NsPerOp)
			}
			rr.AllocsPerOp = median(r.allocs)
			rr.BytesPerOp = median(r.bytes)
			if n := naive[r.group()]; n != nil && len(n.ns) > 0 {
				rr.Speedup = median(n.ns) / rr.NsPerOp
			}
		}
		if p := r.c.Published; p != nil {
			pr := &pubRow{NsPerOp: p.NsPerOp, AllocsPerOp: p.AllocsPerOp, Source: p.Source}
			if n := naive[r.group()]; n != nil && n.c.Published != nil && p.NsPerOp > 0 {
				pr.Speedup = n.c.Published.NsPerOp / p.NsPerOp
			}
			rr.Published = pr
		}
		rep.Rows = append(rep.Rows, rr)
	}
	return rep
}

// cpuModel returns the processor's model name where the system says it.
func cpuModel() string {
	if runtime.GOOS == "linux" {
		if f, err := os.Open("/proc/cpuinfo"); err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
					return strings.TrimSpace(v)
				}
			}
		}
	}
	return "unknown " + runtime.GOARCH + " CPU"
}

func writeReport(w io.Writer, rep *report, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	case "csv":
		return writeCSV(w, rep)
	case "benchfmt":
		return writeBenchfmt(w, rep)
	case "markdown":
		return writeTable(w, rep, true)
	default:
		return writeTable(w, rep, false)
	}
}

// Formatting of the cells.

func fmtNs(v float64) string {
	switch {
	case v == 0:
		return "-"
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
}

func fmtSpeed(v float64) string {
	if v == 0 {
		return "-"
	}
	if v >= 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + "x"
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "x"
}

// A column of the text, markdown and HTML table.
type column struct {
	head     string
	text     bool // a text column, left-aligned; the others hold numbers, right-aligned
	measured bool // measured here: an error or "not run" takes the place of these
	pub      bool // the article's figure: the text table draws "|" before these
}

// The heads of the table's columns; cells are set by these names.
const (
	colWorkload   = "workload"
	colVariant    = "variant"
	colProcs      = "P"
	colNs         = "ns/op"
	colSpread     = "±"
	colAllocs     = "allocs/op"
	colCold       = "cold"
	colBytes      = "B/op"
	colSpeedup    = "speed-up"
	colPubNs      = "pub ns/op"
	colPubAllocs  = "pub allocs"
	colPubSpeedup = "pub speed-up"
)

// tableColumns are the table's columns, in order.
var tableColumns = []column{
	{head: colWorkload, text: true},
	{head: colVariant, text: true},
	{head: colProcs},
	{head: colNs, measured: true},
	{head: colSpread, measured: true},
	{head: colAllocs, measured: true},
	{head: colCold, measured: true},
	{head: colBytes, measured: true},
	{head: colSpeedup, measured: true},
	{head: colPubNs, pub: true},
	{head: colPubAllocs, pub: true},
	{head: colPubSpeedup, pub: true},
}

// cells is one line of the table, in the order of tableColumns.
type cells []string

func newCells() cells { return make(cells, len(tableColumns)) }

// set puts v in the column whose head is head.
func (c cells) set(head, v string) {
	for i, col := range tableColumns {
		if col.head == head {
			c[i] = v
			return
		}
	}
	panic("poolkit: no table column " + head)
}

// tableCells returns the header and the cells of the table, one line per
// row of rep, with footnote markers; notes are the footnotes in order.
func tableCells(rep *report) (head []string, lines []cells, notes []string) {
	for _, col := range tableColumns {
		head = append(head, col.head)
	}
	noteIndex := map[string]int{}
	for _, r := range rep.Rows {
		label := r.Label
		if r.Footnote != "" {
			i, ok := noteIndex[r.Footnote]
			if !ok {
				notes = append(notes, r.Footnote)
				i = len(notes)
				noteIndex[r.Footnote] = i
			}
			label += fmt.Sprintf(" [%d]", i)
		}
		c := newCells()
		c.set(colWorkload, r.Workload)
		c.set(colVariant, label)
		if r.Procs > 0 {
			c.set(colProcs, strconv.Itoa(r.Procs))
		}
		switch {
		case r.Error != "":
			c.set(colNs, "error: "+r.Error)
		case r.Runs == 0:
			c.set(colNs, "not run")
		default:
			cold := "-"
			if r.ColdAllocs != nil {
				cold = strconv.FormatUint(*r.ColdAllocs, 10)
			}
			speed := fmtSpeed(r.Speedup)
			if r.Variant == string(workloads.Naive) {
				speed = "base"
			}
			c.set(colNs, fmtNs(r.NsPerOp))
			c.set(colSpread, fmt.Sprintf("%.0f%%", r.NsSpreadPct))
			c.set(colAllocs, numfmt.Allocs(r.AllocsPerOp))
			c.set(colCold, cold)
			c.set(colBytes, strconv.FormatFloat(r.BytesPerOp, 'f', 0, 64))
			c.set(colSpeedup, speed)
		}
		if p := r.Published; p != nil {
			ps := fmtSpeed(p.Speedup)
			if r.Variant == string(workloads.Naive) {
				ps = "base"
			}
			c.set(colPubNs, fmtNs(p.NsPerOp))
			c.set(colPubAllocs, numfmt.Allocs(p.AllocsPerOp))
			c.set(colPubSpeedup, ps)
		} else {
			c.set(colPubNs, "-")
			c.set(colPubAllocs, "-")
			c.set(colPubSpeedup, "-")
		}
		lines = append(lines, c)
	}
	return head, lines, notes
}

func writeTable(w io.Writer, rep *report, markdown bool) error {
	bw := bufio.NewWriter(w)
	e := rep.Env
	header := fmt.Sprintf("poolkit bench: %s %s/%s, %s, %d CPUs, GOMAXPROCS=%d; -count %d -benchtime %s -clock %s; %s; took %s",
		e.GoVersion, e.GOOS, e.GOARCH, e.CPU, e.NumCPU, e.GOMAXPROCS, e.Count, e.Benchtime, e.Clock, e.Date, rep.Elapsed)
	if markdown {
		fmt.Fprintf(bw, "_%s_\n\n", header)
	} else {
		fmt.Fprintln(bw, header)
		fmt.Fprintln(bw)
	}
	if rep.Interrupted {
		fmt.Fprintln(bw, "INTERRUPTED: the table shows the runs completed so far.")
		fmt.Fprintln(bw)
	}
	head, lines, notes := tableCells(rep)
	if markdown {
		bw.WriteString("| " + strings.Join(head, " | ") + " |\n|")
		for _, col := range tableColumns {
			if col.text {
				bw.WriteString("---|")
			} else {
				bw.WriteString("---:|")
			}
		}
		bw.WriteString("\n")
		for _, c := range lines {
			bw.WriteString("| " + strings.Join(c, " | ") + " |\n")
		}
	} else {
		width := make([]int, len(head))
		for i, h := range head {
			width[i] = len(h)
		}
		for _, c := range lines {
			for i, s := range c {
				width[i] = max(width[i], len([]rune(s)))
			}
		}
		line := func(c []string) {
			var sb strings.Builder
			for i, s := range c {
				col := tableColumns[i]
				if i > 0 {
					sb.WriteString("  ")
				}
				if col.pub && !tableColumns[i-1].pub {
					sb.WriteString("| ")
				}
				pad := strings.Repeat(" ", width[i]-len([]rune(s)))
				if col.text {
					sb.WriteString(s + pad)
				} else {
					sb.WriteString(pad + s)
				}
			}
			bw.WriteString(strings.TrimRight(sb.String(), " ") + "\n")
		}
		line(head)
		prev := ""
		for i, c := range lines {
			if g := rep.Rows[i].Workload + strconv.Itoa(rep.Rows[i].Procs); g != prev && i > 0 {
				bw.WriteString("\n")
			}
			prev = rep.Rows[i].Workload + strconv.Itoa(rep.Rows[i].Procs)
			line(c)
		}
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw, legend(markdown))
	if len(notes) > 0 {
		fmt.Fprintln(bw)
		for i, n := range notes {
			fmt.Fprintf(bw, "[%d] %s\n", i+1, n)
		}
	}
	srcs := sources(rep)
	if len(srcs) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, "Published figures:")
		for _, s := range srcs {
			if markdown {
				fmt.Fprintf(bw, "- %s\n", s)
			} else {
				fmt.Fprintf(bw, "  %s\n", s)
			}
		}
	}
	return bw.Flush()
}

func legend(markdown bool) string {
	s := `P: GOMAXPROCS of a parallel (b.RunParallel) row. ns/op: median of the runs (wall time per op, or with -clock cpu
the process's CPU time per op, summed over its threads); ±: largest deviation of a run from the median.
allocs/op: steady-state allocations per op, exact (not truncated to an integer as -benchmem does): the
difference between a run's last two trials over the difference of their N, so what a trial pays once
(refilling pools after the GC testing forces before it) cancels; median of runs. cold: allocations of one
call made after two GCs emptied every sync.Pool. speed-up: the naive row's ns/op over this row's, same run.
pub: the article's figures, measured on its author's machine and Go version, so compare their ratios, not their ns.`
	if markdown {
		return strings.ReplaceAll(s, "\n", " ")
	}
	return s
}

// sources lists each published figure's source once, with the rows it
// belongs to.
func sources(rep *report) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rep.Rows {
		if r.Published == nil {
			continue
		}
		s := r.Workload + " / " + r.Label + ": " + r.Published.Source
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// csvColumns are the columns of -format csv, in order.
var csvColumns = []string{"workload", "variant", "name", "procs", "runs", "ns_per_op", "ns_spread_pct", "allocs_per_op",
	"bytes_per_op", "cold_allocs", "speedup", "want_allocs", "pub_ns_per_op", "pub_allocs_per_op", "pub_speedup",
	"pub_source", "footnote", "error"}

func writeCSV(w io.Writer, rep *report) error {
	cw := csv.NewWriter(w)
	cw.Write(csvColumns)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, r := range rep.Rows {
		rec := map[string]string{
			"workload": r.Workload, "variant": r.Variant, "name": r.Name,
			"procs": strconv.Itoa(r.Procs), "runs": strconv.Itoa(r.Runs),
			"ns_per_op": f(r.NsPerOp), "ns_spread_pct": f(r.NsSpreadPct),
			"allocs_per_op": f(r.AllocsPerOp), "bytes_per_op": f(r.BytesPerOp), "speedup": f(r.Speedup),
			"footnote": r.Footnote, "error": r.Error,
		}
		if r.ColdAllocs != nil {
			rec["cold_allocs"] = strconv.FormatUint(*r.ColdAllocs, 10)
		}
		if r.WantAllocs != nil {
			rec["want_allocs"] = f(*r.WantAllocs)
		}
		if p := r.Published; p != nil {
			rec["pub_ns_per_op"], rec["pub_allocs_per_op"], rec["pub_speedup"], rec["pub_source"] =
				f(p.NsPerOp), f(p.AllocsPerOp), f(p.Speedup), p.Source
		}
		line := make([]string, len(csvColumns))
		for i, col := range csvColumns {
			line[i] = rec[col]
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}
