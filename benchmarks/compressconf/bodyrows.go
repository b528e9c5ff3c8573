package main

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// bodiless sends method and fields with a browser's Accept-Encoding to h
// behind c, and passes when the response has the status want, no
// Content-Encoding and no body, and then more (if not nil) passes it.
func bodiless(c *column, h http.Handler, method string, want int, more func(*response) result, fields ...string) result {
	return withResponse(c, h, method, append(fields, "Accept-Encoding", browser), func(r *response) result {
		if r.status != want || r.compressed() || len(r.raw) != 0 {
			return failed("%d, %s, %d bytes", r.status, codingName(r.coding), len(r.raw))
		}
		if more != nil {
			return more(r)
		}
		return passed("")
	})
}

// statusRows are the responses a middleware must leave as the handler
// wrote them.
var statusRows = []row{{
	name: "HEAD untouched",
	pass: "HEAD with a browser's Accept-Encoding, behind `http.ServeContent`: a 200 with no " +
		"Content-Encoding, the handler's Content-Length and no body",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		return bodiless(c, contentHandler(body), "HEAD", http.StatusOK, func(r *response) result {
			if cl := r.header.Get("Content-Length"); cl != strconv.Itoa(len(body)) {
				return failed("Content-Length %q", cl)
			}
			return passed("")
		})
	},
}, {
	name: "204 untouched",
	pass: "a handler that sets a JSON Content-Type and answers 204: the client gets a 204 with " +
		"no Content-Encoding and no body",
	check: func(c *column) result {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNoContent)
		})
		return bodiless(c, h, "GET", http.StatusNoContent, nil)
	},
}, {
	name: "304 untouched",
	pass: "a handler that sets a JSON Content-Type and ETag `\"v1\"` and answers " +
		"`If-None-Match: \"v1\"` with its own 304: the client (browser's Accept-Encoding) gets a 304 " +
		"with no Content-Encoding and no body",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("ETag", `"v1"`)
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			_, _ = w.Write(body)
		})
		return bodiless(c, h, "GET", http.StatusNotModified, nil, "If-None-Match", `"v1"`)
	},
}, {
	name: "already-encoded response untouched",
	pass: "a handler that sets `Content-Encoding: gzip` and writes gzip bytes: the client " +
		"(browser's Accept-Encoding) gets `Content-Encoding: gzip` alone and a body that decodes, " +
		"once, to the handler's JSON",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		h := bodyHandler("application/json", gzipped(body), "Content-Encoding", "gzip")
		return withResponse(c, h, "GET", []string{"Accept-Encoding", browser}, func(r *response) result {
			if r.coding != "gzip" {
				return failed("Content-Encoding %q", r.coding)
			}
			if why := r.intact(body); why != "" {
				return failed("%s", why)
			}
			return passed("")
		})
	},
}}

// typeRow checks bodies under each content type: compress says whether
// each must be compressed (true) or left alone (false).
func typeRow(c *column, s setup, bodies map[string][]byte, compress func(ct string) bool) result {
	cts := make([]string, 0, len(bodies))
	for ct := range bodies {
		cts = append(cts, ct)
	}
	slices.Sort(cts)
	var wrong []string
	for _, ct := range cts {
		srv, err := serve(c.m, s, bodyHandler(ct, bodies[ct]))
		if err != nil {
			return failed("%v", err)
		}
		r, err := srv.get("GET", "Accept-Encoding", browser)
		srv.close()
		if err != nil {
			return failed("%s: %v", ct, err)
		}
		if why := r.intact(bodies[ct]); why != "" {
			return failed("%s: %s", ct, why)
		}
		if r.compressed() != compress(ct) {
			wrong = append(wrong, fmt.Sprintf("%s → %s", ct, codingName(r.coding)))
		}
	}
	if len(wrong) > 0 {
		return failed("%s", strings.Join(wrong, "; "))
	}
	return passed("")
}

