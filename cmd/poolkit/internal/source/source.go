// Package source reads the source lines a memory profile names, and tells
// which cannot match the profiled binary.
//
// It looks for the files wherever they are at hand: the working tree, the
// module cache and GOROOT.
package source

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/poolkit/poolkit/internal/goenv"
	"github.com/poolkit/poolkit/internal/memprof"
)

// Lines reads lines of the files a profile names, when they are at
// hand, for the rules that look at the code, and notes the files that
// cannot be the ones the profiled binary was built from.
type Lines struct {
	files map[string][]string
	// taken is when the profile was taken, zero if it does not say.
	taken time.Time
	// newer are the files read that changed after the profile was
	// taken; short the lines asked for past a file's end.
	newer, short map[string]bool
}

// New returns a Lines for a profile taken at taken, zero if the profile
// does not say.
func New(taken time.Time) *Lines {
	return &Lines{files: map[string][]string{}, taken: taken, newer: map[string]bool{}, short: map[string]bool{}}
}

// Line returns line n (1-based) of file, as a profile names it: an
// absolute path, or with -trimpath "module@version/dir/file.go" (found in
// the module cache), "net/http/server.go" (the standard library, under
// GOROOT) or "example.com/svc/dir/file.go" (a module built from its
// working tree, looked for under the working directory).
func (s *Lines) Line(file string, n int64) (string, bool) {
	lines, ok := s.files[file]
	if !ok {
		var mod time.Time
		lines, mod = s.find(file)
		// Only a working tree's file can change under its name: the
		// module cache's and GOROOT's come back with a zero time.
		if lines != nil && !s.taken.IsZero() && !mod.IsZero() && mod.After(s.taken) {
			s.newer[file] = true
		}
		s.files[file] = lines
	}
	if lines != nil && (n < 1 || n > int64(len(lines))) {
		s.short[file] = true
	}
	if n < 1 || n > int64(len(lines)) {
		return "", false
	}
	return lines[n-1], true
}

func (s *Lines) find(file string) ([]string, time.Time) {
	if lines, mod := readLines(file); lines != nil {
		return lines, mod
	}
	slash := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		// Built on another machine: a file of its module cache is in
		// this one's, the same version the same bytes; any other, look
		// for the path's tails here, as for an import path.
		if i := strings.LastIndex(slash, "/pkg/mod/"); i >= 0 && strings.Contains(slash[i:], "@") {
			if cache, err := goenv.GOMODCACHE(); err == nil {
				return unchanging(readLines(filepath.Join(cache, filepath.FromSlash(slash[i+len("/pkg/mod/"):]))))
			}
			return nil, time.Time{}
		}
		return tails(strings.TrimPrefix(slash, "/"))
	}
	first, _, _ := strings.Cut(slash, "/")
	if mod, rest, ok := strings.Cut(slash, "@"); ok && strings.Contains(first, ".") {
		// A module version: its files in the module cache are the very
		// ones it was built from.
		if cache, err := goenv.GOMODCACHE(); err == nil {
			if lines, _ := readLines(filepath.Join(cache, filepath.FromSlash(escapeModule(mod)+"@"+rest))); lines != nil {
				return lines, time.Time{}
			}
		}
		return nil, time.Time{}
	}
	if !strings.Contains(first, ".") && memprof.IsStd(first) {
		if root, err := goenv.GOROOT(); err == nil {
			return unchanging(readLines(filepath.Join(root, "src", filepath.FromSlash(slash))))
		}
		return nil, time.Time{}
	}
	return tails(slash)
}

// unchanging drops the time a file changed, for files that do not change
// under their name: the module cache's, and GOROOT's (a different Go
// version is not told by a time).
func unchanging(lines []string, _ time.Time) ([]string, time.Time) { return lines, time.Time{} }

// tails tries the tails of a slash-separated path under the working
// directory, longest first, a bare file name only when the working
// directory has the name of its package's directory, so that a main.go
// here is not taken for another.
func tails(slash string) ([]string, time.Time) {
	parts := strings.Split(slash, "/")
	wd, _ := os.Getwd()
	for i := 1; i < len(parts); i++ {
		if i == len(parts)-1 && filepath.Base(wd) != parts[i-1] {
			break
		}
		if lines, mod := readLines(filepath.FromSlash(strings.Join(parts[i:], "/"))); lines != nil {
			return lines, mod
		}
	}
	return nil, time.Time{}
}

// escapeModule writes a module path as the module cache names its
// directory: each upper-case letter as "!" and the letter in lower case.
func escapeModule(path string) string {
	var b strings.Builder
	for _, r := range path {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Mismatch lists the files whose lines cannot be the profiled binary's,
// sorted, and why, for a warning; nil when there are none.
func (s *Lines) Mismatch() []string {
	var out []string
	for f := range s.newer {
		out = append(out, f+" (changed after the profile was taken)")
	}
	for f := range s.short {
		if !s.newer[f] {
			out = append(out, f+" (shorter than the profile's line numbers)")
		}
	}
	sort.Strings(out)
	return out
}

// readLines returns the lines of a regular file of a source file's size
// and when it last changed, nil if there is none.
func readLines(file string) ([]string, time.Time) {
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 8<<20 {
		return nil, time.Time{}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, time.Time{}
	}
	return strings.Split(string(b), "\n"), fi.ModTime()
}
