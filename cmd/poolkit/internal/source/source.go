// Package source reads the source lines a memory profile names, and tells
// which cannot match the profiled binary.
//
// A profile is a stranger's text: it may come from a server over the
// network, and its file names are whatever that server wrote. So the
// package reads only Go source files (names ending in .go, after every
// symbolic link is followed) that lie under the roots poolkit has reason
// to trust: the module around the working directory, the module cache and
// GOROOT. Anything else is not read, and nothing of it reaches a report.
package source

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof"
	"github.com/poolkit/poolkit/internal/goenv"
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
	// roots are the directories whose Go files may be read, every
	// symbolic link in them resolved; set on first use.
	roots     []string
	rootsDone bool
	// wd is the working directory, where a file's name is looked for by
	// its tails (see tails); nil until first used.
	wd *dir
	// work counts the steps taken to find files: a directory entry
	// looked up and each byte of a path built or handed to the file
	// system. Tests check that it grows with the profile, not faster.
	work int64
}

// dir is a directory under the working directory, with what is known of
// its entries, so that each entry is asked of the file system once.
type dir struct {
	path string // relative to the working directory, "" for itself
	// sub are the entries looked up: a directory, or nil when the name
	// is not one.
	sub map[string]*dir
	// file are the entries looked up as files: true for a regular file.
	file map[string]bool
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
// working tree, looked for under the working directory). It reads only Go
// files under the trusted roots (see the package doc).
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
	if !strings.HasSuffix(file, ".go") {
		return nil, time.Time{}
	}
	if lines, mod := s.read(file); lines != nil {
		return lines, mod
	}
	slash := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		// Built on another machine: a file of its module cache is in
		// this one's, the same version the same bytes; any other, look
		// for the path's tails here, as for an import path.
		if i := strings.LastIndex(slash, "/pkg/mod/"); i >= 0 && strings.Contains(slash[i:], "@") {
			if cache, err := goenv.GOMODCACHE(); err == nil {
				return unchanging(s.read(filepath.Join(cache, filepath.FromSlash(slash[i+len("/pkg/mod/"):]))))
			}
			return nil, time.Time{}
		}
		return s.tails(strings.TrimPrefix(slash, "/"))
	}
	first, _, _ := strings.Cut(slash, "/")
	if mod, rest, ok := strings.Cut(slash, "@"); ok && strings.Contains(first, ".") {
		// A module version: its files in the module cache are the very
		// ones it was built from.
		if cache, err := goenv.GOMODCACHE(); err == nil {
			if lines, _ := s.read(filepath.Join(cache, filepath.FromSlash(escapeModule(mod)+"@"+rest))); lines != nil {
				return lines, time.Time{}
			}
		}
		return nil, time.Time{}
	}
	if !strings.Contains(first, ".") && memprof.IsStd(first) {
		if root, err := goenv.GOROOT(); err == nil {
			return unchanging(s.read(filepath.Join(root, "src", filepath.FromSlash(slash))))
		}
		return nil, time.Time{}
	}
	return s.tails(slash)
}

// unchanging drops the time a file changed, for files that do not change
// under their name: the module cache's, and GOROOT's (a different Go
// version is not told by a time).
func unchanging(lines []string, _ time.Time) ([]string, time.Time) { return lines, time.Time{} }

// tails looks for the tails of a slash-separated path under the working
// directory, longest first, a bare file name only when the working
// directory has the name of its package's directory, so that a main.go
// here is not taken for another.
//
// It walks down from the working directory, one entry at a time, asking
// the file system about each entry of each directory once: a tail that
// leaves the real tree is dropped at its first missing directory, so the
// work is the path's length times the depth of the real tree under the
// working directory, not the path's length squared.
func (s *Lines) tails(slash string) ([]string, time.Time) {
	parts := strings.Split(slash, "/")
	s.work += int64(len(parts))
	if s.wd == nil {
		s.wd = &dir{sub: map[string]*dir{}, file: map[string]bool{}}
	}
	last := len(parts) - 1
	for i := 1; i <= last; i++ {
		if i == last {
			wd, _ := os.Getwd()
			if filepath.Base(wd) != parts[last-1] {
				break
			}
		}
		d := s.wd
		for j := i; j < last && d != nil; j++ {
			d = s.sub(d, parts[j])
		}
		if d == nil || !s.isFile(d, parts[last]) {
			continue
		}
		if lines, mod := s.read(filepath.Join(d.path, parts[last])); lines != nil {
			return lines, mod
		}
	}
	return nil, time.Time{}
}

// sub returns the directory name in d, nil if there is none: the file
// system is asked once per name and directory.
func (s *Lines) sub(d *dir, name string) *dir {
	s.work += int64(len(name)) + 1
	if c, ok := d.sub[name]; ok {
		return c
	}
	var c *dir
	if name != "" && name != "." && name != ".." {
		p := filepath.Join(d.path, name)
		s.work += int64(len(p))
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			c = &dir{path: p, sub: map[string]*dir{}, file: map[string]bool{}}
		}
	}
	d.sub[name] = c
	return c
}

// isFile reports whether d holds a regular file name, asking the file
// system once per name and directory.
func (s *Lines) isFile(d *dir, name string) bool {
	s.work += int64(len(name)) + 1
	if ok, seen := d.file[name]; seen {
		return ok
	}
	p := filepath.Join(d.path, name)
	s.work += int64(len(p))
	fi, err := os.Stat(p)
	ok := err == nil && fi.Mode().IsRegular()
	d.file[name] = ok
	return ok
}

// read returns the lines of file and when it last changed, nil if file,
// once every symbolic link in it is followed, is not a Go source file
// under a trusted root.
func (s *Lines) read(file string) ([]string, time.Time) {
	s.work += int64(len(file))
	if !strings.HasSuffix(file, ".go") {
		return nil, time.Time{}
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, time.Time{}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || !strings.HasSuffix(real, ".go") || !s.trusted(real) {
		return nil, time.Time{}
	}
	return readLines(real)
}

// trusted reports whether path, absolute and with no symbolic links,
// lies under one of the trusted roots.
func (s *Lines) trusted(path string) bool {
	if !s.rootsDone {
		s.rootsDone = true
		s.roots = trustedRoots()
	}
	for _, r := range s.roots {
		if path == r || strings.HasPrefix(path, r+string(filepath.Separator)) ||
			(strings.HasSuffix(r, string(filepath.Separator)) && strings.HasPrefix(path, r)) {
			return true
		}
	}
	return false
}

// trustedRoots returns the directories whose Go files poolkit may read,
// each absolute with every symbolic link resolved: the module that holds
// the working directory (the nearest directory upwards with a go.mod),
// the module cache and GOROOT, those the go command on PATH names.
func trustedRoots() []string {
	var roots []string
	add := func(dir string) {
		if dir == "" {
			return
		}
		if abs, err := filepath.Abs(dir); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				roots = append(roots, real)
			}
		}
	}
	add(moduleRoot())
	if cache, err := goenv.GOMODCACHE(); err == nil {
		add(cache)
	}
	if root, err := goenv.GOROOT(); err == nil {
		add(root)
	}
	return roots
}

// moduleRoot returns the nearest directory, from the working directory
// upwards, that holds a go.mod file, "" if there is none.
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && fi.Mode().IsRegular() {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
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
