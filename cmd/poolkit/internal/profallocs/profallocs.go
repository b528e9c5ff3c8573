// Package profallocs reports the sites that allocate most in a running
// service's memory profile.
//
// It reads the profile from a file or from the service's net/http/pprof
// endpoint, and gives each site the first frame in the user's code and the
// poolkit package that removes the allocation where one applies.
package profallocs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/numfmt"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/source"
)

// Config says where Read finds the profile and how it reads it.
type Config struct {
	// Source is a pprof file, gzipped or not, or the http(s) URL of a
	// net/http/pprof allocs or heap endpoint, or of the server alone.
	Source string
	// Seconds is, for a URL, the span of the delta profile to take; for
	// a file that records no duration, when SecondsSet, the span it
	// covers.
	Seconds    int
	SecondsSet bool
	// Save is a file to write the profile fetched from a URL to, "" for
	// none.
	Save string
	// User is the user's code; with no prefixes, Read takes it from the
	// profile (memprof.Profile.MainCode).
	User memprof.UserCode
	// SortBy ranks the sites: "allocs" (the default) or "bytes".
	SortBy string
	// Limit is the most bytes of profile read, compressed and once
	// decompressed alike.
	Limit int64
}

// Report is what Read found.
type Report struct {
	source   string
	duration time.Duration // 0: the figures are totals
	durFrom  string        // where the duration comes from
	rate     int64
	sites    []memprof.Site
	pprofOwn int64 // allocations of the pprof endpoint serving the profile, left out
	// unsymbolized are the allocations whose stacks name no function,
	// left out.
	unsymbolized int64
	// mismatch are the source files read for the advice that cannot be
	// the ones the profiled binary was built from.
	mismatch []string
	userCode string // what was taken as the user's code, and why
	sortBy   string
	src      *source.Lines
}

// code returns the source line of a site, trimmed, "" when it is not at
// hand.
func (r *Report) code(s memprof.Site) string {
	if r.src == nil || !s.IsUser {
		return ""
	}
	l, _ := r.src.Line(s.User.File, s.User.Line)
	// A dependency's file is a stranger's text: its control bytes are
	// shown escaped, as a server's are.
	return quoteBody(l)
}

// dropPprof removes the allocations net/http/pprof made while serving
// the profile: the measurement, not the service. It returns how many
// objects it removed.
func dropPprof(prof *memprof.Profile) int64 {
	var dropped int64
	kept := prof.Samples[:0]
	for _, s := range prof.Samples {
		own := false
		for _, f := range s.Stack {
			if memprof.FuncPackage(f.Func) == "net/http/pprof" {
				own = true
				break
			}
		}
		if own {
			dropped += s.Objects
			continue
		}
		kept = append(kept, s)
	}
	prof.Samples = kept
	return dropped
}

