package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/poolkit/poolkit/cmd/poolkit/internal/memprof/proftest"
)

// hostileNames are names with terminal escapes: CSI and OSC sequences,
// BEL, a carriage return, a right-to-left override, the one-byte CSI
// U+009B, a line separator and a byte that is not UTF-8.
const hostileNames = "\x1b[2J\x1b]0;owned\x07\r\u202egnp.exe\u009b31m\u2028\xff"

// TestAllocsProfileEscapes checks that the text report writes the control
// characters of function names, file names and dependency frames as
// visible escapes, and that the JSON does too, so that both show them on
// a terminal as text and the JSON still decodes to the names as they are.
func TestAllocsProfileEscapes(t *testing.T) {
	user := proftest.Frame{Func: "main.handle" + hostileNames, File: "/srv/" + hostileNames + ".go", Line: 7}
	dep := proftest.Frame{Func: "example.com/dep" + hostileNames + ".Build", File: "example.com/dep@v1.0.0/" + hostileNames + ".go", Line: 3}
	prof := writeProfile(t, []proftest.Stack{
		{Frames: []proftest.Frame{{Func: "runtime.mallocgc", File: "runtime/malloc.go", Line: 1}, dep, user}, Objects: 1000, Bytes: 64000},
		{Frames: []proftest.Frame{{Func: "runtime.makeslice", File: "runtime/slice.go", Line: 1}, user}, Objects: 10, Bytes: 640},
		{Frames: []proftest.Frame{{Func: "runtime.makeslice", File: "runtime/slice.go", Line: 1}, dep}, Objects: 10, Bytes: 640},
	})
	for _, format := range []string{"text", "json"} {
		code, out, errOut := runIn(t, t.TempDir(), "allocs", "-profile", prof, "-format", format, "-top", "0", "-user", "main")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		for i, r := range out {
			if r != '\n' && !unicode.IsPrint(r) {
				t.Fatalf("%s report holds %U at byte %d:\n%q", format, r, i, out)
			}
		}
		if format == "text" {
			for _, want := range []string{
				`main.handle\x1b[2J\x1b]0;owned\a\r\u202egnp.exe\u009b31m\u2028\xff`,
				`example.com/dep\x1b[2J\x1b]0;owned\a\r\u202egnp.exe\u009b31m\u2028\xff.Build`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("text report lacks %s:\n%s", want, out)
				}
			}
			continue
		}
		// encoding/json, the oracle, reads the names back as they were,
		// but for the byte that is not UTF-8.
		rep := decodeReport(t, out)
		var funcs []string
		for _, s := range rep.Sites {
			funcs = append(funcs, s.Func, s.AllocIn)
		}
		clean := strings.ToValidUTF8(hostileNames, "\uFFFD")
		want := []string{"main.handle" + clean, "example.com/dep" + clean + ".Build"}
		for _, w := range want {
			found := false
			for _, f := range funcs {
				found = found || f == w
			}
			if !found {
				t.Errorf("JSON names %q, want %q among them", funcs, w)
			}
		}
	}
}

// TestHTMLEscapes checks that the bench report's page escapes the text it
// shows: markup as entities, control characters as numeric references.
func TestHTMLEscapes(t *testing.T) {
	evil := `<script>alert(1)</script>"` + hostileNames
	rep := &report{Elapsed: evil, Env: env{GoVersion: evil, GOOS: evil, GOARCH: evil, CPU: evil, Benchtime: evil, Clock: evil, Date: evil},
		Rows: []reportRow{{Workload: evil, Variant: "naive", Label: evil, Runs: 1, Error: evil}}}
	v := reflect.ValueOf(rep.Env)
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String && f.String() != evil {
			t.Fatalf("env.%s is not set to the hostile text", v.Type().Field(i).Name)
		}
	}
	var page bytes.Buffer
	writeHTML(&page, rep)
	p := page.String()
	if strings.Contains(p, "<script") {
		t.Errorf("page holds a raw <script>:\n%s", p)
	}
	for i, r := range p {
		if r != '\n' && !unicode.IsPrint(r) {
			t.Fatalf("page holds %U at byte %d", r, i)
		}
	}
	if !strings.Contains(p, "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&#x1b;[2J") {
		t.Errorf("page lacks the escaped text:\n%s", p)
	}
}
