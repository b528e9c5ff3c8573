package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/cmdtest"
)

// corpusModules are the module versions the corpus's profiles were built
// from: their source, in the module cache, is what the advice reads.
var corpusModules = []string{
	"github.com/mccutchen/go-httpbin/v2@v2.26.0",
	"github.com/nats-io/nats-server/v2@v2.15.2",
	"github.com/caddyserver/caddy/v2@v2.11.9",
}

// corpusAnswer is a line of testdata/corpus/answers.txt.
type corpusAnswer struct {
	profile, fn string
	line        string
	pkg         string // "" for no rule
	why         string
}

func readAnswers(t *testing.T) []corpusAnswer {
	t.Helper()
	f, err := os.Open("testdata/corpus/answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusAnswer
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := strings.Split(l, " | ")
		if len(p) != 5 {
			t.Fatalf("answers.txt: %q has %d fields, want 5", l, len(p))
		}
		a := corpusAnswer{p[0], p[1], p[2], p[3], p[4]}
		if a.pkg == "-" {
			a.pkg = ""
		}
		out = append(out, a)
	}
	return out
}

// TestCorpus reads real servers' heap profiles (testdata/corpus) and
// holds the advice to the answers written by hand from their code: every
// site with 5% or more of a profile's bytes or allocations must have an
// answer, and its advice must name exactly the package the answer names,
// or none where the answer is "no rule".
func TestCorpus(t *testing.T) {
	cmdtest.NeedGo(t)
	// The advice reads the modules' source from the module cache.
	dl := exec.Command("go", append([]string{"mod", "download"}, corpusModules...)...)
	dl.Dir = t.TempDir()
	dl.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := dl.CombinedOutput(); err != nil {
		t.Skipf("cannot download the corpus's modules: %v\n%s", err, out)
	}
	answers := readAnswers(t)
	byProfile := map[string]map[string]corpusAnswer{}
	for _, a := range answers {
		if byProfile[a.profile] == nil {
			byProfile[a.profile] = map[string]corpusAnswer{}
		}
		byProfile[a.profile][a.fn+":"+a.line] = a
	}
	if len(byProfile) < 3 {
		t.Fatalf("answers for %d profiles, want 3 or more", len(byProfile))
	}
	named, right := 0, 0
	for profile, want := range byProfile {
		t.Run(profile, func(t *testing.T) {
			file, err := filepath.Abs(filepath.Join("testdata/corpus", profile))
			if err != nil {
				t.Fatal(err)
			}
			// The jsonapi program's own source is in its directory: a
			// copy, dated before the profile as the file it was built
			// from was (a checkout dates it now).
			dir := t.TempDir()
			if profile == "jsonapi.pb.gz" {
				dir = filepath.Join(dir, "jsonapi")
				src, err := os.ReadFile("testdata/corpus/tools/jsonapi/main.go")
				if err != nil {
					t.Fatal(err)
				}
				old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(filepath.Join(dir, "main.go"), old, old); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errOut := runIn(t, dir, "allocs", "-profile", file, "-top", "0", "-format", "json")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			rep := decodeReport(t, out)
			if len(rep.SourceMismatch) > 0 {
				t.Errorf("source mismatch %q: the sources read are the very files built", rep.SourceMismatch)
			}
			seen := map[string]bool{}
			for _, s := range rep.Sites {
				big := float64(s.Bytes) >= 0.05*float64(rep.Total.Bytes) || float64(s.Allocs) >= 0.05*float64(rep.Total.Allocs)
				if !big {
					continue
				}
				key := s.Func + ":" + strconv.FormatInt(s.Line, 10)
				seen[key] = true
				a, ok := want[key]
				if !ok {
					t.Errorf("site %s (%d B, %d allocs) has no answer in answers.txt; advice %q", key, s.Bytes, s.Allocs, s.Advice)
					continue
				}
				if s.UserCode && s.Code == "" && profile != "jsonapi.pb.gz" {
					t.Errorf("%s: no source line: the module cache holds %s", key, s.File)
				}
				if s.Package != "" {
					named++
					if s.Package == a.pkg {
						right++
					}
				}
				if s.Package != a.pkg {
					t.Errorf("%s: advice names %q, the answer is %q (%s)\nadvice: %s", key, s.Package, a.pkg, a.why, s.Advice)
				}
			}
			for key := range want {
				if !seen[key] {
					t.Errorf("answer for %s: no such site with 5%% or more", key)
				}
			}
		})
	}
	t.Logf("packages named on pinned sites: %d, of them right: %d", named, right)
}

// TestAllocsProfileSortAndTotals checks -sort bytes and that the JSON's
// total is the sum of the sites shown and those left past -top.
func TestAllocsProfileSortAndTotals(t *testing.T) {
	file, err := filepath.Abs("testdata/corpus/caddy.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, sortBy := range []string{"allocs", "bytes"} {
		code, out, errOut := runIn(t, t.TempDir(), "allocs", "-profile", file, "-top", "5", "-format", "json", "-sort", sortBy)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		rep := decodeReport(t, out)
		if rep.SortedBy != sortBy || len(rep.Sites) != 5 || rep.NotShown.Sites == 0 {
			t.Fatalf("sorted by %q, %d sites shown, %d not", rep.SortedBy, len(rep.Sites), rep.NotShown.Sites)
		}
		allocs, bytes, samples := rep.NotShown.Allocs, rep.NotShown.Bytes, rep.NotShown.Samples
		for i, s := range rep.Sites {
			allocs += s.Allocs
			bytes += s.Bytes
			samples += s.Samples
			if i == 0 {
				continue
			}
			prev := rep.Sites[i-1]
			if (sortBy == "bytes" && s.Bytes > prev.Bytes) || (sortBy == "allocs" && s.Allocs > prev.Allocs) {
				t.Errorf("-sort %s: site %d (%d allocs, %d B) after (%d allocs, %d B)", sortBy, i, s.Allocs, s.Bytes, prev.Allocs, prev.Bytes)
			}
		}
		if allocs != rep.Total.Allocs || bytes != rep.Total.Bytes || samples < rep.Total.Samples-1 || samples > rep.Total.Samples+1 {
			t.Errorf("-sort %s: sites and the rest sum to %d allocs, %d B, %.1f samples; total says %d, %d, %.1f",
				sortBy, allocs, bytes, samples, rep.Total.Allocs, rep.Total.Bytes, rep.Total.Samples)
		}
		if rep.Total.AllocsPerSec == nil || *rep.Total.AllocsPerSec <= 0 || rep.LeftOut.PprofHandlerAllocs <= 0 {
			t.Errorf("total %+v, left out %+v", rep.Total, rep.LeftOut)
		}
	}
}
