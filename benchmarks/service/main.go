// Command service measures what pooling does to a whole HTTP service:
// server CPU per request, allocations, GC cycles, tail latency and
// throughput of one endpoint (POST /orders: decode a JSON order, validate
// it, interpolate two INSERTs, encode a 5 KB receipt, compress it as the
// client accepts, log the request) built seven ways, under load from
// vegeta. The load sends a browser's Accept-Encoding, "gzip, deflate, br,
// zstd", unless -accept-encoding says otherwise (-accept-encoding gzip for
// a gzip-only client); the report says which, as accept_encoding.
//
//	cd benchmarks && go run ./service [-rounds 3] [-phase 8s] [-rates auto,3000]
//	                                  [-accept-encoding HEADER]
//	                                  [-format text|json] [-html FILE] [-dsn DSN]
//
// Each variant runs in its own server process (this program, re-executed)
// with GOMAXPROCS=1, pinned to one CPU while the load generator is pinned
// to another where the machine allows. Before measuring, the tool checks
// that every variant answers the same bytes (after decompression), with
// the same statuses and the same SQL, and refuses to measure otherwise.
// Each round runs every variant closed-loop (the maximum req/s), then at
// each fixed rate open-loop (latency without coordinated omission); the
// variants are interleaved and their order rotates from round to round.
// The figures are medians over the rounds, with their spread.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"
)

// browserAcceptEncoding is what today's browsers send (Chrome and Edge
// 123+, Firefox 126+, Safari 26+), the load's default.
const browserAcceptEncoding = "gzip, deflate, br, zstd"

func main() {
	if name := os.Getenv(serveEnv); name != "" {
		if err := serve(name, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "service: server %s: %v\n", name, err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := mainErr(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(os.Stderr, "service: %v\n", err)
		os.Exit(1)
	}
}

// mainErr parses args, runs the benchmark and writes its output.
func mainErr(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("service", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rounds := fs.Int("rounds", 3, "rounds of every `N` phases; the figures are medians over the rounds")
	phase := fs.Duration("phase", 8*time.Second, "length of each measured fixed-rate `phase`; closed-loop phases last half of it")
	rates := fs.String("rates", "auto", "comma-separated fixed `rates` in req/s; auto is a third of naive's closed-loop maximum; the first is the headline rate")
	conc := fs.Int("conc", 16, "requests in flight in the closed-loop phases")
	format := fs.String("format", "text", "output `format`: text or json")
	htmlFile := fs.String("html", "", "also write an HTML report with charts to `FILE`")
	dsn := fs.String("dsn", "", "execute the statements on this MySQL/MariaDB (go-sql-driver `DSN`); it creates the database "+dbName)
	names := fs.String("variants", "", "comma-separated `variants` to run (default all but those run only when named: "+variantNames()+")")
	ae := fs.String("accept-encoding", browserAcceptEncoding, "the Accept-Encoding `header` the load sends; -accept-encoding gzip gives the gzip-only figures")
	pin := fs.Bool("pin", true, "pin the servers and the load generator to two CPUs where allowed")
	quiet := fs.Bool("q", false, "no progress line")
	profDir := fs.String("memprofile", "", "record every allocation of each server and write `DIR`/VARIANT.pprof at the end "+
		"(go tool pprof -sample_index=alloc_objects); slows the servers, so the other figures do not count")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: service [flags]\n\nVariants:\n")
		for _, v := range variants {
			fmt.Fprintf(stderr, "  %-15s %s\n", v.name, v.doc)
		}
		fmt.Fprintf(stderr, "\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := &config{rounds: *rounds, phase: *phase, conc: *conc, dsn: *dsn, pin: *pin, profDir: *profDir, acceptEncoding: *ae}
	switch {
	case cfg.rounds < 1:
		return fmt.Errorf("-rounds %d: want at least 1", cfg.rounds)
	case cfg.phase < 100*time.Millisecond:
		return fmt.Errorf("-phase %v: want at least 100ms", cfg.phase)
	case cfg.conc < 1:
		return fmt.Errorf("-conc %d: want at least 1", cfg.conc)
	case *format != "text" && *format != "json":
		return fmt.Errorf("-format %q: want text or json", *format)
	case strings.TrimSpace(*ae) == "" || strings.ContainsAny(*ae, "\r\n"):
		return fmt.Errorf("-accept-encoding %q: want a header value", *ae)
	}
	for _, r := range splitList(*rates) {
		if r == "auto" {
			cfg.rates = append(cfg.rates, 0)
			continue
		}
		x, err := strconv.ParseFloat(r, 64)
		if err != nil || x < 1 || x > 1e6 {
			return fmt.Errorf("-rates: %q is not auto or a rate from 1 to 1e6 req/s", r)
		}
		cfg.rates = append(cfg.rates, x)
	}
	if len(cfg.rates) == 0 {
		return fmt.Errorf("-rates %q: no rate", *rates)
	}
	cfg.variants = splitList(*names)
	if len(cfg.variants) == 0 {
		cfg.variants = defaultVariants()
	}
	if !*quiet {
		cfg.progress = stderr
		if f, ok := stderr.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				cfg.tty = true
			}
		}
	}

	if cfg.profDir != "" {
		if err := os.MkdirAll(cfg.profDir, 0o755); err != nil {
			return err
		}
	}
	rep, err := run(ctx, cfg)
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted: no figures")
	}
	if err != nil {
		if rep != nil && !rep.BodiesIdentical && *format == "json" {
			// Say so in the output too, for scripts that read it.
			_ = json.NewEncoder(stdout).Encode(map[string]any{"bodies_identical": false, "error": err.Error()})
		}
		return err
	}
	if *htmlFile != "" {
		if err := writeHTMLFile(*htmlFile, rep); err != nil {
			return err
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeText(stdout, rep)
}
