package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// report is the outcome of a run; its JSON is the -format json output.
type report struct {
	FixedRate       float64 `json:"fixed_rate"`
	BodiesIdentical bool    `json:"bodies_identical"`
	// AcceptEncoding is what the load's requests send.
	AcceptEncoding string                    `json:"accept_encoding"`
	Variants       map[string]*variantReport `json:"variants"`

	Rates           []float64 `json:"rates"`
	Rounds          int       `json:"rounds"`
	PhaseSeconds    float64   `json:"phase_seconds"`
	MaxPhaseSeconds float64   `json:"closed_loop_phase_seconds"`
	Concurrency     int       `json:"closed_loop_concurrency"`
	Pinning         string    `json:"pinning"`
	GoVersion       string    `json:"go_version"`
	CPUs            int       `json:"cpus"`
	DB              bool      `json:"db"`
	RequestBytes    int       `json:"request_bytes"`
	ResponseBytes   int       `json:"response_bytes"`
	RequestStrings  float64   `json:"request_strings"`
	Goals           []goal    `json:"goals"`
	// AboveCompressFloor is, when compress-floor ran, each gzipping variant's CPU
	// per request above compress-floor's, at the first fixed rate and closed
	// loop: the part of a request's CPU that the variant's own code
	// decides.
	AboveCompressFloor map[string][2]float64 `json:"cpu_us_above_compress_floor,omitempty"`

	order []string
}

// variantReport holds one variant's figures: at the first fixed rate
// unless named otherwise, medians over the rounds.
type variantReport struct {
	// The figures at the first fixed rate; its spread is in Spread below,
	// which JSON shows in place of the embedded one.
	rateFigures
	MaxRPS float64 `json:"max_rps"`
	// MaxCPUus is the CPU per request in the closed-loop phases, where
	// the server never waits for work: no wake-up is part of it.
	MaxCPUus  float64 `json:"max_cpu_us_per_req"`
	RespBytes float64 `json:"resp_bytes"`
	LogPerReq float64 `json:"log_lines_per_req"`

	// Spread is each figure's lowest and highest round.
	Spread map[string][2]float64 `json:"spread"`
	// VsNaive and VsPeers are this variant's figures over naive's and
	// peers' (below 1 is better, but for max_rps).
	VsNaive map[string]float64 `json:"vs_naive,omitempty"`
	VsPeers map[string]float64 `json:"vs_peers,omitempty"`
	// AtRates has the figures at every fixed rate, the first one included.
	AtRates []rateFigures `json:"at_rates"`
	// Rounds are the raw phases: closed loop, then each fixed rate.
	ClosedLoop []phaseResult   `json:"closed_loop_rounds"`
	Fixed      [][]phaseResult `json:"fixed_rate_rounds"`
}

type rateFigures struct {
	Rate float64 `json:"rate"`
	serverCost
	P50         float64               `json:"p50_ms"`
	P90         float64               `json:"p90_ms"`
	P99         float64               `json:"p99_ms"`
	P999        float64               `json:"p999_ms"`
	AchievedRPS float64               `json:"achieved_rps"`
	Errors      int                   `json:"errors"`
	Spread      map[string][2]float64 `json:"spread"`
}

// goal is one of poolkit's targets (see goals), checked on this run.
type goal struct {
	Goal   string  `json:"goal"`
	Value  float64 `json:"value"`
	Target float64 `json:"target"`
	Met    bool    `json:"met"`
}

