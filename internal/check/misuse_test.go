package check_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// misuse is built once with -tags poolkitcheck for all the subtests.
var (
	buildOnce sync.Once
	misuseBin string
	buildErr  string
)

func buildMisuse(t *testing.T) string {
	t.Helper()
	goCmd := pooltest.GoCommand(t, "builds and runs programs with the go command")
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "poolkit-misuse")
		if err != nil {
			buildErr = err.Error()
			return
		}
		misuseBin = filepath.Join(dir, "misuse")
		out, err := exec.Command(goCmd, "build", "-tags", "poolkitcheck", "-o", misuseBin, "./testdata/misuse").CombinedOutput()
		if err != nil {
			buildErr = err.Error() + "\n" + string(out)
		}
	})
	if buildErr != "" {
		t.Fatalf("go build -tags poolkitcheck ./testdata/misuse: %s", buildErr)
	}
	return misuseBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if misuseBin != "" {
		os.RemoveAll(filepath.Dir(misuseBin))
	}
	os.Exit(code)
}

// marks maps each "// L:name" in the misuse program to its line number.
func marks(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open("testdata/misuse/main.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if _, name, ok := strings.Cut(sc.Text(), "// L:"); ok {
			m[strings.TrimSpace(name)] = n
		}
	}
	return m
}

// TestMisuseStops runs each misuse of a pool in a program built with
// -tags poolkitcheck and checks that it fails as checked mode promises: a
// double Put or a use after Put of Go-heap memory panics with a report that
// starts with "poolkit:", says "after Put" and names the first Put's line,
// at the line of the second Put or of the call that found the write; a
// read or write after Put of checked memory faults, with the offending
// line as the first frame of the program's own code after the fault.
func TestMisuseStops(t *testing.T) {
	bin := buildMisuse(t)
	line := marks(t)
	type kind int
	const (
		report kind = iota // a poolkit panic
		fault              // a page fault
	)
	tests := []struct {
		program string
		kind    kind
		message string // for reports: the message after "poolkit: ", with {mark} for line numbers
		at      string // the mark of the line the trace must show
	}{
		{"pool-double-put-pointer", report, `pool.Pool[*main.object] value Put again after Put (first Put at main.go:{pool-ptr-put1})`, "pool-ptr-put2"},
		{"pool-double-put-slice-reset", report, `pool.Pool[[]uint8] value Put again after Put (first Put at main.go:{pool-slice-put1})`, "pool-slice-put2"},
		{"pool-double-put-struct", report, `pool.Pool[main.record] value Put again after Put (first Put at main.go:{pool-struct-put1})`, "pool-struct-put2"},
		{"pool-double-put-map-stats", report, `pool.Pool[map[string]int] value Put again after Put (first Put at main.go:{pool-map-put1})`, "pool-map-put2"},
		{"slicepool-double-put", report, `slicepool.Pool[int] slice Put again after Put (first Put at main.go:{slicepool-put1})`, "slicepool-put2"},
		{"slicepool-double-put-pointers", report, `slicepool.Pool[*main.object] slice Put again after Put (first Put at main.go:{slicepool-ptr-put1})`, "slicepool-ptr-put2"},
		{"bytebuf-double-put", report, `bytebuf.Buffer Put again after Put (first Put at main.go:{bytebuf-put1})`, "bytebuf-put2"},
		{"bytebuf-pkg-double-put", report, `bytebuf.Buffer Put again after Put (first Put at main.go:{bytebuf-pkg-put1})`, "bytebuf-pkg-put2"},
		{"bytebuf-method-after-put", report, `bytebuf.Buffer.WriteString called after Put (Put at main.go:{bytebuf-method-put})`, "bytebuf-method"},
		{"bytebuf-len-after-put", report, `bytebuf.Buffer.Len called after Put (Put at main.go:{bytebuf-len-put})`, "bytebuf-len"},
		{"pool-write-after-put", report, `pool.Pool[*main.object] value written after Put (Put at main.go:{pool-write-put})`, ""},
		{"pool-slice-write-after-put", report, `pool.Pool[[]*main.object] value written after Put (Put at main.go:{pool-slice-write-put})`, ""},
		{"pool-double-putptr", report, `pool.Pool[[]int] value Put again after Put (first Put at main.go:{pool-putptr1})`, "pool-putptr2"},
		{"pool-putptr-write-after-put", report, `pool.Pool[[]int] value written after Put (Put at main.go:{pool-putptr-write-put})`, ""},
		{"slicepool-pointers-write-after-put", report, `slicepool.Pool[*main.object] slice written after Put (Put at main.go:{slicepool-ptr-write-put})`, ""},
		{"bytebuf-read-after-put", fault, "", "bytebuf-read"},
		{"bytebuf-write-after-put", fault, "", "bytebuf-write"},
		{"bytebuf-copy-after-put", fault, "", "bytebuf-copy"},
		{"bytebuf-direct-append-after-put", fault, "", "bytebuf-direct"},
		{"slicepool-read-after-put", fault, "", "slicepool-read"},
		{"slicepool-write-after-put", fault, "", "slicepool-write"},
		{"article-gzip", fault, "", "article-gzip-use"},
	}
	fill := regexp.MustCompile(`\{([a-z-0-9]+)\}`)
	for _, tt := range tests {
		t.Run(tt.program, func(t *testing.T) {
			t.Parallel()
			if tt.kind == fault && runtime.GOOS != "linux" {
				t.Skip("page protection is used on Linux only; elsewhere reads after Put go unseen")
			}
			out, err := exec.Command(bin, tt.program).CombinedOutput()
			if err == nil {
				t.Fatalf("%s ran to the end; want it stopped:\n%s", tt.program, out)
			}
			text := string(out)
			switch tt.kind {
			case report:
				want := "panic: poolkit: " + fill.ReplaceAllStringFunc(tt.message, func(m string) string {
					n, ok := line[m[1:len(m)-1]]
					if !ok {
						t.Fatalf("no mark %s in the program", m)
					}
					return strconv.Itoa(n)
				})
				if !strings.Contains(text, want+"\n") {
					t.Fatalf("output does not report %q:\n%s", want, text)
				}
			case fault:
				if !strings.Contains(text, "unexpected fault address") || !strings.Contains(text, "SIGSEGV") {
					t.Fatalf("want a page fault (SIGSEGV), got:\n%s", text)
				}
				// The trace goes from the fault through runtime frames
				// (memmove, for a copy) to the program's own line.
				_, text, _ = strings.Cut(text, "runtime.sigpanic")
			}
			if tt.at != "" {
				frame := regexp.MustCompile(`/misuse/main\.go:(\d+)`).FindStringSubmatch(text)
				if frame == nil || frame[1] != strconv.Itoa(line[tt.at]) {
					t.Fatalf("first frame of the program's code is %v, want main.go:%d (%s):\n%s", frame, line[tt.at], tt.at, out)
				}
			}
		})
	}
}

// TestCorrectProgramsPass runs correct uses of the pools, built with the
// tag: copying out before Put, WriteTo before Put, direct appends to
// Buffer.B, growth, and pools of every kind in a loop long enough to
// cycle through the quarantines.
func TestCorrectProgramsPass(t *testing.T) {
	bin := buildMisuse(t)
	for _, program := range []string{"correct-copy-out", "correct-write-to"} {
		t.Run(program, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command(bin, program).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "ok" {
				t.Fatalf("%s: %v\n%s", program, err, out)
			}
		})
	}
}
