package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"io"
	"regexp"
	"strings"
	"testing"
)

// packageDoc returns the text of the command's documentation, doc.go's
// package comment.
func packageDoc(t *testing.T) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package comment")
	}
	return f.Doc.Text()
}

// docSection returns the text of the doc's sections whose heading
// starts with one of prefixes, up to the next heading.
func docSection(t *testing.T, doc string, prefixes ...string) string {
	t.Helper()
	var out strings.Builder
	in := false
	for _, l := range strings.Split(doc, "\n") {
		if h, ok := strings.CutPrefix(l, "# "); ok {
			in = false
			for _, p := range prefixes {
				if strings.HasPrefix(h, p) {
					in = true
				}
			}
			continue
		}
		if in {
			out.WriteString(l + "\n")
		}
	}
	if out.Len() == 0 {
		t.Fatalf("no section of the doc starts with %q", prefixes)
	}
	return out.String()
}

// usageFlag matches a flag in the output of a flag set's PrintDefaults.
var usageFlag = regexp.MustCompile(`(?m)^  -([a-z-]+)`)

// TestDocFlags checks that the doc names every flag of every command, in
// that command's section, so that a new flag does not go undocumented.
func TestDocFlags(t *testing.T) {
	doc := packageDoc(t)
	for _, c := range []struct {
		args     []string // asking for the usage
		sections []string // the headings of the sections that document it
	}{
		{[]string{"bench", "-h"}, []string{"Bench"}},
		{[]string{"allocs", "-h"}, []string{"Allocs: where"}},
		{[]string{"allocs", "-profile", "-h"}, []string{"Allocs -profile"}},
		{[]string{"vet", "-h"}, []string{"Vet"}},
	} {
		var stderr bytes.Buffer
		if code := run(c.args, io.Discard, &stderr); code != 0 {
			t.Fatalf("poolkit %q: exit %d\n%s", c.args, code, stderr.String())
		}
		flags := usageFlag.FindAllStringSubmatch(stderr.String(), -1)
		if len(flags) == 0 {
			t.Fatalf("poolkit %q lists no flags:\n%s", c.args, stderr.String())
		}
		text := docSection(t, doc, c.sections...)
		for _, f := range flags {
			if f[1] == "profile" {
				continue // the section's subject
			}
			if !regexp.MustCompile(`(^|[\s("])-` + regexp.QuoteMeta(f[1]) + `\b`).MatchString(text) {
				t.Errorf("the doc's section %q does not mention -%s of poolkit %s", c.sections, f[1], strings.Join(c.args, " "))
			}
		}
	}
}

// docCommand matches a poolkit command line in the doc: an example's
// "$ poolkit ..." or a line of a code block, or a quoted "poolkit ...".
var docCommand = regexp.MustCompile(`(?m)^\s*(?:\$ )?(poolkit (?:bench|allocs|vet)(?: [^\n>]*?)?)\s*(?:>.*)?$|"(poolkit (?:bench|allocs|vet)(?: [^"]*)?)"`)

// TestDocCommands checks that every poolkit command line the doc shows is
// one its flag parsing accepts, and that the usage at the doc's top lists
// every command.
func TestDocCommands(t *testing.T) {
	doc := packageDoc(t)
	n := 0
	for _, m := range docCommand.FindAllStringSubmatch(doc, -1) {
		line := m[1] + m[2]
		if i := strings.Index(line, "  "); i >= 0 {
			line = line[:i] // a line of the usage summary, without its description
		}
		if strings.Contains(line, "[") {
			continue // a synopsis with optional parts
		}
		args := shellWords(line)[1:]
		n++
		var err error
		switch args[0] {
		case "bench":
			_, err = parseBenchFlags(args[1:], io.Discard)
		case "allocs":
			if hasProfileFlag(args[1:]) {
				_, err = parseProfileFlags(args[1:], io.Discard)
			} else {
				_, err = parseAllocsFlags(args[1:], io.Discard)
			}
		case "vet":
			continue // flag-less in the doc
		}
		if err != nil {
			t.Errorf("the doc's %q: %v", line, err)
		}
	}
	if n < 5 {
		t.Errorf("found %d commands in the doc; the pattern misses them", n)
	}
	for _, c := range commands {
		if !strings.Contains(doc, "\tpoolkit "+c.name+" ") {
			t.Errorf("the doc's usage does not show poolkit %s", c.name)
		}
	}
}

// shellWords splits a command line at spaces, keeping what single
// quotes hold together, as a shell does for the doc's examples.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	quoted, inWord := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			inWord = true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, w.String())
				w.Reset()
			}
			inWord = false
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}
