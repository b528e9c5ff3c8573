// Command compressconf checks HTTP compression middlewares against the
// behaviours a compressing middleware owes its clients (RFC 9110's
// negotiation, caching and range rules, the ResponseWriter interfaces,
// streaming, upgrades, sizes and types, BREACH padding), each by a real
// round trip over loopback, and prints the results as a markdown table:
// poolkit's middleware beside klauspost's gzhttp, CAFxX/httpcompression,
// NYTimes/gziphandler and go-chi's middleware.Compress.
//
// Run it from the benchmarks module:
//
//	go run ./compressconf
//
// Its test (go test ./compressconf) runs the same table and fails when
// poolkit's middleware fails a row it is not listed as failing.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
)

func main() {
	if zstdCmd == "" {
		fmt.Fprintln(os.Stderr, "compressconf: Debian's zstd command is not installed; zstd bodies are checked by klauspost's decoder alone")
	}
	fmt.Printf("%s, %s, %s.\n\n", runtime.Version(), zstdVersion(), strings.Join(peerVersions(), ", "))
	run(middlewares).markdown(os.Stdout)
}

// peerVersions lists the module versions of the peer middlewares this
// binary was built with.
func peerVersions() []string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return []string{"module versions unknown"}
	}
	var vs []string
	for _, d := range info.Deps {
		switch d.Path {
		case "github.com/klauspost/compress", "github.com/CAFxX/httpcompression",
			"github.com/NYTimes/gziphandler", "github.com/go-chi/chi/v5":
			vs = append(vs, d.Path+" "+d.Version)
		}
	}
	return vs
}

// zstdVersion names the zstd command that checks zstd bodies.
func zstdVersion() string {
	if zstdCmd == "" {
		return "no zstd command"
	}
	out, err := exec.Command(zstdCmd, "-V").Output()
	if err != nil {
		return "zstd -V: " + err.Error()
	}
	v := strings.Trim(strings.TrimSpace(string(out)), "* ")
	v, _, _ = strings.Cut(v, ", by")
	return v
}
