// Command hotpaths is a service with the naive allocation patterns poolkit
// removes, each in its own function, driven by a goroutine of its own and
// profiled through net/http/pprof; poolkit allocs -profile is tested
// against it. It prints "listening on ADDR" once it serves, and /calls
// reports how many times each hot path has run. Lines marked "hot: pkg"
// are the sites poolkit must find, with pkg in the advice.
//
// The patterns are naive on purpose: do not copy them.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type record struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

var (
	payload = bytes.Repeat([]byte("poolkit hot path payload, compressible text. "), 40)
	rec     = &record{ID: 7, Name: "seven", Items: []string{"a", "b", "c"}}
	doc     = []byte(`{"id":7,"name":"seven","items":["a","b","c"]}`)

	sinkBytes  []byte
	sinkString string
	sinkInts   []int
	sinkRecord record
)

// compressResponse makes a new gzip writer per call.
func compressResponse(body []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out) // hot: gzpool
	zw.Write(body)             // hot: gzpool
	zw.Close()
	return out.Bytes()
}

// encodeJSON marshals with encoding/json per call.
func encodeJSON() []byte {
	b, _ := json.Marshal(rec) // hot: jsonpool
	return b
}

// decodeJSON makes a json.Decoder per call.
func decodeJSON() {
	dec := json.NewDecoder(bytes.NewReader(doc)) // hot: jsonpool
	dec.Decode(&sinkRecord)                      // hot: jsonpool
}

// growBuffer grows a bytes.Buffer from empty per call.
func growBuffer(n int) []byte {
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		buf.WriteString("field=value ") // hot: bytebuf
	}
	return buf.Bytes()
}

// logLine formats a log line with fmt.Sprintf and time.Format.
func logLine(w io.Writer, path string, status int) {
	line := fmt.Sprintf("%s level=info path=%q status=%d\n", time.Now().Format(time.RFC3339Nano), path, status) // hot: logfmt
	io.WriteString(w, line)
}

var scratch = sync.Pool{New: func() any { return make([]byte, 0, 256) }}

// putByValue pools a []byte by value: every Put boxes the slice header.
func putByValue() {
	b := scratch.Get().([]byte)
	b = strconv.AppendInt(b[:0], 12345, 10)
	sinkString = string(b[:1])
	scratch.Put(b) // hot: slicepool
}

// buildQuery interpolates a query by splitting it and concatenating.
func buildQuery(q string, args []string) string {
	parts := strings.Split(q, "?") // hot: sqlinterp
	s := parts[0]
	for i, a := range args {
		s += "'" + a + "'" + parts[i+1] // hot: sqlinterp
	}
	return s
}

// makePerCall makes a scratch slice per call.
func makePerCall(n int) []int {
	s := make([]int, n) // hot: slicepool
	for i := range s {
		s[i] = i
	}
	return s
}

// rounds counts the calls of each hot path, for /calls.
var rounds atomic.Int64

// drive runs the hot paths in a loop, pausing so the process stays light.
func drive(pause time.Duration) {
	args := []string{"alice", "42"}
	for {
		for i := 0; i < 10; i++ {
			sinkBytes = compressResponse(payload)
			sinkBytes = encodeJSON()
			decodeJSON()
			sinkBytes = growBuffer(100)
			logLine(io.Discard, "/v1/items", 200)
			putByValue()
			sinkString = buildQuery("SELECT id FROM users WHERE name = ? AND age > ?", args)
			sinkInts = makePerCall(64)
		}
		rounds.Add(10)
		time.Sleep(pause)
	}
}

func main() {
	rate := flag.Int("memprofilerate", 512, "runtime.MemProfileRate")
	pause := flag.Duration("pause", 2*time.Millisecond, "pause between rounds of 10 calls")
	flag.Parse()
	runtime.MemProfileRate = *rate
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/calls", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, rounds.Load())
	})
	go drive(*pause)
	fmt.Printf("listening on %s\n", ln.Addr())
	log.Fatal(http.Serve(ln, nil))
}