// looksLikeHost reports whether s, not a file, reads as a server's
// address without its scheme: "localhost:6060/debug/pprof/allocs".
func looksLikeHost(s string) bool {
	host, _, _ := strings.Cut(s, "/")
	if _, port, ok := strings.Cut(host, ":"); ok && port != "" {
		if _, err := strconv.Atoi(port); err == nil {
			return true
		}
	}
	return strings.Contains(s, "/debug/pprof")
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// Read reads the profile cfg names, fetching a delta over cfg.Seconds from
// a URL while it shows its progress on progress, and returns its report.
func Read(ctx context.Context, cfg Config, progress io.Writer) (*Report, error) {
	var data []byte
	where := cfg.Source
	if isURL(cfg.Source) {
		u, err := profileURL(cfg.Source, cfg.Seconds)
		if err != nil {
			return nil, err
		}
		where = u
		data, err = fetchProfile(ctx, u, cfg.Seconds, cfg.Limit, progress)
		if err != nil {
			return nil, err
		}
		if cfg.Save != "" {
			if err := os.WriteFile(cfg.Save, data, 0o644); err != nil {
				return nil, fmt.Errorf("-save: %v", err)
			}
		}
	} else {
		if cfg.Save != "" {
			return nil, errors.New("-save applies to a URL; the profile is already in a file")
		}
		f, err := os.Open(cfg.Source)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && looksLikeHost(cfg.Source) {
				return nil, fmt.Errorf("reading the profile: %v: no such file; did you mean http://%s ?", err, cfg.Source)
			}
			return nil, fmt.Errorf("reading the profile: %v", err)
		}
		data, err = readAtMost(f, cfg.Limit+1)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %v", cfg.Source, err)
		}
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%s is empty: no profile in it", where)
	}
	prof, err := memprof.Parse(data, cfg.Limit)
	switch {
	case errors.Is(err, memprof.ErrTooLarge):
		return nil, fmt.Errorf("%s: %v (-max-profile-mib %d): a memory profile is kilobytes to a few megabytes; "+
			"if this one is real, raise the limit with -max-profile-mib", where, err, cfg.Limit>>20)
	case errors.Is(err, memprof.ErrNotProfile):
		hint := "give a file written by pprof (go test -memprofile, pprof.WriteHeapProfile, curl of /debug/pprof/allocs)"
		if isURL(cfg.Source) {
			hint = "point -profile at a net/http/pprof allocs or heap endpoint, such as http://host:port/debug/pprof/allocs"
		}
		return nil, fmt.Errorf("%s is not a pprof profile (%v): %s", where, err, hint)
	case errors.Is(err, memprof.ErrNotMemory):
		return nil, fmt.Errorf("%s: %v: poolkit allocs needs a memory profile, from /debug/pprof/allocs or /debug/pprof/heap, "+
			"go test -memprofile or pprof.WriteHeapProfile", where, err)
	case err != nil:
		return nil, fmt.Errorf("%s: %v", where, err)
	}
	rep := &Report{source: where, rate: prof.Rate}
	switch {
	case prof.Duration > 0:
		rep.duration = prof.Duration
		rep.durFrom = "a delta profile"
	case isURL(cfg.Source):
		// A server too old to take deltas would have failed above with
		// a profile of totals; if it sent one anyway, the span asked
		// for is the best knowledge of the duration.
		rep.duration = time.Duration(cfg.Seconds) * time.Second
		rep.durFrom = "the -seconds asked for"
	case cfg.SecondsSet:
		rep.duration = time.Duration(cfg.Seconds) * time.Second
		rep.durFrom = "-seconds; the profile records no duration"
	}
	rep.pprofOwn = dropPprof(prof)
	if prof.Empty() && rep.pprofOwn == 0 {
		over := "since the process started"
		if rep.duration > 0 {
			over = "over " + rep.duration.String()
		}
		if prof.Rate == 0 && !isURL(cfg.Source) {
			return nil, fmt.Errorf("%s is an empty memory profile: no allocation was sampled %s", where, over)
		}
		return nil, fmt.Errorf("%s is an empty memory profile: no allocation was sampled %s "+
			"(one sample per %s allocated on average): make the service busy, take a longer -seconds, or sample finer with runtime.MemProfileRate",
			where, over, numfmt.Size(float64(prof.Rate)))
	}
	rep.unsymbolized = prof.Unsymbolized
	user := cfg.User
	if len(user.Prefixes) > 0 {
		rep.userCode = strings.Join(user.Prefixes, ", ") + " (-user)"
	} else {
		user, rep.userCode = prof.MainCode()
	}
	src := source.New(prof.Time)
	rep.sites = prof.Sites(user, src.Line)
	rep.mismatch = src.Mismatch()
	rep.src = src
	if cfg.SortBy == "bytes" {
		sort.SliceStable(rep.sites, func(i, j int) bool { return rep.sites[i].Bytes > rep.sites[j].Bytes })
	}
	rep.sortBy = cfg.SortBy
	switch {
	case len(rep.sites) > 0:
	case prof.Unsymbolized > 0:
		return nil, fmt.Errorf("%s is not symbolized: its allocations' stacks hold addresses only, no function names "+
			"or lines, so no site can be named. Go's runtime/pprof and net/http/pprof write symbolized profiles; "+
			"this one was converted or written by another tool. Symbolize it against the binary that was profiled: "+
			"go tool pprof -proto -output symbolized.pb.gz BINARY PROFILE, then read symbolized.pb.gz", where)
	case rep.pprofOwn > 0:
		return nil, fmt.Errorf("%s: every allocation sampled was the pprof endpoint's own, serving the profile: "+
			"the service allocated too little to be sampled (one sample per %s)", where, numfmt.Size(float64(prof.Rate)))
	default:
		return nil, fmt.Errorf("%s: no allocation sampled has a stack, so no site can be named", where)
	}
	return rep, nil
}

