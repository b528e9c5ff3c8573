package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// vetOutput is go vet -json output as go prints it: a package with two
// reports (one of them printed twice, for the package and its test
// variant), a clean package, an analyzer error, and a build error with
// its package header.
const vetOutput = `{
	"example.com/m": {
		"nonptrput": [
			{
				"posn": "/src/m/a.go:10:5",
				"end": "/src/m/a.go:10:9",
				"message": "p.Put of []byte allocates {like this}"
			},
			{
				"posn": "/src/m/a.go:10:5",
				"end": "/src/m/a.go:10:9",
				"message": "p.Put of []byte allocates {like this}"
			}
		],
		"retention": [
			{
				"posn": "/src/m/sub/b.go:3:1",
				"end": "/src/m/sub/b.go:3:2",
				"message": "kept whatever its size"
			}
		]
	}
}
{}
{
	"example.com/m/c": {
		"getnoput": {
			"error": "analysis failed"
		}
	}
}
# example.com/m/d
d/d.go:1:1: undefined: x
`

func TestParse(t *testing.T) {
	res, err := parse("example.com/m", "/src/m", strings.NewReader(vetOutput))
	if err != nil {
		t.Fatal(err)
	}
	want := []finding{
		{"example.com/m", "nonptrput", "a.go:10:5", "p.Put of []byte allocates {like this}"},
		{"example.com/m", "retention", "sub/b.go:3:1", "kept whatever its size"},
	}
	if !reflect.DeepEqual(res.findings, want) {
		t.Errorf("findings\n%v\nwant\n%v", res.findings, want)
	}
	wantErrs := []string{"example.com/m/c: getnoput: analysis failed", "d/d.go:1:1: undefined: x"}
	if !reflect.DeepEqual(res.errors, wantErrs) {
		t.Errorf("errors %q, want %q", res.errors, wantErrs)
	}
}

func TestParseTruncated(t *testing.T) {
	if _, err := parse("m", "/", strings.NewReader("{\n\t\"m\": {\n")); err == nil {
		t.Error("output ending inside an object was accepted")
	}
}

func TestFileLine(t *testing.T) {
	for in, want := range map[string]string{
		"a.go:10:5":       "a.go:10",
		"dir/a.go:1:2":    "dir/a.go:1",
		"a.go":            "a.go",
		"c:/x/a.go:3:4":   "c:/x/a.go:3",
		"no-column.go:12": "no-column.go:12",
	} {
		if got := fileLine(in); got != want {
			t.Errorf("fileLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadVerdicts(t *testing.T) {
	vs, err := readVerdicts(strings.NewReader("# comment\n\nm\tnonptrput\ta.go:10\ttrue-minor\tboxes a slice\n"), "v")
	if err != nil {
		t.Fatal(err)
	}
	if v := vs[key{"m", "nonptrput", "a.go:10"}]; v != (verdict{"true-minor", "boxes a slice"}) {
		t.Errorf("verdict %v", v)
	}
	for _, bad := range []string{
		"m\tnonptrput\ta.go:10\ttrue\n",                   // no reason
		"m\tnonptrput\ta.go:10\tmaybe\tunsure\n",          // no such verdict
		"m\tx\ta.go:1\ttrue\tr\nm\tx\ta.go:1\tfalse\tr\n", // two verdicts
	} {
		if _, err := readVerdicts(strings.NewReader(bad), "v"); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestCaughtBy(t *testing.T) {
	reported := map[key]bool{
		{"m", "nonptrput", "a.go:10"}: true,
		{"m", "retention", "a.go:12"}: true,
		{"n", "nonptrput", "a.go:11"}: true,
	}
	for _, tc := range []struct {
		p    problem
		want []string
	}{
		{problem{"m", "*", []string{"a.go:11", "a.go:12"}, ""}, []string{"retention"}},
		{problem{"m", "nonptrput", []string{"a.go:12"}, ""}, nil},
		{problem{"m", "nonptrput", []string{"a.go:10"}, ""}, []string{"nonptrput"}},
		{problem{"n", "*", []string{"a.go:10"}, ""}, nil},
	} {
		if got := tc.p.caughtBy(reported); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v caught by %v, want %v", tc.p, got, tc.want)
		}
	}
}

// TestRun scores a module's reports: one triaged true-minor, one opt-in
// report left untriaged, and one problem caught only with -all.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("example.com_m.json", vetOutput)
	verdicts := write("verdicts", "example.com/m\tnonptrput\ta.go:10\ttrue-minor\tboxes a slice\n")
	problems := write("problems", "example.com/m\t*\tsub/b.go:3\tgrows and is kept\nexample.com/m\t*\tx.go:1\tnot reported\n")
	list := filepath.Join(dir, "findings")
	var out bytes.Buffer
	if err := run(&out, dir, list, verdicts, problems, false, []string{"example.com/m=/src/m"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"default checks: 1 reports: true 0, true-minor 1, debatable 0, false 0, untriaged 0; false positives 0/1 (0%)",
		"with -all: 2 reports: true 0, true-minor 1, debatable 0, false 0, untriaged 1; false positives 0/1 (0%)",
		"untriaged: example.com/m\tretention\tsub/b.go:3:1",
		"problems found by reading: 2; caught by the default checks 0/2 (0%), with -all 1/2 (50%)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	b, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	if want := "example.com/m\tnonptrput\ta.go:10:5\ttrue-minor\tp.Put of []byte allocates {like this}\tboxes a slice\n"; !strings.HasPrefix(string(b), want) {
		t.Errorf("findings file starts %q, want %q", b, want)
	}
}

func TestScored(t *testing.T) {
	for posn, want := range map[string]bool{
		"a.go:10:5":                   true,
		"sub/b.go:3:1":                true,
		"a_test.go:1:1":               false,
		"vendor/x/y.go:1:1":           false,
		"sub/testdata/src/a.go:2:1":   false,
		"/root/go/pkg/mod/x.go:1:1":   false, // outside the module's copy
		"testdatax/a.go:1:1":          true,
		"internal/_upstream/a.go:1:1": false,
	} {
		if got := scored(posn); got != want {
			t.Errorf("scored(%q) = %v, want %v", posn, got, want)
		}
	}
}
