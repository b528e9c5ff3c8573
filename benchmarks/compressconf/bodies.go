package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
)

// bigSize is the size of the bodies every middleware here must compress:
// well above the largest default minimum (gziphandler's 1400 bytes).
const bigSize = 8 << 10

// jsonBody returns a JSON array of records, about n bytes long, that
// compresses about 5:1. Each call with the same n returns the same bytes.
func jsonBody(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; b.Len() < n-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user-%d","email":"user%d@example.com","active":%t,"score":%d}`,
			i, i, i*7919%10007, i%3 == 0, i*37%1000)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// htmlBody is an HTML page about n bytes long, which net/http sniffs as
// "text/html; charset=utf-8".
func htmlBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><title>t</title></head><body>\n")
	for i := 0; b.Len() < n-20; i++ {
		fmt.Fprintf(&b, "<p class=\"row\">row %d of the table</p>\n", i)
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// randomBody returns n bytes that do not compress, after prefix (a file
// format's magic number).
func randomBody(prefix string, n int) []byte {
	b := make([]byte, n)
	copy(b, prefix)
	r := rand.New(rand.NewPCG(1, 2))
	for i := len(prefix); i < n; i++ {
		b[i] = byte(r.Uint32())
	}
	return b
}

// bodyHandler answers every request with body under Content-Type ct (none
// when ct is ""), in one Write, after setting the header fields in extra
// (name, value pairs).
func bodyHandler(ct string, body []byte, extra ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		for i := 0; i+1 < len(extra); i += 2 {
			w.Header().Add(extra[i], extra[i+1])
		}
		_, _ = w.Write(body)
	})
}

// modTime is the Last-Modified of contentHandler's file.
var modTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// contentHandler serves body as a file with http.ServeContent, under the
// strong entity tag "v1": it answers Range, If-Range, If-None-Match and
// HEAD as a file server does.
func contentHandler(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "data.json", modTime, bytes.NewReader(body))
	})
}

// gzipped is body compressed by compress/gzip, for the handler that sends
// an already-encoded response.
func gzipped(body []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write(body)
	_ = zw.Close()
	return b.Bytes()
}

// opaqueTag is an entity tag without its weakness indicator: two tags
// match under RFC 9110's weak comparison when these are equal.
func opaqueTag(tag string) string { return strings.TrimPrefix(tag, "W/") }

// padding returns how many bytes of raw, a body in the given coding, its
// decoder skips: the optional fields of gzip members' headers (FEXTRA,
// FNAME, FCOMMENT), or zstd's skippable frames. These are where a
// middleware can put BREACH padding without changing the decoded body.
func padding(coding string, raw []byte) (int, error) {
	switch coding {
	case "gzip", "x-gzip":
		// One member at a time, as compress/gzip's Multistream example
		// reads them: a bytes.Reader is an io.ByteReader, so the
		// decoder reads no further than each member's end.
		src := bytes.NewReader(raw)
		zr, err := gzip.NewReader(src)
		if err != nil {
			return 0, err
		}
		n := 0
		for {
			zr.Multistream(false)
			n += len(zr.Extra) + len(zr.Name) + len(zr.Comment)
			if _, err := io.Copy(io.Discard, zr); err != nil {
				return 0, err
			}
			switch err := zr.Reset(src); err {
			case nil:
			case io.EOF:
				return n, nil
			default:
				return 0, err
			}
		}
	case "zstd":
		return zstdSkipped(raw)
	}
	return 0, fmt.Errorf("no padding reader for %q", coding)
}

// zstdSkipped walks the frames of raw (RFC 8878, section 3.1) and returns
// the total size of its skippable frames, headers included.
func zstdSkipped(raw []byte) (int, error) {
	n := 0
	for len(raw) > 0 {
		var h zstd.Header
		if err := h.Decode(raw); err != nil {
			return 0, err
		}
		if h.Skippable {
			size := h.HeaderSize + int(h.SkippableSize)
			if size > len(raw) {
				return 0, errors.New("truncated skippable frame")
			}
			n += size
			raw = raw[size:]
			continue
		}
		raw = raw[h.HeaderSize:]
		for {
			if len(raw) < 3 {
				return 0, errors.New("truncated block header")
			}
			bh := uint32(raw[0]) | uint32(raw[1])<<8 | uint32(raw[2])<<16
			last, typ, size := bh&1 == 1, (bh>>1)&3, int(bh>>3)
			if typ == 1 { // RLE: one byte repeated size times
				size = 1
			}
			if 3+size > len(raw) {
				return 0, errors.New("truncated block")
			}
			raw = raw[3+size:]
			if last {
				break
			}
		}
		if h.HasCheckSum {
			if len(raw) < 4 {
				return 0, errors.New("truncated checksum")
			}
			raw = raw[4:]
		}
	}
	return n, nil
}
