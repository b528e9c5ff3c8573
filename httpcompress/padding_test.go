package httpcompress

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/internal/systool"
)

// record serves one request for h with Accept-Encoding ae and returns the
// raw body and its Content-Encoding.
func record(h http.Handler, ae string) ([]byte, string) {
	rec := serveURL(h, "/", ae)
	return rec.Body.Bytes(), rec.Header().Get("Content-Encoding")
}

// TestPadding checks the padding's form against the same response
// unpadded: a zstd response is the unpadded frame followed by one
// skippable frame of 1 to n bytes, a gzip one carries a comment of 1 to n
// bytes and is otherwise as long; every length from 1 to n turns up, and
// the body decodes, by compress/gzip and klauspost's zstd decoder, to
// what the handler wrote.
func TestPadding(t *testing.T) {
	const n = 32
	const draws = 1000 // P(some length of 32 never drawn) < 1e-12
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, bigBody)
	})
	plain, padded := Handler(api), Handler(api, WithPadding(n))
	for _, ae := range []string{"zstd", "gzip"} {
		t.Run(ae, func(t *testing.T) {
			unpadded, ce := record(plain, ae)
			if ce != ae {
				t.Fatalf("unpadded: Content-Encoding %q", ce)
			}
			seen := map[int]int{}
			for range draws {
				raw, ce := record(padded, ae)
				if ce != ae {
					t.Fatalf("Content-Encoding %q", ce)
				}
				if got := decodeBody(t, ae, raw); string(got) != bigBody {
					t.Fatalf("decoded %d bytes, want the %d written", len(got), len(bigBody))
				}
				var k int
				if ae == "zstd" {
					k = len(raw) - len(unpadded) - 8
					if k < 1 || !bytes.HasPrefix(raw, unpadded) {
						t.Fatalf("%d bytes, not the unpadded %d and a skippable frame", len(raw), len(unpadded))
					}
					frame := raw[len(unpadded):]
					if binary.LittleEndian.Uint32(frame) != skippableMagic || int(binary.LittleEndian.Uint32(frame[4:])) != k {
						t.Fatalf("padding frame header % x, want a skippable frame of %d bytes", frame[:8], k)
					}
				} else {
					zr, err := stdgzip.NewReader(bytes.NewReader(raw))
					if err != nil {
						t.Fatal(err)
					}
					k = len(zr.Comment)
					if len(raw) != len(unpadded)+k+1 { // the comment ends with a zero byte
						t.Fatalf("%d bytes with a %d-byte comment; unpadded %d", len(raw), k, len(unpadded))
					}
				}
				if k < 1 || k > n {
					t.Fatalf("padding of %d bytes, want 1 to %d", k, n)
				}
				seen[k]++
			}
			for k := 1; k <= n; k++ {
				if seen[k] == 0 {
					t.Errorf("no padding of %d bytes in %d responses: %v", k, draws, seen)
				}
			}
		})
	}
	// Without WithPadding, nothing is added.
	raw, _ := record(plain, "gzip")
	if zr, err := stdgzip.NewReader(bytes.NewReader(raw)); err != nil || zr.Comment != "" {
		t.Errorf("unpadded gzip: comment %q, %v", zr.Comment, err)
	}
}

// TestPaddingDecoders sends padded responses to Debian's gzip and zstd
// commands and to curl --compressed, which decode with zlib and libzstd,
// through a real server, and to compress/gzip through Go's transport.
func TestPaddingDecoders(t *testing.T) {
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stream" {
			// Flushed first: the gzip header and its comment go out
			// before the body is known.
			io.WriteString(w, bigBody[:100])
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, bigBody)
	}), WithPadding(MaxPadding)))
	want := map[string]string{"/": bigBody, "/stream": bigBody[:100] + bigBody}
	for _, path := range []string{"/", "/stream"} {
		for _, tc := range []struct{ coding, cmd string }{{"gzip", "gzip"}, {"zstd", "zstd"}} {
			res, body := get(t, rawClient(), srv.URL+path, tc.coding)
			if res.Header.Get("Content-Encoding") != tc.coding {
				t.Fatalf("%s %s: Content-Encoding %q", path, tc.coding, res.Header.Get("Content-Encoding"))
			}
			if got := decodeBody(t, tc.coding, body); string(got) != want[path] {
				t.Errorf("%s %s: Go's decoder gave %d bytes, want %d", path, tc.coding, len(got), len(want[path]))
			}
			cmd := exec.Command(systool.Look(t, tc.cmd), "-dc")
			cmd.Stdin = bytes.NewReader(body)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || string(out) != want[path] {
				t.Errorf("%s -dc of a padded %s response %s: %v, %d bytes of %d\n%s", tc.cmd, tc.coding, path, err, len(out), len(want[path]), stderr.String())
			}
		}
		// Go's transport asks for gzip and decodes it itself.
		res, body := get(t, http.DefaultClient, srv.URL+path, "")
		if !res.Uncompressed || string(body) != want[path] {
			t.Errorf("%s: Go's transport: uncompressed=%v, %d bytes", path, res.Uncompressed, len(body))
		}
	}
	curl := systool.Look(t, "curl")
	version, err := exec.Command(curl, "-V").Output()
	if err != nil {
		t.Fatalf("curl -V: %v", err)
	}
	for _, ae := range []string{"gzip", "zstd"} {
		if ae == "zstd" && !strings.Contains(string(version), " zstd") {
			t.Logf("curl was built without zstd: %s", version)
			continue
		}
		out, err := exec.Command(curl, "--silent", "--show-error", "--fail", "--compressed",
			"-H", "Accept-Encoding: "+ae, "--dump-header", "/dev/stderr", srv.URL+"/stream").CombinedOutput()
		if err != nil {
			t.Fatalf("curl: %v\n%.300s", err, out)
		}
		headers, body, _ := strings.Cut(string(out), "\r\n\r\n")
		if !strings.Contains(strings.ToLower(headers), "content-encoding: "+ae) || body != want["/stream"] {
			t.Errorf("curl --compressed, %s: %d bytes of %d\n%s", ae, len(body), len(want["/stream"]), headers)
		}
	}
}

func TestWithPaddingRange(t *testing.T) {
	for _, n := range []int{-1, MaxPadding + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WithPadding(%d) did not panic", n)
				}
			}()
			Handler(http.NotFoundHandler(), WithPadding(n))
		}()
	}
}
