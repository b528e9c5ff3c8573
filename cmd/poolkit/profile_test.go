package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/pprof/profile"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/cmdtest"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof/proftest"
	"github.com/poolkit/poolkit/cmd/poolkit/internal/profallocs"
	"github.com/poolkit/poolkit/internal/pooltest"
)

// hotService is the testdata/hotpaths program, running.
type hotService struct {
	addr string
	src  string // its main.go, absolute
}

// startHotService builds testdata/hotpaths with the go build flags and
// starts it on 127.0.0.1.
func startHotService(t *testing.T, flags ...string) *hotService {
	t.Helper()
	cmdtest.NeedGo(t)
	bin := filepath.Join(t.TempDir(), "hotpaths")
	args := append(append([]string{"build", "-o", bin}, flags...), "./testdata/hotpaths")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("building testdata/hotpaths: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("hotpaths said %q, %v", line, err)
	}
	src, err := filepath.Abs("testdata/hotpaths/main.go")
	if err != nil {
		t.Fatal(err)
	}
	return &hotService{addr: addr, src: src}
}

// calls returns how many times each hot path has run, as the program
// counts them.
func (s *hotService) calls(t *testing.T) int64 {
	t.Helper()
	body := httpGet(t, "http://"+s.addr+"/calls")
	n, err := strconv.ParseInt(strings.TrimSpace(string(body)), 10, 64)
	if err != nil {
		t.Fatalf("/calls: %v", err)
	}
	return n
}

func httpGet(t *testing.T, u string) []byte {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", u, resp.Status, err)
	}
	return b
}

// checkSites checks that every hot line is a site in the report, with
// its package in the advice and, when rates is set, a positive rate.
// file is the source's name as the profile gives it.
func checkSites(t *testing.T, rep profallocs.JSON, src, file string, rates bool) {
	t.Helper()
	want := cmdtest.HotLines(t, src)
	found := map[int64]bool{}
	for _, s := range rep.Sites {
		pkg, hot := want[s.Line]
		if s.File != file || !hot {
			continue
		}
		found[s.Line] = true
		for _, l := range s.OtherLines {
			if want[l] == pkg {
				found[l] = true
			}
		}
		if !strings.HasPrefix(s.Advice, pkg) || !strings.Contains(s.Package, pkg) {
			t.Errorf("%s:%d (%s): advice %q, package %q; want %s", filepath.Base(s.File), s.Line, s.Func, s.Advice, s.Package, pkg)
		}
		if !strings.HasPrefix(s.Func, "main.") || !s.UserCode {
			t.Errorf("%s:%d: func %q, user_code %v", filepath.Base(s.File), s.Line, s.Func, s.UserCode)
		}
		switch {
		case rates && (s.AllocsPerSec == nil || *s.AllocsPerSec <= 0 || s.BytesPerSec == nil || *s.BytesPerSec <= 0):
			t.Errorf("%s:%d: no rate", filepath.Base(s.File), s.Line)
		case !rates && (s.AllocsPerSec != nil || s.Allocs <= 0):
			t.Errorf("%s:%d: totals profile with rate %v, allocs %d", filepath.Base(s.File), s.Line, s.AllocsPerSec, s.Allocs)
		}
	}
	for line, pkg := range want {
		if !found[line] {
			t.Errorf("hot line %d (%s) not among the sites", line, pkg)
		}
	}
}

func decodeReport(t *testing.T, out string) profallocs.JSON {
	t.Helper()
	var rep profallocs.JSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("decoding the JSON report: %v\n%s", err, out)
	}
	return rep
}

