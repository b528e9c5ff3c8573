package main

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// poolkitFails lists the rows poolkit's middleware is known to fail, with
// why. TestConformance fails when poolkit fails a row not listed here, and
// also when a listed row passes, so that the list only ever shrinks: once
// the middleware behind the poolkit column passes a row, delete its line.
// Empty, the test asserts that poolkit passes every row.
var poolkitFails = map[string]string{}

// TestConformance runs the table. poolkit must pass every row but those
// in poolkitFails; a peer that fails rows is reported and skipped, since
// the table is there to show it. Run with -v to see the table.
func TestConformance(t *testing.T) {
	if zstdCmd == "" {
		if requireTools() {
			t.Fatal("Debian's zstd command is missing (POOLKIT_REQUIRE_TOOLS=1)")
		}
		t.Log("Debian's zstd command is missing: zstd bodies are checked by klauspost's decoder alone")
	}
	tab := run(middlewares)
	var md strings.Builder
	tab.markdown(&md)
	t.Log("\n" + md.String())

	for j, c := range tab.columns {
		t.Run(c.m.name, func(t *testing.T) {
			var failedRows []string
			for i, r := range rows {
				res := tab.cells[i][j]
				if c.m.name != "poolkit" {
					if !res.pass {
						failedRows = append(failedRows, r.name+" ("+res.note+")")
					}
					continue
				}
				why, known := poolkitFails[r.name]
				switch {
				case !res.pass && !known:
					t.Errorf("poolkit fails %q: %s", r.name, res.note)
				case res.pass && known:
					t.Errorf("poolkit now passes %q: delete it from poolkitFails (it said: %s)", r.name, why)
				}
			}
			if len(failedRows) > 0 {
				t.Skipf("fails %d of %d rows:\n\t%s", len(failedRows), len(rows), strings.Join(failedRows, "\n\t"))
			}
		})
	}
	for name := range poolkitFails {
		if rowIndex(name) < 0 {
			t.Errorf("poolkitFails names %q, which is no row", name)
		}
	}
}

func rowIndex(name string) int {
	for i, r := range rows {
		if r.name == name {
			return i
		}
	}
	return -1
}

func TestRowNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.name] {
			t.Errorf("two rows named %q", r.name)
		}
		seen[r.name] = true
		if r.pass == "" || r.check == nil {
			t.Errorf("row %q has no pass text or no check", r.name)
		}
	}
}

// careless is a compressing middleware with the mistakes the rows look
// for: it compresses whenever Accept-Encoding contains the coding's name
// as a substring (q-values, case and * ignored), whatever the method,
// status, type, size or existing Content-Encoding; it adds no Vary, keeps
// ETag and Accept-Ranges, sniffs nothing, and hides Flusher, Hijacker and
// Unwrap. Its zstd variant uses a 16 MiB window. It puts the same comment
// in every gzip header, which is padding that does not vary. With always,
// it compresses whatever Accept-Encoding says.
func careless(coding string, always bool) middleware {
	return middleware{name: "careless-" + coding, wrap: func(h http.Handler, _ setup) (http.Handler, error) {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !always && !strings.Contains(r.Header.Get("Accept-Encoding"), coding) {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Encoding", coding)
			var zw io.WriteCloser
			if coding == "zstd" {
				enc, err := zstd.NewWriter(w, zstd.WithWindowSize(16<<20))
				if err != nil {
					panic(err)
				}
				zw = enc
			} else {
				gw := gzip.NewWriter(w)
				gw.Comment = "padding"
				zw = gw
			}
			defer zw.Close()
			h.ServeHTTP(carelessWriter{w, zw}, r)
		}), nil
	}}
}

type carelessWriter struct {
	http.ResponseWriter
	zw io.Writer
}

func (c carelessWriter) WriteHeader(code int) {
	c.Header().Del("Content-Length")
	c.ResponseWriter.WriteHeader(code)
}

func (c carelessWriter) Write(p []byte) (int, error) {
	c.Header().Del("Content-Length")
	return c.zw.Write(p)
}

// TestRowsCatchMistakes checks the table's oracle: a careless middleware
// fails every row whose behaviour it gets wrong, and passes the rest.
func TestRowsCatchMistakes(t *testing.T) {
	passes := map[string]map[string]bool{
		"gzip": {
			"no or empty `Accept-Encoding` → identity": true,
			"`gzip` → gzip":    true,
			"`x-gzip` is gzip": true,
			"no acceptable coding: `identity;q=0`, `*;q=0`": true,
			"`gzip, identity;q=0` → gzip":                   true,
			"the highest q wins":                            true,
			"zstd preferred at equal q":                     true,
			"revalidating a compressed response":            true,
			"Range, identity client":                        true,
			"text types compressed":                         true,
		},
		"zstd": {
			"no or empty `Accept-Encoding` → identity": true,
			"`q=0` refuses": true,
			"no acceptable coding: `identity;q=0`, `*;q=0`": true,
			"zstd preferred at equal q":                     true,
			"Range, identity client":                        true,
			"text types compressed":                         true,
		},
	}
	tab := run([]middleware{careless("gzip", false), careless("zstd", false)})
	for j, coding := range []string{"gzip", "zstd"} {
		want := passes[coding]
		for i, r := range rows {
			if got := tab.cells[i][j]; got.pass != want[r.name] {
				t.Errorf("careless %s: %q passed=%t (%s), want %t", coding, r.name, got.pass, got.note, want[r.name])
			}
		}
	}

	// The rows both pass: a middleware that always compresses fails
	// the first three, and one that never does fails the last.
	none := middleware{name: "none", wrap: func(h http.Handler, _ setup) (http.Handler, error) { return h, nil }}
	tab = run([]middleware{careless("gzip", true), none})
	for j, names := range [][]string{{
		"no or empty `Accept-Encoding` → identity",
		"no acceptable coding: `identity;q=0`, `*;q=0`",
		"Range, identity client",
	}, {
		"text types compressed",
	}} {
		for _, name := range names {
			i := rowIndex(name)
			if i < 0 {
				t.Fatalf("no row %q", name)
			}
			if got := tab.cells[i][j]; got.pass {
				t.Errorf("%s passes %q", tab.columns[j].m.name, name)
			}
		}
	}
	for i, r := range rows {
		if passes["gzip"][r.name] && passes["zstd"][r.name] && tab.cells[i][0].pass && tab.cells[i][1].pass {
			t.Errorf("no middleware here fails %q", r.name)
		}
	}
}

// TestEmptyFieldSent checks the harness: a request field given an empty
// value reaches the server present and empty, as the row on an empty
// Accept-Encoding needs.
func TestEmptyFieldSent(t *testing.T) {
	got := make(chan []string, 1)
	none := middleware{name: "none", wrap: func(h http.Handler, _ setup) (http.Handler, error) { return h, nil }}
	s, err := serve(none, setup{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header["Accept-Encoding"]
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if _, err := s.get("GET", withAE("")...); err != nil {
		t.Fatal(err)
	}
	if v := <-got; len(v) != 1 || v[0] != "" {
		t.Errorf("server saw Accept-Encoding %q, want one empty value", v)
	}
}
