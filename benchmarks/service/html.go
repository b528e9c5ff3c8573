package main

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"os"
	"strings"
)

// The HTML report: the text table, the goals, and four charts drawn as
// inline SVG (no script, nothing fetched), so the file opens anywhere.

var seriesColors = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2"}

// bar is one row of a chart: a value per series, and optionally the
// lowest and highest round of the first series.
type bar struct {
	label  string
	values []float64
	spread *[2]float64
}

// chart draws horizontal bars, one group per row, on a linear or a
// logarithmic axis.
func chart(title, unit string, series []string, rows []bar, logScale bool) string {
	const (
		left, right, top = 130, 60, 40
		width            = 760
		barH, gap        = 14, 10
	)
	groupH := barH*len(series) + gap
	height := top + groupH*len(rows) + 30
	maxV, minV := 0.0, math.Inf(1)
	for _, r := range rows {
		for _, v := range r.values {
			maxV = math.Max(maxV, v)
			if v > 0 {
				minV = math.Min(minV, v)
			}
		}
		if r.spread != nil {
			maxV = math.Max(maxV, r.spread[1])
		}
	}
	if maxV <= 0 {
		maxV = 1
	}
	lo := 0.0
	if logScale {
		lo = math.Pow(10, math.Floor(math.Log10(minV)))
		maxV = math.Pow(10, math.Ceil(math.Log10(maxV)))
	}
	plotW := float64(width - left - right)
	x := func(v float64) float64 {
		if logScale {
			if v <= lo {
				return left
			}
			return left + plotW*math.Log10(v/lo)/math.Log10(maxV/lo)
		}
		return left + plotW*v/maxV
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`, width, height)
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="15" font-weight="bold">%s</text>`, left, html.EscapeString(title))
	// Axis ticks.
	var ticks []float64
	if logScale {
		for t := lo; t <= maxV*1.001; t *= 10 {
			ticks = append(ticks, t)
		}
	} else {
		step := math.Pow(10, math.Floor(math.Log10(maxV/4)))
		for _, m := range []float64{1, 2, 5, 10} {
			if maxV/(step*m) <= 6 {
				step *= m
				break
			}
		}
		for t := 0.0; t <= maxV*1.001; t += step {
			ticks = append(ticks, t)
		}
	}
	for _, t := range ticks {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>`, x(t), x(t), top-6, height-28)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`, x(t), height-14, short(t))
	}
	fmt.Fprintf(&b, `<text x="%d" y="18" text-anchor="end" fill="#555">%s</text>`, width-4, html.EscapeString(unit))
	for i, r := range rows {
		y0 := top + i*groupH
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, left-8, y0+barH*len(series)/2+4, html.EscapeString(r.label))
		for j, v := range r.values {
			y := y0 + j*barH
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s: %s</title></rect>`,
				left, y, math.Max(x(v)-left, 0.5), barH-2, seriesColors[j%len(seriesColors)],
				html.EscapeString(r.label), html.EscapeString(series[j]), short(v))
			end := x(v)
			if j == 0 && r.spread != nil {
				end = math.Max(end, x(r.spread[1]))
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="#333">%s</text>`, end+4, y+barH-4, short(v))
		}
		if r.spread != nil && r.spread[1] > r.spread[0] {
			cy := y0 + (barH-2)/2
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#000"/>`, x(r.spread[0]), x(r.spread[1]), cy, cy)
			for _, e := range r.spread {
				fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#000"/>`, x(e), x(e), cy-4, cy+4)
			}
		}
	}
	if len(series) > 1 {
		for j, s := range series {
			fmt.Fprintf(&b, `<rect x="%d" y="26" width="10" height="10" fill="%s"/><text x="%d" y="35">%s</text>`,
				left+260+j*80, seriesColors[j%len(seriesColors)], left+274+j*80, html.EscapeString(s))
		}
	}
	b.WriteString("</svg>")
	return b.String()
}

// short formats a figure with three significant digits at most.
func short(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return fmt.Sprintf("%.3gM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.3gk", v/1e3)
	case a >= 100 || a == 0:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

func writeHTMLFile(name string, rep *report) error {
	var text bytes.Buffer
	if err := writeText(&text, rep); err != nil {
		return err
	}
	var cpu, allocs, maxRPS, lat []bar
	for _, name := range rep.order {
		v := rep.Variants[name]
		sp, mp := v.Spread["cpu_us_per_req"], v.Spread["max_rps"]
		cpu = append(cpu, bar{label: name, values: []float64{v.CPUus}, spread: &sp})
		allocs = append(allocs, bar{label: name, values: []float64{v.Allocs}})
		maxRPS = append(maxRPS, bar{label: name, values: []float64{v.MaxRPS}, spread: &mp})
		lat = append(lat, bar{label: name, values: []float64{v.P50, v.P90, v.P99, v.P999}})
	}
	rate := fmt.Sprintf("%.0f req/s", rep.FixedRate)
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>poolkit: whole service</title>\n")
	b.WriteString("<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}pre{font-size:12px;overflow-x:auto;background:#f6f6f6;padding:1em}svg{display:block;margin:1.5em 0}</style>\n")
	b.WriteString("</head><body>\n<h1>poolkit: one HTTP service, seven ways</h1>\n")
	fmt.Fprintf(&b, "<p>Medians of %d interleaved rounds; whiskers span the lowest and highest round. %s.</p>\n",
		rep.Rounds, html.EscapeString(rep.Pinning))
	b.WriteString(chart("Server CPU per request at "+rate, "µs/request", []string{"CPU"}, cpu, false))
	b.WriteString(chart("Latency at "+rate+" (open loop, log scale)", "ms", []string{"p50", "p90", "p99", "p99.9"}, lat, true))
	b.WriteString(chart("Heap allocations per request", "allocs/request", []string{"allocs"}, allocs, false))
	b.WriteString(chart("Maximum throughput (closed loop)", "req/s", []string{"req/s"}, maxRPS, false))
	fmt.Fprintf(&b, "<h2>Table</h2>\n<pre>%s</pre>\n</body></html>\n", html.EscapeString(text.String()))
	return os.WriteFile(name, []byte(b.String()), 0o644)
}
