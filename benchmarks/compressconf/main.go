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
)

func main() {
	if zstdCmd == "" {
		fmt.Fprintln(os.Stderr, "compressconf: Debian's zstd command is not installed; zstd bodies are checked by klauspost's decoder alone")
	}
	run(middlewares).markdown(os.Stdout)
}
