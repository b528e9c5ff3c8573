package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
)

// varies reports whether the Vary fields of h name Accept-Encoding (or *).
func varies(h http.Header, name string) bool {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "*" || strings.EqualFold(f, name) {
				return true
			}
		}
	}
	return false
}

// withServer starts handler behind c's middleware with its defaults and
// runs f against it.
func withServer(c *column, handler http.Handler, f func(s *server) result) result {
	s, err := serve(c.m, setup{}, handler)
	if err != nil {
		return failed("%v", err)
	}
	defer s.close()
	return f(s)
}

// withResponse starts h behind c's middleware with its defaults, sends it
// one request of method with the header fields (name, value pairs), and
// passes the response to check; failing to start or to fetch fails the
// row.
func withResponse(c *column, h http.Handler, method string, fields []string, check func(r *response) result) result {
	return withServer(c, h, func(s *server) result {
		r, err := s.get(method, fields...)
		if err != nil {
			return failed("%v", err)
		}
		return check(r)
	})
}

var headerRows = []row{{
	name: "`Vary: Accept-Encoding`",
	pass: "the response to a compressible resource names Accept-Encoding in Vary both when it is " +
		"compressed (`Accept-Encoding: gzip`) and when it is not (no Accept-Encoding), " +
		"so a cache never hands either to the wrong client",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		return withServer(c, bodyHandler("application/json", body), func(s *server) result {
			for _, ae := range []string{"gzip", noField} {
				r, err := s.get("GET", withAE(ae)...)
				if err != nil {
					return failed("%v", err)
				}
				if !varies(r.header, "Accept-Encoding") {
					return failed("no Vary on the %s response", codingName(r.coding))
				}
			}
			return passed("")
		})
	},
}, {
	name: "handler's own Vary kept",
	pass: "a handler's `Vary: Origin` is still there on the compressed response, beside Accept-Encoding",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		h := bodyHandler("application/json", body, "Vary", "Origin")
		return withResponse(c, h, "GET", []string{"Accept-Encoding", "gzip"}, func(r *response) result {
			if !r.compressed() {
				return failed("not compressed")
			}
			if !varies(r.header, "Origin") || !varies(r.header, "Accept-Encoding") {
				return failed("Vary: %q", r.header.Values("Vary"))
			}
			return passed("")
		})
	},
}, {
	name: "ETag distinct per encoding",
	pass: "the handler sets the strong ETag `\"v1\"`; the identity, gzip and (where spoken) zstd " +
		"responses each carry an ETag, and no two of them match under RFC 9110's weak comparison " +
		"(so `W/\"v1\"` beside `\"v1\"` fails): a representation's tag must not validate another's",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		return withServer(c, bodyHandler("application/json", body, "ETag", `"v1"`), func(s *server) result {
			seen := map[string]string{} // opaque tag → coding
			var tags []string
			for _, ae := range append([]string{noField}, c.codings()...) {
				r, err := s.get("GET", withAE(ae)...)
				if err != nil {
					return failed("%v", err)
				}
				name := codingName(r.coding)
				tag := r.header.Get("ETag")
				if tag == "" {
					return failed("%s response has no ETag", name)
				}
				if other, ok := seen[opaqueTag(tag)]; ok {
					return failed("%s and %s both `%s`", other, name, strings.Join(append(tags, tag), "`, `"))
				}
				seen[opaqueTag(tag)] = name
				tags = append(tags, tag)
			}
			return passed("`" + strings.Join(tags, "`, `") + "`")
		})
	},
}, {
	name: "revalidating a compressed response",
	pass: "behind `http.ServeContent` (ETag `\"v1\"`), a client that got a gzip response (and, " +
		"where spoken, a zstd one) and sends its ETag in If-None-Match gets a 304 carrying that " +
		"same ETag (RFC 9110 §15.4.5)",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		return withServer(c, contentHandler(body), func(s *server) result {
			for _, coding := range c.codings() {
				first, err := s.getIn(coding)
				if err != nil {
					return failed("%v", err)
				}
				tag := first.header.Get("ETag")
				if tag == "" {
					return failed("%s response has no ETag", coding)
				}
				r, err := s.get("GET", "Accept-Encoding", coding, "If-None-Match", tag)
				if err != nil {
					return failed("%v", err)
				}
				if r.status != http.StatusNotModified {
					return failed("%s: `If-None-Match: %s` → %d", coding, tag, r.status)
				}
				if got := r.header.Get("ETag"); got != tag {
					return failed("%s: 304 has ETag `%s`, the response `%s`", coding, got, tag)
				}
			}
			return passed("")
		})
	},
}, {
	name: "Range, identity client",
	pass: "behind `http.ServeContent`, `Range: bytes=100-199` without Accept-Encoding gets a 206 " +
		"with exactly those bytes and no Content-Encoding: the middleware does not break ranges",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		return withResponse(c, contentHandler(body), "GET", []string{"Range", "bytes=100-199"}, func(r *response) result {
			if r.status != http.StatusPartialContent || r.compressed() || !bytes.Equal(r.raw, body[100:200]) {
				return failed("%d, %s, %d bytes", r.status, codingName(r.coding), len(r.raw))
			}
			return passed("")
		})
	},
}, {
	name: "Range, client accepting gzip",
	pass: "behind `http.ServeContent`, `Range: bytes=100-199` with a browser's Accept-Encoding gets " +
		"either a 206 with exactly those bytes and no Content-Encoding, or a 200 whose body " +
		"decodes to the whole file; never a compressed 206",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		fields := []string{"Range", "bytes=100-199", "Accept-Encoding", browser}
		return withResponse(c, contentHandler(body), "GET", fields, func(r *response) result {
			switch {
			case r.status == http.StatusPartialContent && r.compressed():
				return failed("%s 206", r.coding)
			case r.status == http.StatusPartialContent:
				if !bytes.Equal(r.raw, body[100:200]) {
					return failed("206 with the wrong bytes")
				}
				return passed("206")
			case r.status == http.StatusOK:
				if why := r.intact(body); why != "" {
					return failed("%s", why)
				}
				return passed("200, " + codingName(r.coding))
			}
			return failed("status %d", r.status)
		})
	},
}, {
	name: "If-Range with the compressed response's ETag",
	pass: "behind `http.ServeContent`, a client resuming a gzip download (and, where spoken, a " +
		"zstd one) with `Range: bytes=100-199` and `If-Range:` that response's ETag, sending the " +
		"same Accept-Encoding and again none, gets a 200 whose body decodes to the whole file, or " +
		"a 206 of the same coding whose bytes are bytes 100-199 of the compressed body; never " +
		"identity bytes it would splice onto a compressed prefix. (A compressed response without " +
		"an ETag leaves nothing to resume with: a pass.)",
	check: func(c *column) result {
		body := jsonBody(bigSize)
		return withServer(c, contentHandler(body), func(s *server) result {
			var tags []string
			for _, coding := range c.codings() {
				first, err := s.getIn(coding)
				if err != nil {
					return failed("%v", err)
				}
				tag := first.header.Get("ETag")
				if tag == "" {
					tags = append(tags, coding+": no ETag")
					continue
				}
				tags = append(tags, fmt.Sprintf("%s: `%s`", coding, tag))
				for _, ae := range []string{coding, noField} {
					r, err := s.get("GET", withAE(ae, "Range", "bytes=100-199", "If-Range", tag)...)
					if err != nil {
						return failed("%v", err)
					}
					switch r.status {
					case http.StatusOK:
						if why := r.intact(body); why != "" {
							return failed("%s", why)
						}
					case http.StatusPartialContent:
						if r.coding != coding {
							return failed("`If-Range: %s` → %s 206 for a %s prefix", tag, codingName(r.coding), coding)
						}
						if len(first.raw) < 200 || !bytes.Equal(r.raw, first.raw[100:200]) {
							return failed("%s 206 with bytes not of the compressed body", coding)
						}
					default:
						return failed("status %d", r.status)
					}
				}
			}
			return passed(strings.Join(tags, ", "))
		})
	},
}}