// profileURL returns the URL of the delta profile over seconds: the
// allocs endpoint when u names only the server or /debug/pprof/.
func profileURL(raw string, seconds int) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("-profile: %v", err)
	}
	if u.Host == "" {
		return "", fmt.Errorf("-profile: %q has no host", raw)
	}
	switch strings.TrimSuffix(u.Path, "/") {
	case "", "/debug/pprof":
		u.Path = "/debug/pprof/allocs"
	}
	q := u.Query()
	q.Set("seconds", strconv.Itoa(seconds))
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// fetchProfile asks the endpoint for a delta profile over seconds,
// showing a progress line on progress while the server waits.
func fetchProfile(ctx context.Context, u string, seconds int, limit int64, progress io.Writer) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(seconds)*time.Second+time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("-profile: %v", err)
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	start := time.Now()
	go showProgress(progress, u, seconds, done, stopped)
	resp, err := http.DefaultClient.Do(req)
	var data []byte
	if err == nil {
		// Read one byte past the limit, for Parse to refuse; the
		// transport's transparent gzip decoding is bounded here too.
		data, err = readAtMost(resp.Body, limit+1)
		resp.Body.Close()
	}
	close(done)
	<-stopped
	if err == nil && resp.StatusCode == http.StatusOK {
		fmt.Fprintf(progress, "poolkit allocs: profile received after %.1fs\n", time.Since(start).Seconds())
	}
	if err != nil {
		return nil, fmt.Errorf("cannot fetch a profile from %s: %v (is the service running, and does it serve net/http/pprof there?)", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s: %s", u, quoteBody(resp.Status), quoteBody(string(data)))
	}
	return data, nil
}