// TestAllocsProfile runs allocs -profile against a real service over
// HTTP and against profiles saved from it, and checks that it finds every
// naive hot path, with the poolkit package that removes it, and rates
// that agree with the calls the service counted.
func TestAllocsProfile(t *testing.T) {
	svc := startHotService(t)
	base := "http://" + svc.addr + "/debug/pprof/allocs"
	saved := filepath.Join(t.TempDir(), "delta.pb.gz")

	before := svc.calls(t)
	start := time.Now()
	code, out, errOut := runIn(t, ".", "allocs", "-profile", base, "-seconds", "2", "-top", "0", "-format", "json", "-save", saved)
	elapsed := time.Since(start)
	after := svc.calls(t)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "sampling allocations at "+base+"?seconds=2 for 2s") {
		t.Errorf("no progress line on stderr: %q", errOut)
	}
	rep := decodeReport(t, out)
	if rep.DurationSeconds < 1.9 || rep.DurationSeconds > 5 || !rep.Rates {
		t.Errorf("duration_seconds %v, rates %v; want about 2", rep.DurationSeconds, rep.Rates)
	}
	if rep.SampleRate != 512 {
		t.Errorf("sample_rate_bytes %d, want the 512 the service set", rep.SampleRate)
	}
	checkSites(t, rep, svc.src, svc.src, true)

	// makePerCall makes one 512-byte slice per call: its estimated rate
	// must agree with the calls the service counted over the window.
	callsPerSec := float64(after-before) / elapsed.Seconds()
	for _, s := range rep.Sites {
		if s.Func != "main.makePerCall" {
			continue
		}
		if r := *s.AllocsPerSec / callsPerSec; r < 0.5 || r > 1.6 {
			t.Errorf("makePerCall: %.0f allocs/s for %.0f calls/s", *s.AllocsPerSec, callsPerSec)
		}
		if r := *s.BytesPerSec / (512 * callsPerSec); r < 0.5 || r > 1.6 {
			t.Errorf("makePerCall: %.0f B/s for %.0f calls/s of 512 B", *s.BytesPerSec, callsPerSec)
		}
	}

	t.Run("saved file", func(t *testing.T) {
		code, out2, errOut := runIn(t, ".", "allocs", "-profile", saved, "-top", "0", "-format", "json")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		rep2 := decodeReport(t, out2)
		rep2.Source = rep.Source
		a, _ := json.Marshal(rep)
		b, _ := json.Marshal(rep2)
		if !bytes.Equal(a, b) {
			t.Errorf("the saved delta reads differently from the URL:\n%s\n%s", a, b)
		}
	})

	t.Run("text", func(t *testing.T) {
		code, text, errOut := runIn(t, ".", "allocs", "-profile", saved, "-top", "3")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`(?m)^Allocations at .*delta\.pb\.gz over [1-4]\.\ds \(a delta profile\): [\d,]+ allocs/s, [\d.]+ [KMG]iB/s in all, ` +
				`estimated from [\d,]+ recorded allocations\.$`),
			regexp.MustCompile(`(?m)^Your code: the packages built from a working tree, not taken from the module cache: main; ` +
				`-user prefixes changes it\.$`),
			regexp.MustCompile(`(?m)^Sampling: one allocation recorded per 512 B allocated, on average \(runtime\.MemProfileRate = 512\)`),
			regexp.MustCompile(`(?m)^Left out: [\d,]+ allocs/s by the net/http/pprof handler`),
			regexp.MustCompile(`(?m)^ +allocs/s +bytes/s +samples  site: first frame in your code \(ranked by allocs\)$`),
			regexp.MustCompile(`(?m)^ +[\d,]+ +[\d.]+ [KMG]iB/s +[\d,]+  main\.compressResponse  testdata/hotpaths/main\.go:51 \(and 50, 52\)$`),
			regexp.MustCompile(`(?m)^ +allocated in compress/flate\.`),
			regexp.MustCompile(`(?m)^ +advice: gzpool: a gzip/flate writer is made per call`),
			regexp.MustCompile(`(?m)^ +[\d,]+ +[\d.]+ [KMG]?i?B/s +\(\d+ more sites: \d+% of the allocations, \d+% of the bytes; -top 0 shows all\)$`),
		} {
			if !want.MatchString(text) {
				t.Errorf("text lacks %s\n%s", want, text)
			}
		}
		if n := strings.Count(text, "advice"); n != 3 {
			t.Errorf("-top 3 shows %d sites", n)
		}
	})

	t.Run("default sampling", func(t *testing.T) {
		// A profile at Go's default rate says how to sample finer.
		p := readTestProfile(t, saved)
		p.Period = 512 * 1024
		file := writeTestProfile(t, p)
		code, text, errOut := runIn(t, ".", "allocs", "-profile", file)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		if !strings.Contains(text, "one allocation recorded per 512.0 KiB") ||
			!strings.Contains(text, "To sample finer, run the service with\nGODEBUG=memprofilerate=4096") {
			t.Errorf("no advice on sampling finer:\n%s", text)
		}
	})

	t.Run("totals", func(t *testing.T) {
		// The endpoint without ?seconds= gives totals since the process
		// started and no duration: no rates may be made up.
		file := filepath.Join(t.TempDir(), "allocs.pb.gz")
		if err := os.WriteFile(file, httpGet(t, base), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runIn(t, ".", "allocs", "-profile", file, "-top", "0", "-format", "json")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		rep := decodeReport(t, out)
		if rep.Rates || rep.DurationSeconds != 0 {
			t.Errorf("rates %v, duration_seconds %v", rep.Rates, rep.DurationSeconds)
		}
		checkSites(t, rep, svc.src, svc.src, false)
		code, text, _ := runIn(t, ".", "allocs", "-profile", file)
		if code != 0 || !strings.Contains(text, "TOTALS since the process started") {
			t.Errorf("exit %d, text does not say totals:\n%s", code, text)
		}
		// With -seconds, the user says what span the file covers.
		code, out, _ = runIn(t, ".", "allocs", "-profile", file, "-seconds", "100", "-format", "json")
		if rep := decodeReport(t, out); code != 0 || !rep.Rates || rep.DurationSeconds != 100 {
			t.Errorf("exit %d, -seconds 100: rates %v, duration_seconds %v", code, rep.Rates, rep.DurationSeconds)
		}
	})

	t.Run("other endpoints", func(t *testing.T) {
		for _, c := range []struct{ path, want string }{
			{"/debug/pprof/profile", "it is a CPU profile, with no alloc_objects/alloc_space samples: poolkit allocs needs a memory profile"},
			{"/debug/pprof/goroutine", "it is a goroutine profile"},
			{"/debug/pprof/nosuch", "answered 404 Not Found: Unknown profile"},
			{"/calls", "is not a pprof profile"},
		} {
			code, _, errOut := runIn(t, ".", "allocs", "-profile", "http://"+svc.addr+c.path, "-seconds", "1")
			if code != 1 || !strings.Contains(errOut, c.want) {
				t.Errorf("%s: exit %d, stderr %q; want %q", c.path, code, errOut, c.want)
			}
		}
		// The server alone, or /debug/pprof/, means the allocs endpoint.
		code, _, errOut := runIn(t, ".", "allocs", "-profile", "http://"+svc.addr+"/debug/pprof/", "-seconds", "1")
		if code != 0 || !strings.Contains(errOut, "/debug/pprof/allocs?seconds=1") {
			t.Errorf("/debug/pprof/: exit %d, stderr %q", code, errOut)
		}
	})
}

