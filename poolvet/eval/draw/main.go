// Command draw draws Go modules at random, with a fixed seed, from the
// modules listed in candidates.txt, keeping those whose source declares
// a sync.Pool, so that poolvet is measured on code nobody chose.
//
// Usage:
//
//	draw [-n 60] [-draws 1] [-j 4] [-candidates candidates.txt]
//	draw -scope DIR=MODULE
//
// The candidates are shuffled once with the seed below; they are then
// taken in that order, and each is downloaded (go mod download -json
// MODULE@VERSION) and kept when a .go file of its own, not a test file
// and not under vendor/ or testdata/, mentions sync.Pool. The first -n
// kept form draw A, the next -n draw B, and so on up to -draws draws:
// drawing one draw never looks at the modules of the next, so B can
// stay unseen while the rules are developed on A, and drawing B later
// gives the same A. A module that does not download is skipped and
// said so on standard error.
//
// Standard output is one line per kept module: draw, module, version,
// the number of its files that mention sync.Pool, and the module's
// source directory in the module cache. Standard error ends with how
// many candidates were looked at and how many were kept.
//
// With -scope, draw prints the package patterns run.sh runs poolvet on
// in a drawn module: the directories with a file mentioning sync.Pool,
// and those with a file importing one of their packages.
//
// candidates.txt is the module and version columns of the package
// list this workplace provides (go-partial.tsv: about 1,200 modules
// the Go module proxy serves), keeping the rows whose version column
// is a version:
//
//	awk -F'\t' 'NR>1 && $2 ~ /^v/ {print $1" "$2}' go-partial.tsv >candidates.txt
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
)

// seed fixes the draw. It was chosen before any module was looked at
// and must not change: a new seed is a new draw, and the figures of
// the old one stand as they came.
const seed = 20261129

type candidate struct{ module, version string }

type outcome struct {
	dir   string
	pools int // files mentioning sync.Pool
	err   error
}

func main() {
	n := flag.Int("n", 60, "modules per draw")
	draws := flag.Int("draws", 1, "number of draws to make (1: A, 2: A and B)")
	jobs := flag.Int("j", 4, "downloads at a time")
	list := flag.String("candidates", "candidates.txt", "module and version, one pair a line")
	scopeOf := flag.String("scope", "", "print the package patterns poolvet runs on in the module `DIR=MODULE`, and exit")
	flag.Parse()
	if *scopeOf != "" {
		dir, module, _ := strings.Cut(*scopeOf, "=")
		pats, err := scope(dir, module)
		if err != nil {
			fmt.Fprintln(os.Stderr, "draw:", err)
			os.Exit(1)
		}
		fmt.Println(strings.Join(pats, "\n"))
		return
	}
	cands, err := read(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "draw:", err)
		os.Exit(1)
	}
	order := shuffle(cands)

	// Look at candidates in order, *jobs at a time, and stop as soon
	// as the draws are full.
	results := make([]chan outcome, len(order))
	for i := range results {
		results[i] = make(chan outcome, 1)
	}
	next := 0
	start := func() {
		if next < len(order) {
			c, ch := order[next], results[next]
			go func() { ch <- look(c) }()
			next++
		}
	}
	for range *jobs {
		start()
	}
	want := *n * *draws
	kept, looked, failed := 0, 0, 0
	for i, c := range order {
		if kept == want {
			break
		}
		o := <-results[i]
		start()
		looked++
		switch {
		case o.err != nil:
			failed++
			fmt.Fprintf(os.Stderr, "skip %s@%s: %v\n", c.module, c.version, o.err)
		case o.pools > 0:
			fmt.Printf("%c %s %s %d %s\n", 'A' + kept / *n, c.module, c.version, o.pools, o.dir)
			kept++
		}
	}
	fmt.Fprintf(os.Stderr, "looked at %d of %d candidates: %d did not download, %d declare a sync.Pool and were kept\n",
		looked, len(order), failed, kept)
	if kept < want {
		os.Exit(1)
	}
}

func read(name string) ([]candidate, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cs []candidate
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s: %q is not a module and a version", name, sc.Text())
		}
		cs = append(cs, candidate{fields[0], fields[1]})
	}
	return cs, sc.Err()
}

// shuffle returns the candidates in the order the seed gives them.
func shuffle(cs []candidate) []candidate {
	r := rand.New(rand.NewPCG(seed, seed))
	out := make([]candidate, len(cs))
	for i, j := range r.Perm(len(cs)) {
		out[i] = cs[j]
	}
	return out
}

// look downloads a candidate and counts its files that mention sync.Pool.
func look(c candidate) outcome {
	cmd := exec.Command("go", "mod", "download", "-json", c.module+"@"+c.version)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return outcome{err: fmt.Errorf("%s", info.Error)}
	}
	if err != nil {
		return outcome{err: err}
	}
	if info.Dir == "" {
		return outcome{err: fmt.Errorf("go mod download gave no directory")}
	}
	pools := 0
	err = ownFiles(info.Dir, false, func(_ string, src []byte) error {
		if bytes.Contains(src, []byte("sync.Pool")) {
			pools++
		}
		return nil
	})
	return outcome{dir: info.Dir, pools: pools, err: err}
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
