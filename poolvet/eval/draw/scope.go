package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ownFiles calls fn with each .go file of the module rooted at root that
// a draw looks at: not a test, not under vendor/ or testdata/, not in a
// module nested inside this one, and, when skipIgnored is set, not under
// a directory the go command ignores (a name starting with "_" or ".").
// The draw itself was made without skipIgnored, and keeps it that way
// so that it stays the same draw.
func ownFiles(root string, skipIgnored bool, fn func(path string, src []byte) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "vendor" || name == "testdata" || (skipIgnored && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, "."))) || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return fn(path, src)
	})
}

// scope returns the package patterns ("./dir") that poolvet runs on in
// the module module rooted at root: the directories with a file that
// mentions sync.Pool, and the directories with a file importing one of
// those packages (where Get and Put through the first ones' helpers
// are).
func scope(root, module string) ([]string, error) {
	pools := map[string]bool{}
	imports := map[string][]string{} // dir -> import paths of its files
	err := ownFiles(root, true, func(path string, src []byte) error {
		dir := filepath.Dir(path)
		if bytes.Contains(src, []byte("sync.Pool")) {
			pools[dir] = true
		}
		for _, line := range strings.Split(string(src), "\n") {
			line = strings.TrimSpace(line)
			if i := strings.Index(line, `"`+module); i >= 0 {
				if p, err := strconv.Unquote(strings.Fields(line[i:])[0]); err == nil {
					imports[dir] = append(imports[dir], p)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	pathOf := func(dir string) string {
		rel, _ := filepath.Rel(root, dir)
		if rel == "." {
			return module
		}
		return module + "/" + filepath.ToSlash(rel)
	}
	poolPaths := map[string]bool{}
	for dir := range pools {
		poolPaths[pathOf(dir)] = true
	}
	in := map[string]bool{}
	for dir := range pools {
		in[dir] = true
	}
	for dir, ps := range imports {
		for _, p := range ps {
			if poolPaths[p] {
				in[dir] = true
			}
		}
	}
	var pats []string
	for dir := range in {
		rel, _ := filepath.Rel(root, dir)
		pats = append(pats, "./"+filepath.ToSlash(rel))
	}
	slices.Sort(pats)
	return pats, nil
}