func readTestProfile(t *testing.T, file string) *profile.Profile {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func writeTestProfile(t *testing.T, p *profile.Profile) string {
	t.Helper()
	var buf bytes.Buffer
	if err := p.WriteUncompressed(&buf); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "p.pb")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestAllocsProfileErrors checks that each failure says what went wrong.
func TestAllocsProfileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}

	// A real CPU profile of this process.
	var cpu bytes.Buffer
	if err := pprof.StartCPUProfile(&cpu); err != nil {
		t.Skipf("no CPU profile: %v", err)
	}
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
	}
	pprof.StopCPUProfile()

	// A memory profile with no sample in it.
	empty := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"},
			{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType:    &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:        512 * 1024,
		DurationNanos: int64(5 * time.Second),
	}

	// A port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()

	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unreachable", []string{"-profile", "http://" + closed + "/debug/pprof/allocs", "-seconds", "1"}, 1,
			"cannot fetch a profile from http://" + closed + "/debug/pprof/allocs?seconds=1: "},
		{"no such file", []string{"-profile", filepath.Join(dir, "nosuch.pb.gz")}, 1, "reading the profile: open "},
		{"not a profile", []string{"-profile", write("notes.txt", []byte("these are not the profiles you are looking for\n"))}, 1,
			"notes.txt is not a pprof profile ("},
		{"empty file", []string{"-profile", write("zero.pb.gz", nil)}, 1, "zero.pb.gz is empty: no profile in it"},
		{"cpu", []string{"-profile", write("cpu.pb.gz", cpu.Bytes())}, 1, "not a memory profile: it is a CPU profile"},
		{"empty profile", []string{"-profile", writeTestProfile(t, empty)}, 1,
			"is an empty memory profile: no allocation was sampled over 5s (one sample per 512.0 KiB allocated on average)"},
		{"bad format", []string{"-profile", "x", "-format", "xml"}, 2, `-format must be text or json, got "xml"`},
		{"bad seconds", []string{"-profile", "http://127.0.0.1:1/", "-seconds", "0"}, 2, "-seconds must be at least 1"},
		{"packages", []string{"-profile", "x", "./..."}, 2, "-profile takes no packages"},
		{"save a file", []string{"-profile", write("x.pb", nil), "-save", filepath.Join(dir, "y")}, 1, "-save applies to a URL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runIn(t, dir, append([]string{"allocs"}, c.args...)...)
			if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
				t.Errorf("exit %d (want %d)\nstderr %q\nwant   %q\nstdout %q", code, c.code, errOut, c.want, out)
			}
		})
	}
}

func TestHasProfileFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-profile", "x"}, true},
		{[]string{"--profile=x"}, true},
		{[]string{"-top", "3", "-profile", "x"}, true},
		{[]string{"-bench", "."}, false},
		{[]string{"--", "-profile"}, false},
	} {
		if got := hasProfileFlag(c.args); got != c.want {
			t.Errorf("hasProfileFlag(%q) = %v", c.args, got)
		}
	}
}

// TestAllocsProfileBomb checks that a gzip bomb, from a file or a URL,
// is refused with the limit named, and that reading it allocates about
// the limit, not the gigabyte it inflates to.
func TestAllocsProfileBomb(t *testing.T) {
	pooltest.SkipIfRace(t)                   // the race detector's shadow memory would blur the figure
	bomb := proftest.GzipBomb(t, 16, 64<<20) // about 1 MiB, 1 GiB inflated
	dir := t.TempDir()
	file := filepath.Join(dir, "bomb.pb.gz")
	if err := os.WriteFile(file, bomb, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/encoded/debug/pprof/allocs" {
			// The transport inflates this one itself, transparently.
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.Write(bomb)
	}))
	defer srv.Close()
	// At most: the limit read, decompressed and each grown by doubling,
	// and some slack; far under the bomb's 1 GiB.
	bound := func(limitMiB uint64) uint64 { return (4*limitMiB + 16) << 20 }
	for _, c := range []struct {
		name  string
		args  []string
		want  string
		bound uint64
	}{
		{"file", []string{"-profile", file}, "bomb.pb.gz: profile larger than the limit: it decompresses to more than 16 MiB (-max-profile-mib 16)",
			bound(16)},
		{"file under -max-profile-mib 2", []string{"-profile", file, "-max-profile-mib", "2"}, "decompresses to more than 2 MiB", bound(2)},
		{"URL", []string{"-profile", srv.URL, "-seconds", "1"}, "decompresses to more than 16 MiB", bound(16)},
		{"URL under -max-profile-mib 2", []string{"-profile", srv.URL, "-seconds", "1", "-max-profile-mib", "2"},
			"decompresses to more than 2 MiB", bound(2)},
		{"URL, Content-Encoding gzip", []string{"-profile", srv.URL + "/encoded/debug/pprof/allocs", "-seconds", "1"},
			"profile larger than the limit: it is larger than 16 MiB", bound(16)},
	} {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code, out, errOut := runIn(t, dir, append([]string{"allocs"}, c.args...)...)
			runtime.ReadMemStats(&after)
			if code != 1 || out != "" || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "raise the limit with -max-profile-mib") {
				t.Errorf("exit %d\nstderr %q\nwant   %q", code, errOut, c.want)
			}
			grew := after.TotalAlloc - before.TotalAlloc
			t.Logf("allocated %d MiB", grew>>20)
			if grew > c.bound {
				t.Errorf("reading a bomb of 1 GiB allocated %d MiB, want at most %d", grew>>20, c.bound>>20)
			}
		})
	}
}

