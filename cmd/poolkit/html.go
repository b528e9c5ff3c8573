package main

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"os"
	"strings"
	"unicode"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/workloads"
)

// writeHTMLFile writes the report as one self-contained HTML page: the
// chart of speed-ups as inline SVG, then the table, with no external
// scripts, styles or fonts.
func writeHTMLFile(name string, rep *report) error {
	var b bytes.Buffer
	writeHTML(&b, rep)
	if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing -html page: %w", err)
	}
	return nil
}

const pageStyle = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.4em;margin-bottom:.2em}.env{color:#555;margin-top:0}
table{border-collapse:collapse;margin:1em 0;font-variant-numeric:tabular-nums}
th,td{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{background:#f4f4f4;position:sticky;top:0}td.l,th.l{text-align:left}
tr.g td{border-top:2px solid #999}td.pub{color:#666;background:#fafafa}
.naive{color:#666}.err{color:#b00}.notes{color:#444;font-size:.92em}
svg text{font:12px system-ui,-apple-system,"Segoe UI",sans-serif;fill:#222}
svg .axis{stroke:#bbb}svg .base{stroke:#444;stroke-width:1.5}
svg .grp{font-weight:600}`

// htmlText escapes s for an HTML page: its markup characters as
// entities, and, so that a page shown as text in a terminal carries no
// commands, every character that is not printable as a numeric reference.
func htmlText(s string) string {
	s = html.EscapeString(s)
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "&#x%x;", r)
		}
	}
	return b.String()
}

func writeHTML(b *bytes.Buffer, rep *report) {
	e := rep.Env
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>poolkit bench — %s</title>\n<style>%s</style></head><body>\n",
		htmlText(e.CPU), pageStyle)
	b.WriteString("<h1>poolkit bench: pooling, measured on this machine</h1>\n")
	fmt.Fprintf(b, "<p class=\"env\">%s %s/%s · %s · %d CPUs, GOMAXPROCS=%d · -count %d -benchtime %s -clock %s · %s · took %s</p>\n",
		htmlText(e.GoVersion), htmlText(e.GOOS), htmlText(e.GOARCH), htmlText(e.CPU), e.NumCPU, e.GOMAXPROCS,
		e.Count, htmlText(e.Benchtime), htmlText(e.Clock), htmlText(e.Date), htmlText(rep.Elapsed))
	if rep.Interrupted {
		b.WriteString("<p class=\"err\"><b>Interrupted:</b> the page shows the runs completed so far.</p>\n")
	}
	b.WriteString("<h2>Speed-up over the naive version</h2>\n")
	b.WriteString("<p>Each bar is one pooled version's speed-up over the same workload's naive version, measured in the same run (log scale; bars to the left of 1× are slower than naive). ◆ marks the speed-up the article published, measured on its author's machine.</p>\n")
	writeChart(b, rep)
	b.WriteString("<h2>Table</h2>\n")
	writeHTMLTable(b, rep)
	b.WriteString("</body></html>\n")
}

type chartBar struct {
	label    string
	variant  string
	speed    float64
	pub      float64
	group    string
	newGroup bool
}

func writeChart(b *bytes.Buffer, rep *report) {
	var bars []chartBar
	lo, hi := 0.5, 2.0
	prev := ""
	for _, r := range rep.Rows {
		if r.Variant == string(workloads.Naive) || r.Speedup <= 0 {
			continue
		}
		g := r.Workload
		if r.Procs > 0 {
			g += fmt.Sprintf(" (GOMAXPROCS=%d)", r.Procs)
		}
		cb := chartBar{label: r.Label, variant: r.Variant, speed: r.Speedup, group: g, newGroup: g != prev}
		prev = g
		if r.Published != nil && r.Published.Speedup > 0 {
			cb.pub = r.Published.Speedup
			lo, hi = min(lo, cb.pub), max(hi, cb.pub)
		}
		lo, hi = min(lo, cb.speed), max(hi, cb.speed)
		bars = append(bars, cb)
	}
	if len(bars) == 0 {
		b.WriteString("<p>No speed-ups to chart: no pooled row ran beside its naive row.</p>\n")
		return
	}
	// Axis from a power of two below the smallest value to one above the
	// largest.
	minExp := math.Floor(math.Log2(lo))
	maxExp := math.Ceil(math.Log2(hi))
	const (
		labelW = 330
		plotW  = 560
		rightW = 70
		rowH   = 22
		groupH = 24
		top    = 28
	)
	x := func(v float64) float64 {
		return labelW + (math.Log2(v)-minExp)/(maxExp-minExp)*plotW
	}
	height := top + 10
	for _, cb := range bars {
		if cb.newGroup {
			height += groupH
		}
		height += rowH
	}
	height += 30
	width := labelW + plotW + rightW
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"speed-ups over naive\">\n",
		width, height, width, height)
	// Grid and axis labels at powers of two.
	for ex := minExp; ex <= maxExp; ex++ {
		v := math.Exp2(ex)
		px := x(v)
		cls := "axis"
		if ex == 0 {
			cls = "base"
		}
		fmt.Fprintf(b, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", cls, px, top-6, px, height-26)
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s×</text>\n", px, top-10, axisLabel(v))
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s×</text>\n", px, height-10, axisLabel(v))
	}
	y := top + 4
	for _, cb := range bars {
		if cb.newGroup {
			fmt.Fprintf(b, "<text class=\"grp\" x=\"4\" y=\"%d\">%s</text>\n", y+groupH-8, htmlText(cb.group))
			y += groupH
		}
		color := "#2f6fb3" // poolkit
		if cb.variant == string(workloads.Seed) {
			color = "#e08a2c"
		}
		fmt.Fprintf(b, "<text x=\"16\" y=\"%d\">%s</text>\n", y+15, htmlText(cb.label))
		x0, x1 := x(1), x(cb.speed)
		if x1 < x0 {
			x0, x1 = x1, x0
		}
		fmt.Fprintf(b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s: %s</title></rect>\n",
			x0, y+4, math.Max(x1-x0, 1), rowH-8, color, htmlText(cb.group), htmlText(cb.label), fmtSpeed(cb.speed))
		tx := x(cb.speed) + 6
		anchor := "start"
		if cb.speed < 1 {
			tx = x(cb.speed) - 6
			anchor = "end"
		}
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>\n", tx, y+15, anchor, fmtSpeed(cb.speed))
		if cb.pub > 0 {
			px, py := x(cb.pub), float64(y)+rowH/2
			fmt.Fprintf(b, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"#fff\" stroke=\"#111\" stroke-width=\"1.5\"><title>published: %s</title></path>\n",
				px, py-5, fmtSpeed(cb.pub))
		}
		y += rowH
	}
	b.WriteString("</svg>\n")
	b.WriteString(`<p><svg width="14" height="10"><rect width="14" height="10" fill="#e08a2c"/></svg> the article's pooled pattern &nbsp;
<svg width="14" height="10"><rect width="14" height="10" fill="#2f6fb3"/></svg> poolkit &nbsp;
<svg width="12" height="12"><path d="M6 1l5 5l-5 5l-5 -5z" fill="#fff" stroke="#111" stroke-width="1.5"/></svg> published speed-up</p>` + "\n")
}

func axisLabel(v float64) string {
	if v >= 1 {
		return fmt.Sprintf("%g", v)
	}
	return fmt.Sprintf("1/%g", 1/v)
}

func writeHTMLTable(b *bytes.Buffer, rep *report) {
	head, lines, notes := tableCells(rep)
	b.WriteString("<table>\n<tr>")
	for i, h := range head {
		cls := ""
		if tableColumns[i].text {
			cls = " class=\"l\""
		}
		fmt.Fprintf(b, "<th%s>%s</th>", cls, htmlText(h))
	}
	b.WriteString("</tr>\n")
	measured := 0
	for _, col := range tableColumns {
		if col.measured {
			measured++
		}
	}
	prev := ""
	for i, c := range lines {
		r := rep.Rows[i]
		g := r.Workload + fmt.Sprint(r.Procs)
		var cls []string
		if g != prev && i > 0 {
			cls = append(cls, "g")
		}
		prev = g
		if r.Variant == string(workloads.Naive) {
			cls = append(cls, "naive")
		}
		fmt.Fprintf(b, "<tr class=\"%s\">", strings.Join(cls, " "))
		for j, s := range c {
			col := tableColumns[j]
			attr := ""
			switch {
			case col.text:
				attr = " class=\"l\""
			case col.pub:
				attr = " class=\"pub\""
			}
			if r.Error != "" && col.measured {
				// The error spans the measured columns.
				if j > 0 && tableColumns[j-1].measured {
					continue
				}
				attr = fmt.Sprintf(" class=\"l err\" colspan=\"%d\"", measured)
			}
			fmt.Fprintf(b, "<td%s>%s</td>", attr, htmlText(s))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n<div class=\"notes\">\n")
	fmt.Fprintf(b, "<p>%s</p>\n", htmlText(legend(true)))
	for i, n := range notes {
		fmt.Fprintf(b, "<p>[%d] %s</p>\n", i+1, htmlText(n))
	}
	if srcs := sources(rep); len(srcs) > 0 {
		b.WriteString("<p>Published figures:</p><ul>\n")
		for _, s := range srcs {
			fmt.Fprintf(b, "<li>%s</li>\n", htmlText(s))
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("</div>\n")
}
