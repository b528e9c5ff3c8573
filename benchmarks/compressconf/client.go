package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// maxWindow is the largest zstd window a browser must accept in HTTP
// (RFC 9659, section 3): a response that needs more is one some clients
// cannot decode.
const maxWindow = 8 << 20

// timeout bounds every round trip, so that a middleware that holds a
// response back fails its row instead of stalling the table.
const timeout = 5 * time.Second

// A server is the handler behind a middleware on a loopback listener, and a
// client that sees the response as sent: DisableCompression keeps Go's
// Transport from asking for gzip or decoding anything.
type server struct {
	ts     *httptest.Server
	client *http.Client
}

// serve starts h behind m, set up as s asks. The caller closes the server.
func serve(m middleware, s setup, h http.Handler) (*server, error) {
	wrapped, err := m.wrap(h, s)
	if err != nil {
		return nil, err
	}
	ts := httptest.NewServer(wrapped)
	tr := &http.Transport{DisableCompression: true}
	return &server{ts: ts, client: &http.Client{Transport: tr, Timeout: timeout}}, nil
}

func (s *server) close() {
	s.client.CloseIdleConnections()
	s.ts.Close()
}

// A response is what the client received: the header as sent, the body as
// sent (raw) and, when its Content-Encoding is one this file decodes,
// the body decoded (body) or why it could not be (decodeErr).
type response struct {
	status    int
	header    http.Header
	coding    string // Content-Encoding, lower case; "" for none
	raw       []byte
	body      []byte
	decodeErr error
}

// get sends a request with the given method and header fields (name,
// value pairs; an empty value is sent as an empty field) and reads the
// whole response.
func (s *server) get(method string, fields ...string) (*response, error) {
	req, err := http.NewRequest(method, s.ts.URL+"/", nil)
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(fields); i += 2 {
		req.Header.Add(fields[i], fields[i+1])
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the body: %w", err)
	}
	r := &response{status: resp.StatusCode, header: resp.Header, raw: raw}
	r.coding = strings.ToLower(strings.Join(resp.Header.Values("Content-Encoding"), ","))
	r.body, r.decodeErr = decode(r.coding, raw)
	return r, nil
}

// getIn sends a GET with Accept-Encoding: coding, and returns the
// response, or an error when the request fails or the response is in
// another coding.
func (s *server) getIn(coding string) (*response, error) {
	r, err := s.get("GET", "Accept-Encoding", coding)
	if err != nil {
		return nil, err
	}
	if r.coding != coding {
		return nil, fmt.Errorf("`%s` → %s", coding, codingName(r.coding))
	}
	return r, nil
}

// decode undoes coding with a decoder independent of every middleware
// here: compress/gzip and compress/zlib from the standard library,
// andybalholm/brotli, and klauspost's zstd decoder limited to the window
// RFC 9659 allows, checked against Debian's zstd command when it is
// installed.
func decode(coding string, raw []byte) ([]byte, error) {
	switch coding {
	case "", "identity":
		return raw, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	case "deflate": // RFC 9110, section 8.4.1.2: zlib's format
		zr, err := zlib.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	case "br":
		return io.ReadAll(brotli.NewReader(bytes.NewReader(raw)))
	case "zstd":
		return decodeZstd(raw)
	}
	return nil, fmt.Errorf("no decoder for Content-Encoding %q", coding)
}

func decodeZstd(raw []byte) ([]byte, error) {
	zr, err := zstd.NewReader(nil, zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	out, err := zr.DecodeAll(raw, nil)
	if err != nil {
		return nil, fmt.Errorf("klauspost zstd: %w", err)
	}
	if zstdCmd != "" {
		// The command's --memory caps the window the same way.
		cmd := exec.Command(zstdCmd, "-d", "-c", "-q", "--memory=8MB")
		cmd.Stdin = bytes.NewReader(raw)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("zstd -d: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
		}
		if !bytes.Equal(got, out) {
			return nil, errors.New("zstd -d and klauspost's decoder disagree")
		}
	}
	return out, nil
}

// zstdCmd is the path of Debian's zstd command, or "" when it is missing
// (then zstd bodies are decoded by klauspost's decoder alone).
var zstdCmd, _ = exec.LookPath("zstd")

// requireTools reports whether a missing zstd command is an error, as it is
// in CI (POOLKIT_REQUIRE_TOOLS=1).
func requireTools() bool { return os.Getenv("POOLKIT_REQUIRE_TOOLS") == "1" }

// zstdWindow returns the window the first zstd frame of raw declares
// (skippable frames before it are passed over).
func zstdWindow(raw []byte) (uint64, error) {
	for len(raw) > 0 {
		var h zstd.Header
		if err := h.Decode(raw); err != nil {
			return 0, err
		}
		if !h.Skippable {
			if h.SingleSegment {
				return h.FrameContentSize, nil
			}
			return h.WindowSize, nil
		}
		n := h.HeaderSize + int(h.SkippableSize)
		if n > len(raw) {
			break
		}
		raw = raw[n:]
	}
	return 0, errors.New("no zstd frame")
}

// noField is the Accept-Encoding of a request that has no such field.
const noField = "-"

// withAE returns fields and an Accept-Encoding field of value ae, or
// fields alone when ae is noField.
func withAE(ae string, fields ...string) []string {
	if ae == noField {
		return fields
	}
	return append(fields, "Accept-Encoding", ae)
}