var sizeTypeRows = []row{{
	name: "small body left alone",
	pass: "a 100-byte JSON body, written in one Write without Content-Length, and again with " +
		"the handler's `Content-Length: 100`, is sent uncompressed to a browser's Accept-Encoding",
	check: func(c *column) result {
		body := jsonBody(200)[:100]
		for _, extra := range [][]string{nil, {"Content-Length", "100"}} {
			h := bodyHandler("application/json", body, extra...)
			r := withResponse(c, h, "GET", []string{"Accept-Encoding", browser}, func(r *response) result {
				if why := r.intact(body); why != "" {
					return failed("%s", why)
				}
				if r.compressed() {
					return failed("%s (Content-Length set: %t)", r.coding, extra != nil)
				}
				return passed("")
			})
			if !r.pass {
				return r
			}
		}
		return passed("")
	},
}, {
	name: "incompressible types left alone",
	pass: "8 KiB of random bytes under image/png, image/jpeg, video/mp4, font/woff2, " +
		"application/zip and application/gzip (already compressed) are sent uncompressed",
	check: func(c *column) result {
		return typeRow(c, setup{}, map[string][]byte{
			"image/png":        randomBody("\x89PNG\r\n\x1a\n", bigSize),
			"image/jpeg":       randomBody("\xff\xd8\xff\xe0", bigSize),
			"video/mp4":        randomBody("\x00\x00\x00\x18ftypmp42", bigSize),
			"font/woff2":       randomBody("wOF2", bigSize),
			"application/zip":  randomBody("PK\x03\x04", bigSize),
			"application/gzip": gzipped(randomBody("", bigSize)),
		}, func(string) bool { return false })
	},
}, {
	name: "text types compressed",
	pass: "8 KiB bodies under text/html; charset=utf-8, text/css, text/plain, text/javascript, " +
		"application/json and image/svg+xml are all compressed",
	check: func(c *column) result {
		html := htmlBody(bigSize)
		return typeRow(c, setup{}, map[string][]byte{
			"text/html; charset=utf-8": html,
			"text/css":                 bytes.Repeat([]byte("p.row { margin: 0 1em; color: #333; }\n"), bigSize/38),
			"text/plain":               html,
			"text/javascript":          bytes.Repeat([]byte("function row(i) { return i * 2; }\n"), bigSize/34),
			"application/json":         jsonBody(bigSize),
			"image/svg+xml":            bytes.Repeat([]byte(`<rect x="1" y="2" width="3" height="4"/>`), bigSize/40),
		}, func(string) bool { return true })
	},
}, {
	name: "no Content-Type: sniffed from the uncompressed body",
	pass: "a handler that sets no Content-Type and writes 8 KiB of HTML: the response's " +
		"Content-Type is `text/html; charset=utf-8`, as net/http sniffs from the uncompressed " +
		"body (not `application/x-gzip` from compressed bytes), compressed or not",
	check: func(c *column) result {
		body := htmlBody(bigSize)
		return withResponse(c, bodyHandler("", body), "GET", []string{"Accept-Encoding", browser}, func(r *response) result {
			if why := r.intact(body); why != "" {
				return failed("%s", why)
			}
			if ct := r.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				return failed("%q (%s)", ct, codingName(r.coding))
			}
			return passed(codingName(r.coding))
		})
	},
}, {
	name: "content-type filtering option",
	pass: "the middleware has an option to compress only listed types; set to application/json, " +
		"`application/json; charset=utf-8` is compressed and text/html is not",
	check: func(c *column) result {
		return typeRow(c, setup{onlyTypes: []string{"application/json"}}, map[string][]byte{
			"application/json; charset=utf-8": jsonBody(bigSize),
			"text/html":                       htmlBody(bigSize),
		}, func(ct string) bool { return strings.HasPrefix(ct, "application/json") })
	},
}, {
	name: "BREACH padding",
	pass: "the middleware has an option to pad compressed responses; with it on, 16 JSON bodies " +
		"that differ only in a 16-character token are compressed (gzip, and zstd where spoken) " +
		"with 1 or more bytes that the decoder skips (gzip header fields, zstd skippable frames), " +
		"not all the same number, and each decodes to its body",
	check: func(c *column) result {
		var notes []string
		for _, coding := range c.codings() {
			pads := map[int]bool{}
			for i := range 16 {
				token := fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15)
				body := append([]byte(`{"token":"`+token+`","rows":`), jsonBody(bigSize)...)
				body = append(body, '}')
				srv, err := serve(c.m, setup{pad: true}, bodyHandler("application/json", body))
				if err != nil {
					return failed("%v", err)
				}
				r, err := srv.getIn(coding)
				srv.close()
				if err != nil {
					return failed("%v", err)
				}
				if why := r.intact(body); why != "" {
					return failed("%s", why)
				}
				pad, err := padding(coding, r.raw)
				if err != nil {
					return failed("%s: %v", coding, err)
				}
				if pad == 0 {
					return failed("%s: a response without padding", coding)
				}
				pads[pad] = true
			}
			if len(pads) < 2 {
				return failed("%s: every response padded alike", coding)
			}
			lo, hi := 1<<30, 0
			for p := range pads {
				lo, hi = min(lo, p), max(hi, p)
			}
			notes = append(notes, fmt.Sprintf("%s %d–%d B", coding, lo, hi))
		}
		return passed(strings.Join(notes, ", "))
	},
}}
