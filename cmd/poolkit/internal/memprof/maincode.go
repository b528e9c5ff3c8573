package memprof

import (
	"sort"
	"strings"
)

// MainCode works out from the profile's file names which code is the
// profiled program's own, and says how, in words for the user:
//
//   - Files outside the module cache and the standard library were built
//     from a working tree: their packages, and package main, are the
//     program's own. This is a service built from its repository, with or
//     without -trimpath.
//   - When every file comes from the module cache ("module@version/…", as
//     go install module@version builds), the module of package main is,
//     and when no frame of package main allocated, the module whose code
//     is outermost on the stacks that allocated most objects (a server's
//     handlers and its connection loops).
//   - A profile that names no files gets UserCode{}: everything but the
//     runtime, the standard library and well-known third-party modules.
func (p *Profile) MainCode() (UserCode, string) {
	local := map[string]bool{}
	mainMod := ""
	outer := map[string]int64{}
	for _, s := range p.Samples {
		outerMod := ""
		for _, f := range s.Stack {
			pkg := FuncPackage(f.Func)
			if f.File == "" || IsStd(pkg) || IsRuntime(f.Func) || stdFile(f.File) {
				// A standard-library file under another package's name
				// is generic code instantiated there.
				continue
			}
			mod, ok := fileModule(f.File)
			switch {
			case !ok:
				local[pkg] = true
			case pkg == "main":
				mainMod = mod
			}
			if ok {
				outerMod = mod
			}
		}
		if outerMod != "" {
			outer[outerMod] += s.Objects
		}
	}
	if len(local) > 0 {
		local["main"] = true
		var prefixes []string
		for pkg := range local {
			prefixes = append(prefixes, pkg)
		}
		sort.Strings(prefixes)
		return UserCode{Prefixes: prefixes}, "the packages built from a working tree, not taken from the module cache: " +
			strings.Join(prefixes, ", ")
	}
	if mainMod != "" {
		return UserCode{Prefixes: []string{mainMod, "main"}}, mainMod + ", the module of package main"
	}
	best, bestN := "", int64(0)
	for mod, n := range outer {
		if n > bestN || (n == bestN && mod < best) {
			best, bestN = mod, n
		}
	}
	if best != "" {
		return UserCode{Prefixes: []string{best, "main"}}, best + ", the module outermost on the stacks that allocate most " +
			"(every file is from the module cache, so the program's own module is a guess)"
	}
	return UserCode{}, "everything but the runtime, the standard library and well-known third-party modules " +
		"(the profile names no files to tell the program's own code by)"
}

// fileModule returns the module path of a file in the module cache, as
// a profile names it: "module@version/dir/file.go" (built with -trimpath)
// or ".../pkg/mod/module@version/dir/file.go", the path's upper-case
// letters escaped as "!" and the letter.
func fileModule(file string) (string, bool) {
	m := fileModules.get(file, func(file string) moduleOf {
		mod, ok := fileModuleOf(file)
		return moduleOf{mod, ok}
	})
	return m.mod, m.ok
}

type moduleOf struct {
	mod string
	ok  bool
}

var fileModules memo[moduleOf]

func fileModuleOf(file string) (string, bool) {
	file = strings.ReplaceAll(file, "\\", "/")
	if i := strings.LastIndex(file, "/pkg/mod/"); i >= 0 {
		file = file[i+len("/pkg/mod/"):]
	}
	at := strings.Index(file, "@")
	if at < 0 {
		return "", false
	}
	mod := file[:at]
	if strings.HasPrefix(mod, "/") {
		// A module cache elsewhere than GOPATH/pkg/mod: the module path
		// starts at the last element before the version that holds a
		// dot, its host ("/cache/github.com/x/y@v1.0.0/z.go").
		elems := strings.Split(mod, "/")
		start := -1
		for i := len(elems) - 1; i >= 0; i-- {
			if strings.Contains(elems[i], ".") {
				start = i
				break
			}
		}
		if start < 0 {
			return "", false
		}
		mod = strings.Join(elems[start:], "/")
	}
	first, _, _ := strings.Cut(mod, "/")
	if !strings.Contains(first, ".") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(mod); i++ {
		if mod[i] == '!' && i+1 < len(mod) {
			i++
			b.WriteString(strings.ToUpper(mod[i : i+1]))
			continue
		}
		b.WriteByte(mod[i])
	}
	return b.String(), true
}

// stdFile reports whether file, as a profile names it, is the standard
// library's: "slices/iter.go" with -trimpath, ".../src/slices/iter.go"
// under GOROOT without.
func stdFile(file string) bool { return stdFiles.get(file, isStdFile) }

var stdFiles memo[bool]

func isStdFile(file string) bool {
	file = strings.ReplaceAll(file, "\\", "/")
	if i := strings.LastIndex(file, "/src/"); i >= 0 && strings.HasPrefix(file, "/") {
		file = file[i+len("/src/"):]
	}
	first, _, ok := strings.Cut(file, "/")
	return ok && !strings.Contains(file, "@") && IsStd(first)
}