// TestAllocsProfileUnsymbolized checks that a profile whose stacks hold
// addresses only is called unsymbolized, with the command that fixes it.
func TestAllocsProfileUnsymbolized(t *testing.T) {
	data, _ := proftest.UnsymbolizedProfile(t)
	file := filepath.Join(t.TempDir(), "unsymbolized.pb.gz")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runIn(t, ".", "allocs", "-profile", file)
	if code != 1 || out != "" || !strings.Contains(errOut, "is not symbolized: its allocations' stacks hold addresses only") ||
		!strings.Contains(errOut, "go tool pprof -proto -output symbolized.pb.gz BINARY PROFILE") ||
		strings.Contains(errOut, "pprof endpoint's own") {
		t.Errorf("exit %d\nstderr %q", code, errOut)
	}
}

// TestAllocsProfileHostileError checks that what a server says with an
// error status reaches the terminal with its control bytes escaped.
func TestAllocsProfileHostileError(t *testing.T) {
	body := "denied\x1b]0;owned\x07\x1b[2J\r\u202egnp.exe" + strings.Repeat("x", 400)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, body)
	}))
	defer srv.Close()
	code, out, errOut := runIn(t, ".", "allocs", "-profile", srv.URL, "-seconds", "1")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, r := range errOut {
		if r != '\n' && !unicode.IsPrint(r) {
			t.Fatalf("stderr holds %U:\n%q", r, errOut)
		}
	}
	want := `answered 403 Forbidden: "denied\x1b]0;owned\a\x1b[2J\r\u202egnp.exe` + "xxx"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "x\"…") || strings.Count(errOut, "x") > 320 {
		t.Errorf("stderr %q\nwant %q, cut at 300 bytes", errOut, want)
	}
}

// TestAllocsProfileCommandLine checks the command line's answers to
// mistakes a new user makes.
func TestAllocsProfileCommandLine(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	for _, c := range []struct {
		name    string
		args    []string
		code    int
		want    string
		notWant string
	}{
		{"-profile -h", []string{"-profile", "-h"}, 0, "usage: poolkit allocs -profile source", "no such file"},
		{"-profile without a value", []string{"-profile", "-seconds", "3"}, 2, `-profile needs a file or a URL, got the flag "-seconds"`, ""},
		{"no scheme", []string{"-profile", "localhost:6060/debug/pprof/allocs"}, 1,
			"no such file; did you mean http://localhost:6060/debug/pprof/allocs ?", ""},
		{"-seconds without -profile", []string{"-seconds", "5"}, 2,
			"-seconds applies to a running service's profile: add -profile URL-or-file", "flag provided but not defined"},
		{"-format without -profile", []string{"-format=json", "."}, 2, "-format applies to a running service's profile", ""},
		{"404", []string{"-profile", srv.URL, "-seconds", "1"}, 1, "answered 404 Not Found", "profile received"},
		{"bad -sort", []string{"-profile", "x", "-sort", "size"}, 2, `-sort must be allocs or bytes, got "size"`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runIn(t, dir, append([]string{"allocs"}, c.args...)...)
			all := out + errOut
			if code != c.code || !strings.Contains(all, c.want) || (c.notWant != "" && strings.Contains(all, c.notWant)) {
				t.Errorf("exit %d (want %d)\n%s\nwant %q, not %q", code, c.code, all, c.want, c.notWant)
			}
		})
	}
}