// readAtMost reads r to its end or n bytes, whichever comes first. Its
// buffer doubles as it grows, up to n, so that reading n bytes allocates
// at most about 3n (io.ReadAll's smaller steps allocate several times n,
// and bytes.Buffer's doubling past n up to 4n).
func readAtMost(r io.Reader, n int64) ([]byte, error) {
	buf := make([]byte, 0, min(n, 4096))
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			buf = append(make([]byte, 0, min(n, 2*int64(cap(buf)))), buf...)
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// quoteBody returns the start of a server's text, or of a source line,
// up to 300 bytes, for a message: as it is when it is printable text on one line,
// otherwise Go-quoted, so that the control bytes of a hostile or broken
// server (terminal escape sequences, carriage returns, bidirectional
// overrides) reach the terminal as visible escapes, not as commands.
func quoteBody(s string) string {
	s = strings.TrimSpace(s)
	cut := len(s) > 300
	if cut {
		n := 300
		for n > 0 && !utf8.RuneStart(s[n]) {
			n-- // not inside a character
		}
		s = s[:n]
	}
	printable := utf8.ValidString(s)
	for _, r := range s {
		if !unicode.IsPrint(r) {
			printable = false
			break
		}
	}
	if !printable {
		s = strconv.Quote(s)
	}
	if cut {
		s += "…"
	}
	return s
}

// showProgress prints a line while the server collects the delta: on a
// terminal it counts the seconds in place, elsewhere it prints the start
// and the end.
func showProgress(w io.Writer, u string, seconds int, done <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	start := time.Now()
	msg := fmt.Sprintf("poolkit allocs: sampling allocations at %s for %ds", u, seconds)
	tty := writerIsTerminal(w)
	if !tty {
		fmt.Fprintln(w, msg+" ...")
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		if tty {
			fmt.Fprintf(w, "\r%s: %ds", msg, int(time.Since(start).Seconds()))
		}
		select {
		case <-done:
			if tty {
				fmt.Fprintln(w)
			}
			return
		case <-t.C:
		}
	}
}

func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// shortPath shows a standard-library file as $GOROOT/src/… (the
// service's GOROOT, whatever it was) and one under the working directory
// relative to it.
func shortPath(fn, file string) string {
	if pkg := memprof.FuncPackage(fn); memprof.IsStd(pkg) {
		if i := strings.LastIndex(file, "/src/"+pkg+"/"); i >= 0 {
			return "$GOROOT" + file[i:]
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return file
}

func (r *Report) perSec(n int64) float64 {
	if r.duration <= 0 {
		return float64(n)
	}
	return float64(n) / r.duration.Seconds()
}

// samplingNote says how the profile was sampled and how to sample finer.
func (r *Report) samplingNote() string {
	if r.rate <= 0 {
		return "Sampling: the profile does not record its sampling rate (runtime.MemProfileRate; Go's default samples one allocation\n" +
			"per 512 KiB), and its figures are estimates scaled up from the samples."
	}
	s := fmt.Sprintf("Sampling: one allocation recorded per %s allocated, on average (runtime.MemProfileRate = %d), scaled up\n"+
		"to estimates;", numfmt.Size(float64(r.rate)), r.rate)
	if r.rate >= memprof.DefaultRate {
		s += " small or rare sites may be missing. To sample finer, run the service with\n" +
			"GODEBUG=memprofilerate=4096 in its environment (no change to its code), or set runtime.MemProfileRate\n" +
			"first thing in main: it costs some CPU on every allocation."
	} else {
		s += " finer than Go's default of 512 KiB."
	}
	return s
}

// thinSamples is the count of recorded allocations under which a site's
// figures are marked as too thin to trust: with n samples, the estimate
// is off by about 1/sqrt(n), a third at 10.
const thinSamples = 10

// totals sums the sites.
func (r *Report) totals() (objs, byts int64, sampled float64) {
	for _, s := range r.sites {
		objs += s.Objects
		byts += s.Bytes
		sampled += s.Sampled
	}
	return objs, byts, sampled
}

func (r *Report) shown(top int) []memprof.Site {
	if top > 0 && len(r.sites) > top {
		return r.sites[:top]
	}
	return r.sites
}

// WriteText prints the report, at most top sites (0: all). Every
// character that is not printable, but the ends of lines, is written as a
// Go escape (\x1b, \r, \u202e): a profile's function and file names are
// a stranger's text, and must not reach a terminal as commands.
func (r *Report) WriteText(w io.Writer, top int) {
	var buf bytes.Buffer
	r.writeText(&buf, top)
	w.Write(EscapeText(buf.Bytes()))
}

// EscapeText returns b with every character that is not printable
// (unicode.IsPrint), but '\n', and every byte that is not UTF-8, written
// as Go writes them in a quoted string: ESC as \x1b, BEL as \a, a
// carriage return as \r, U+009B as \u009b, U+202E as \u202e.
func EscapeText(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n == 1:
			out = fmt.Appendf(out, `\x%02x`, b[0])
		case r == '\n' || unicode.IsPrint(r):
			out = append(out, b[:n]...)
		default:
			q := strconv.QuoteRune(r)
			out = append(out, q[1:len(q)-1]...)
		}
		b = b[n:]
	}
	return out
}

// EscapeJSON returns JSON text j with every character that is not
// printable (unicode.IsPrint) written as a \u escape, but the '\n' and
// spaces between values. encoding/json escapes the control characters
// below U+0020, but writes U+009B (a terminal's CSI) and the
// bidirectional overrides as they are.
func EscapeJSON(j []byte) []byte {
	out := make([]byte, 0, len(j))
	for len(j) > 0 {
		r, n := utf8.DecodeRune(j)
		switch {
		case r == '\n' || (r != utf8.RuneError || n > 1) && unicode.IsPrint(r):
			out = append(out, j[:n]...)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		j = j[n:]
	}
	return out
}

func (r *Report) writeText(w io.Writer, top int) {
	objs, byts, sampled := r.totals()
	unitA, unitB := "allocs/s", "bytes/s"
	if r.duration > 0 {
		fmt.Fprintf(w, "Allocations at %s over %.1fs (%s): %s allocs/s, %s/s in all",
			r.source, r.duration.Seconds(), r.durFrom, numfmt.Count(r.perSec(objs)), numfmt.Size(r.perSec(byts)))
	} else {
		unitA, unitB = "allocs", "bytes"
		fmt.Fprintf(w, "Allocations in %s: %s allocs, %s in all, TOTALS since the process started: the profile records no\n"+
			"duration, so there are no rates. For rates, fetch a delta with -profile URL -seconds N (or -save it),\n"+
			"or pass -seconds with the span this profile covers. From",
			r.source, numfmt.Count(float64(objs)), numfmt.Size(float64(byts)))
	}
	if r.rate > 0 {
		fmt.Fprintf(w, ", estimated from %s recorded allocations.\n", numfmt.Count(sampled))
	} else {
		fmt.Fprintln(w, ".")
	}
	fmt.Fprintln(w, r.samplingNote())
	if r.pprofOwn > 0 {
		fmt.Fprintf(w, "Left out: %s %s by the net/http/pprof handler itself while it served the profile.\n",
			numfmt.Count(r.perSec(r.pprofOwn)), unitA)
	}
	if r.unsymbolized > 0 {
		fmt.Fprintf(w, "Left out: %s %s whose stacks hold addresses only, no function names (unsymbolized).\n",
			numfmt.Count(r.perSec(r.unsymbolized)), unitA)
	}
	fmt.Fprintf(w, "Your code: %s; -user prefixes changes it.\n", r.userCode)
	if len(r.mismatch) > 0 {
		fmt.Fprintf(w, "WARNING: the advice read source lines that cannot be the profiled binary's, so advice that reads the\n"+
			"code may be wrong: %s.\n", strings.Join(r.mismatch, "; "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%12s %12s %8s  %s\n", unitA, unitB, "samples", "site: first frame in your code (ranked by "+r.sortBy+")")
	shown := r.shown(top)
	indent := strings.Repeat(" ", 36)
	thin := false
	for _, s := range shown {
		b := numfmt.Size(r.perSec(s.Bytes))
		if r.duration > 0 {
			b += "/s"
		}
		where := fmt.Sprintf("%s  %s:%d", s.User.Func, shortPath(s.User.Func, s.User.File), s.User.Line)
		if len(s.OtherLines) > 0 {
			lines := make([]string, len(s.OtherLines))
			for i, l := range s.OtherLines {
				lines[i] = strconv.FormatInt(l, 10)
			}
			where += " (and " + strings.Join(lines, ", ") + ")"
		}
		if !s.IsUser {
			where += "  (no frame in your code; outermost frame shown)"
		}
		n := "-"
		if r.rate > 0 {
			n = numfmt.Count(s.Sampled)
			if s.Sampled < thinSamples {
				n += "?"
				thin = true
			}
		}
		fmt.Fprintf(w, "%12s %12s %8s  %s\n", numfmt.Count(r.perSec(s.Objects)), b, n, where)
		in := s.AllocIn
		if len(s.AlsoIn) > 0 {
			in += " (also " + strings.Join(s.AlsoIn[:min(len(s.AlsoIn), 3)], ", ")
			if len(s.AlsoIn) > 3 {
				in += ", …"
			}
			in += ")"
		}
		if c := r.code(s); c != "" {
			fmt.Fprintf(w, "%scode: %s\n", indent, c)
		}
		fmt.Fprintf(w, "%sallocated in %s\n", indent, in)
		fmt.Fprintf(w, "%sadvice%s: %s\n", indent, s.Advice.Coverage(), s.Advice.Text)
	}
	if rest := r.sites[len(shown):]; len(rest) > 0 {
		var a, by int64
		for _, s := range rest {
			a += s.Objects
			by += s.Bytes
		}
		b := numfmt.Size(r.perSec(by))
		if r.duration > 0 {
			b += "/s"
		}
		fmt.Fprintf(w, "%12s %12s %8s  (%d more sites: %s of the allocations, %s of the bytes; -top 0 shows all)\n",
			numfmt.Count(r.perSec(a)), b, "", len(rest), pct(a, objs), pct(by, byts))
	}
	if thin {
		fmt.Fprintf(w, "\n?: fewer than %d allocations recorded at the site: its figures may be off by a third or more;\n"+
			"   run the service with GODEBUG=memprofilerate=N, N under %d, to record more.\n", thinSamples, r.rate)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, profileNote)
}

// profileNote says how the profile's counts differ from the runtime's.
const profileNote = `Note: the figures are estimates scaled up from sampled allocations, and run under the runtime's exact
counters (runtime/metrics /gc/heap/allocs:objects); the runtime packs pointer-free allocations under 16 B into
shared 16 B blocks and the profile sees the blocks, so such sites show fewer allocations than were made.`

// pct prints a as a percentage of b.
func pct(a, b int64) string {
	if b <= 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

// JSON is the report in the shape poolkit allocs -profile -format json
// prints.
type JSON struct {
	Source string `json:"source"`
	// Rates is true when the figures are over DurationSeconds, false when
	// the profile holds totals since the process started; then
	// DurationSeconds is 0 and the per-second fields are null.
	Rates           bool    `json:"rates"`
	DurationSeconds float64 `json:"duration_seconds"`
	SampleRate      int64   `json:"sample_rate_bytes"` // runtime.MemProfileRate, 0 if unknown
	UserCode        string  `json:"user_code"`         // what was taken as the user's code, and why
	SortedBy        string  `json:"sorted_by"`         // "allocs" or "bytes"
	// SourceMismatch lists the source files read that cannot be the
	// profiled binary's.
	SourceMismatch []string    `json:"source_mismatch"`
	Total          figuresJSON `json:"total"`    // every site
	LeftOut        leftOutJSON `json:"left_out"` // not in any site
	// NotShown are the sites past -top.
	NotShown struct {
		Sites int `json:"sites"`
		figuresJSON
	} `json:"not_shown"`
	Sites []siteJSON `json:"sites"`
}

// figuresJSON are the figures of a site or a sum of sites.
type figuresJSON struct {
	AllocsPerSec *float64 `json:"allocs_per_sec"`
	BytesPerSec  *float64 `json:"bytes_per_sec"`
	Allocs       int64    `json:"allocs"` // estimated total over the profile
	Bytes        int64    `json:"bytes"`
	// Samples is about how many allocations the runtime recorded, that
	// the estimates are scaled up from; 0 if the profile gives no rate.
	Samples float64 `json:"samples"`
}

type leftOutJSON struct {
	PprofHandlerAllocs int64 `json:"pprof_handler_allocs"` // allocations of net/http/pprof serving the profile
	UnsymbolizedAllocs int64 `json:"unsymbolized_allocs"`  // allocations whose stacks name no function
}

type siteJSON struct {
	Func       string   `json:"func"`
	File       string   `json:"file"`
	Line       int64    `json:"line"`
	OtherLines []int64  `json:"other_lines,omitempty"` // lines of the same function the same advice covers
	UserCode   bool     `json:"user_code"`             // false: no frame in the user's code, the outermost is shown
	Code       string   `json:"code,omitempty"`        // the site's source line, when at hand
	AllocIn    string   `json:"alloc_in"`
	AlsoIn     []string `json:"also_in,omitempty"`
	figuresJSON
	Thin    bool   `json:"thin"` // fewer than 10 samples: figures may be off by a third or more
	Advice  string `json:"advice"`
	Package string `json:"package"` // the poolkit package(s) the advice names, "" for no rule
	// AdviceBytesShare and AdviceAllocsShare are the parts of the site
	// the advice rests on, 0 to 1.
	AdviceBytesShare  float64 `json:"advice_bytes_share"`
	AdviceAllocsShare float64 `json:"advice_allocs_share"`
	// InuseBytes and InuseAllocs are what of the site's allocations is
	// still in use: as of the last GC in a profile of totals, the growth
	// over the span in a delta; 0 when the profile has no in-use values.
	InuseBytes  int64 `json:"inuse_bytes"`
	InuseAllocs int64 `json:"inuse_allocs"`
	// Retained is true when at least half of the site's bytes are still
	// in use, so no pool is advised although a pattern fits.
	Retained bool `json:"retained"`
}

func (r *Report) figures(objs, byts int64, sampled float64) figuresJSON {
	f := figuresJSON{Allocs: objs, Bytes: byts, Samples: math.Round(sampled*10) / 10}
	if r.duration > 0 {
		a, b := r.perSec(objs), r.perSec(byts)
		f.AllocsPerSec, f.BytesPerSec = &a, &b
	}
	return f
}

// JSON returns the report as -format json prints it, at most top sites
// (0: all).
func (r *Report) JSON(top int) JSON {
	out := JSON{Source: r.source, Rates: r.duration > 0, DurationSeconds: r.duration.Seconds(),
		SampleRate: r.rate, UserCode: r.userCode, SortedBy: r.sortBy, SourceMismatch: r.mismatch, Sites: []siteJSON{}}
	if out.SourceMismatch == nil {
		out.SourceMismatch = []string{}
	}
	out.Total = r.figures(r.totals())
	out.LeftOut = leftOutJSON{PprofHandlerAllocs: r.pprofOwn, UnsymbolizedAllocs: r.unsymbolized}
	shown := r.shown(top)
	var ro, rb int64
	var rs float64
	for _, s := range r.sites[len(shown):] {
		ro += s.Objects
		rb += s.Bytes
		rs += s.Sampled
	}
	out.NotShown.Sites = len(r.sites) - len(shown)
	out.NotShown.figuresJSON = r.figures(ro, rb, rs)
	for _, s := range shown {
		out.Sites = append(out.Sites, siteJSON{Func: s.User.Func, File: s.User.File, Line: s.User.Line, OtherLines: s.OtherLines,
			UserCode: s.IsUser, Code: r.code(s), AllocIn: s.AllocIn, AlsoIn: s.AlsoIn, figuresJSON: r.figures(s.Objects, s.Bytes, s.Sampled),
			Thin: r.rate > 0 && s.Sampled < thinSamples, Advice: s.Advice.Text, Package: s.Advice.Package,
			AdviceBytesShare: s.Advice.BytesShare, AdviceAllocsShare: s.Advice.ObjectsShare,
			InuseBytes: s.InuseBytes, InuseAllocs: s.InuseObjects, Retained: s.Advice.Retained})
	}
	return out
}
