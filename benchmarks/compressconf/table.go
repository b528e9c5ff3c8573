package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// rows are the table's rows, in the order printed.
var rows = slices.Concat(negotiationRows, headerRows, writerRows, statusRows, sizeTypeRows)

// probe returns m's column: whether it answers "Accept-Encoding: zstd"
// with zstd, which decides what the negotiation rows expect of it.
func probe(m middleware) *column {
	c := &column{m: m}
	s, err := serve(m, setup{}, bodyHandler("application/json", jsonBody(bigSize)))
	if err != nil {
		return c
	}
	defer s.close()
	r, err := s.get("GET", "Accept-Encoding", "zstd")
	c.zstd = err == nil && r.coding == "zstd"
	return c
}

// A table holds every middleware's result for every row.
type table struct {
	columns []*column
	cells   [][]result // [row][column]
}

// run checks every row against every middleware. Rows run side by side,
// a few at a time: most of a row's time is spent waiting, on loopback or
// on a streaming handler that waits for its client.
func run(ms []middleware) *table {
	t := &table{columns: make([]*column, len(ms)), cells: make([][]result, len(rows))}
	for i := range t.cells {
		t.cells[i] = make([]result, len(ms))
	}
	for j, m := range ms {
		t.columns[j] = probe(m)
	}
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for j, c := range t.columns {
		for i, r := range rows {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				t.cells[i][j] = r.check(c)
			})
		}
	}
	wg.Wait()
	return t
}

// cell is one result as the markdown table shows it.
func cell(r result) string {
	s := "pass"
	if !r.pass {
		s = "**FAIL**"
	}
	if r.note != "" {
		s += ": " + r.note
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// markdown writes the table, then what each row's pass means.
func (t *table) markdown(w io.Writer) {
	fmt.Fprint(w, "| behaviour |")
	for _, c := range t.columns {
		fmt.Fprintf(w, " %s |", c.m.name)
	}
	fmt.Fprint(w, "\n|---|")
	for range t.columns {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for i, r := range rows {
		fmt.Fprintf(w, "| %s |", r.name)
		for j := range t.columns {
			fmt.Fprintf(w, " %s |", cell(t.cells[i][j]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "| rows passed |")
	for j := range t.columns {
		n := 0
		for i := range rows {
			if t.cells[i][j].pass {
				n++
			}
		}
		fmt.Fprintf(w, " %d of %d |", n, len(rows))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "What passing means, row by row:")
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "- **%s**: %s.\n", r.name, r.pass)
	}
}