// variantRuns are one variant's raw phases.
type variantRuns struct {
	max   []phaseResult
	fixed [][]phaseResult // per rate, per round
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// figure extracts one figure from each round and returns its median and
// its lowest and highest value.
func figure(runs []phaseResult, f func(*phaseResult) float64) (float64, [2]float64) {
	xs := make([]float64, len(runs))
	for i := range runs {
		xs[i] = f(&runs[i])
	}
	return median(xs), [2]float64{slices.Min(xs), slices.Max(xs)}
}

func (rep *report) summarize(results map[string]*variantRuns) {
	for name, runs := range results {
		vr := &variantReport{Spread: map[string][2]float64{}, ClosedLoop: runs.max, Fixed: runs.fixed}
		var sp [2]float64
		vr.MaxRPS, sp = figure(runs.max, func(r *phaseResult) float64 { return r.RPS })
		vr.Spread["max_rps"] = sp
		vr.MaxCPUus, sp = figure(runs.max, func(r *phaseResult) float64 { return r.CPUus })
		vr.Spread["max_cpu_us_per_req"] = sp
		for i, rounds := range runs.fixed {
			rf := rateFigures{Rate: rep.Rates[i], Spread: map[string][2]float64{}}
			set := func(key string, dst *float64, f func(*phaseResult) float64) {
				*dst, sp = figure(rounds, f)
				rf.Spread[key] = sp
			}
			set("cpu_us_per_req", &rf.CPUus, func(r *phaseResult) float64 { return r.CPUus })
			set("allocs_per_req", &rf.Allocs, func(r *phaseResult) float64 { return r.Allocs })
			set("bytes_per_req", &rf.Bytes, func(r *phaseResult) float64 { return r.Bytes })
			set("gc_cycles_per_10k", &rf.GCPer10k, func(r *phaseResult) float64 { return r.GCPer10k })
			set("gc_cpu_fraction", &rf.GCFraction, func(r *phaseResult) float64 { return r.GCFraction })
			set("gc_cpu_share", &rf.GCShare, func(r *phaseResult) float64 { return r.GCShare })
			set("p50_ms", &rf.P50, func(r *phaseResult) float64 { return r.P50 })
			set("p90_ms", &rf.P90, func(r *phaseResult) float64 { return r.P90 })
			set("p99_ms", &rf.P99, func(r *phaseResult) float64 { return r.P99 })
			set("p999_ms", &rf.P999, func(r *phaseResult) float64 { return r.P999 })
			set("achieved_rps", &rf.AchievedRPS, func(r *phaseResult) float64 { return r.RPS })
			for _, r := range rounds {
				rf.Errors += r.Errors
			}
			vr.AtRates = append(vr.AtRates, rf)
		}
		if len(vr.AtRates) > 0 {
			f := vr.AtRates[0]
			vr.rateFigures = f
			for k, v := range f.Spread {
				vr.Spread[k] = v
			}
			vr.RespBytes, _ = figure(runs.fixed[0], func(r *phaseResult) float64 { return r.RespBytes })
			vr.LogPerReq, _ = figure(runs.fixed[0], func(r *phaseResult) float64 { return r.LogPerReq })
		}
		rep.Variants[name] = vr
	}
	ratios := func(v, base *variantReport) map[string]float64 {
		div := func(a, b float64) float64 {
			if b == 0 {
				return 0
			}
			return a / b
		}
		return map[string]float64{
			"cpu_us_per_req": div(v.CPUus, base.CPUus), "allocs_per_req": div(v.Allocs, base.Allocs),
			"bytes_per_req": div(v.Bytes, base.Bytes), "gc_cycles_per_10k": div(v.GCPer10k, base.GCPer10k),
			"p50_ms": div(v.P50, base.P50), "p99_ms": div(v.P99, base.P99), "p999_ms": div(v.P999, base.P999),
			"max_rps": div(v.MaxRPS, base.MaxRPS),
		}
	}
	naive, peers := rep.Variants["naive"], rep.Variants["peers"]
	for _, v := range rep.Variants {
		if naive != nil {
			v.VsNaive = ratios(v, naive)
		}
		if peers != nil {
			v.VsPeers = ratios(v, peers)
		}
	}
	rep.Goals = rep.goals()
	if f := rep.Variants["compress-floor"]; f != nil {
		rep.AboveCompressFloor = map[string][2]float64{}
		for name, v := range rep.Variants {
			if name != "empty" && name != "compress-floor" {
				rep.AboveCompressFloor[name] = [2]float64{v.CPUus - f.CPUus, v.MaxCPUus - f.MaxCPUus}
			}
		}
	}
}

// pairedRatio is the median over the rounds of a's CPU per request over
// b's at the first fixed rate, each round's two phases taken as a pair.
// The CPU goals use it rather than the ratio of the two medians: a noisy
// moment of the machine (another tenant, CPU time stolen from the VM)
// adds CPU to whichever phase it falls in, and a variant that runs longer
// per request catches more of them, which pulls its median up and the
// ratio of medians down. A pair is only as noisy as its worse phase, and
// the median of the pairs' ratios ignores up to half of the rounds noisy.
func pairedRatio(a, b *variantReport) float64 {
	var xs []float64
	if len(a.Fixed) == 0 || len(b.Fixed) == 0 {
		return 0
	}
	for i := range min(len(a.Fixed[0]), len(b.Fixed[0])) {
		if d := b.Fixed[0][i].CPUus; d > 0 {
			xs = append(xs, a.Fixed[0][i].CPUus/d)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	return median(xs)
}

// pairedAboveRatio is pairedRatio of a's and b's CPU per request above
// floor's, each round's three phases taken together.
func pairedAboveRatio(a, b, floor *variantReport) float64 {
	var xs []float64
	if len(a.Fixed) == 0 || len(b.Fixed) == 0 || len(floor.Fixed) == 0 {
		return 0
	}
	for i := range min(len(a.Fixed[0]), len(b.Fixed[0]), len(floor.Fixed[0])) {
		f := floor.Fixed[0][i].CPUus
		if d := b.Fixed[0][i].CPUus - f; d > 0 {
			xs = append(xs, (a.Fixed[0][i].CPUus-f)/d)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	return median(xs)
}

// goals checks poolkit's targets at the first fixed rate: against naive,
// and against peers for today's clients.
func (rep *report) goals() []goal {
	kit, naive, peers, empty := rep.Variants["poolkit"], rep.Variants["naive"], rep.Variants["peers"], rep.Variants["empty"]
	if kit == nil {
		return nil
	}
	var gs []goal
	add := func(text string, value, target float64, atMost bool) {
		met := value <= target
		if !atMost {
			met = value >= target
		}
		gs = append(gs, goal{Goal: text, Value: value, Target: target, Met: met})
	}
	if naive != nil {
		add("poolkit's CPU per request over naive's, at most", pairedRatio(kit, naive), 0.25, true)
	}
	if peers != nil {
		add("poolkit's CPU per request over peers', at most", pairedRatio(kit, peers), 0.85, true)
	}
	if naive != nil {
		add("poolkit's p99 over naive's, at most", kit.P99/naive.P99, 0.2, true)
	}
	if empty != nil {
		add("poolkit's allocations per request above empty's, at most", kit.Allocs-empty.Allocs, 25, true)
	}
	if naive != nil {
		add("poolkit's max req/s over naive's, at least", kit.MaxRPS/naive.MaxRPS, 3.5, false)
	}
	if peers != nil && empty != nil {
		add("poolkit's CPU per request above empty's over peers', at most", pairedAboveRatio(kit, peers, empty), 0.5, true)
	}
	if peers != nil {
		if peers.MaxCPUus > 0 {
			add("poolkit's closed-loop CPU per request over peers', at most", kit.MaxCPUus/peers.MaxCPUus, 0.7, true)
		}
		if peers.P99 > 0 {
			add("poolkit's p99 over peers', at most", kit.P99/peers.P99, 1.0, true)
		}
	}
	return gs
}

// ---- text ----

// dev is the largest deviation of a round from the median, in percent.
func dev(med float64, sp [2]float64) float64 {
	if med == 0 {
		return 0
	}
	return math.Max(med-sp[0], sp[1]-med) / med * 100
}

func withDev(format string, med float64, sp [2]float64) string {
	return fmt.Sprintf(format+" ±%.0f%%", med, dev(med, sp))
}

func writeText(w io.Writer, rep *report) error {
	fmt.Fprintf(w, "POST /orders: %d-byte order (%.1f strings), %d-byte receipt compressed for Accept-Encoding: %s, one access-log line; %s\n",
		rep.RequestBytes, rep.RequestStrings, rep.ResponseBytes, rep.AcceptEncoding, map[bool]string{true: "statements executed on the -dsn database", false: "statements interpolated, not executed (no -dsn)"}[rep.DB])
	fmt.Fprintf(w, "server processes: GOMAXPROCS=1, %s; %s, %d CPUs\n", rep.Pinning, rep.GoVersion, rep.CPUs)
	fmt.Fprintf(w, "%d rounds, variants interleaved; fixed-rate phases %gs, closed-loop phases (%d in flight) %gs, each after a warm-up;\n",
		rep.Rounds, rep.PhaseSeconds, rep.Concurrency, rep.MaxPhaseSeconds)
	fmt.Fprintf(w, "medians over the rounds, ± the largest deviation of a round from the median\n\n")

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for i, rate := range rep.Rates {
		fmt.Fprintf(tw, "at %.0f req/s\tCPU µs/req\tallocs/req\tbytes/req\tGC/10k req\tGC CPU\tp50 ms\tp90 ms\tp99 ms\tp99.9 ms\tmax req/s\tCPU vs naive\tvs peers\t\n", rate)
		for _, name := range rep.order {
			v := rep.Variants[name]
			f := v.AtRates[i]
			mark := ""
			if f.AchievedRPS < 0.95*rate || f.Errors > 0 {
				mark = fmt.Sprintf(" (behind: %.0f req/s, %d errors)", f.AchievedRPS, f.Errors)
			}
			vs := func(base *variantReport) string {
				if base == nil || base.AtRates[i].CPUus == 0 {
					return "-"
				}
				return fmt.Sprintf("%.2fx", f.CPUus/base.AtRates[i].CPUus)
			}
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t%s\t%.1f\t%.1f%%\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%s\t%s\n",
				name, withDev("%.1f", f.CPUus, f.Spread["cpu_us_per_req"]), f.Allocs, sizeOf(f.Bytes),
				f.GCPer10k, 100*f.GCFraction, f.P50, f.P90, f.P99, f.P999,
				withDev("%.0f", v.MaxRPS, v.Spread["max_rps"]),
				vs(rep.Variants["naive"]), vs(rep.Variants["peers"]), mark)
		}
		fmt.Fprintln(tw, "\t\t\t\t\t\t\t\t\t\t\t\t\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rep.Goals) > 0 {
		fmt.Fprintf(w, "goals, at %.0f req/s (CPU: the median of the rounds' ratios):\n", rep.FixedRate)
		for _, g := range rep.Goals {
			fmt.Fprintf(w, "  %-58s %8.2f  (target %g)  %s\n", g.Goal, g.Value, g.Target, map[bool]string{true: "met", false: "MISSED"}[g.Met])
		}
	}
	if above := rep.AboveCompressFloor; above != nil {
		kit, kok := above["poolkit"]
		peers, pok := above["peers"]
		if kok && pok {
			fmt.Fprintf(w, "\nCPU per request above compress-floor (net/http and compressing the same receipt): at %.0f req/s poolkit %.1f µs, peers %.1f µs (%.2fx); closed loop poolkit %.1f µs, peers %.1f µs (%.2fx)\n",
				rep.FixedRate, kit[0], peers[0], kit[0]/peers[0], kit[1], peers[1], kit[1]/peers[1])
		}
	}
	_, err := fmt.Fprint(w, `
CPU µs/req: the server process's user+system CPU (getrusage) over the requests of the phase;
allocs/req, bytes/req: heap allocations (runtime.MemStats, exact) per request; GC/10k req:
GC cycles per 10,000 requests; GC CPU: the runtime's GC CPU over the CPU time GOMAXPROCS
allowed (runtime/metrics /cpu/classes); p50..p99.9: latency seen by the load generator,
open loop at the fixed rate (no coordinated omission); max req/s: closed loop.
`)
	return err
}

func sizeOf(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f M", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f K", b/(1<<10))
	}
	return fmt.Sprintf("%.0f", b)
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x == 0 {
		return 0
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// ---- list parsing ----

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
