package main

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// browser is the Accept-Encoding that Chrome, Edge, Firefox and Safari send
// today.
const browser = "gzip, deflate, br, zstd"

// A column is one middleware, with what a probe found it speaks.
type column struct {
	m    middleware
	zstd bool // it answers "Accept-Encoding: zstd" with zstd
}

// A result is one cell of the table.
type result struct {
	pass bool
	note string // why it failed, or what it did when that is worth saying
}

func passed(note string) result { return result{pass: true, note: note} }

func failed(format string, args ...any) result {
	return result{note: fmt.Sprintf(format, args...)}
}

// A row is one behaviour: check runs it against a middleware over real
// round trips. pass says, for the README, what passing means.
type row struct {
	name  string
	pass  string
	check func(c *column) result
}

// codingName names a response's coding in notes.
func codingName(coding string) string {
	if coding == "" {
		return "identity"
	}
	return coding
}

// compressed reports whether r carries a content coding.
func (r *response) compressed() bool { return r.coding != "" && r.coding != "identity" }

// intact says why r's decoded body is not want, or "" when it is.
func (r *response) intact(want []byte) string {
	switch {
	case r.decodeErr != nil:
		return fmt.Sprintf("%s body does not decode: %v", codingName(r.coding), r.decodeErr)
	case !bytes.Equal(r.body, want):
		return fmt.Sprintf("%s body decodes to %d bytes, not the %d sent", codingName(r.coding), len(r.body), len(want))
	}
	return ""
}

// exchange is one request of a row and the codings its response may have:
// "identity" for none, "406" for a 406 Not Acceptable without a coding,
// "any" for any content coding but identity.
type exchange struct {
	acceptEncoding string // noField for none, "" for an empty one
	allowed        []string
}

// negotiate sends each exchange to an 8 KiB JSON handler behind c and
// passes when every response has an allowed coding and decodes to the body.
func negotiate(c *column, exchanges ...exchange) result {
	body := jsonBody(bigSize)
	s, err := serve(c.m, setup{}, bodyHandler("application/json", body))
	if err != nil {
		return failed("%v", err)
	}
	defer s.close()
	var got []string
	for _, x := range exchanges {
		r, err := s.get("GET", withAE(x.acceptEncoding)...)
		if err != nil {
			return failed("%q: %v", x.acceptEncoding, err)
		}
		outcome := codingName(r.coding)
		if r.status == http.StatusNotAcceptable && !r.compressed() {
			outcome = "406"
		}
		ok := slices.Contains(x.allowed, outcome) || (slices.Contains(x.allowed, "any") && r.compressed())
		if !ok {
			return failed("`%s` → %s", x.acceptEncoding, outcome)
		}
		if outcome != "406" {
			if r.status != http.StatusOK {
				return failed("`%s` → status %d", x.acceptEncoding, r.status)
			}
			if why := r.intact(body); why != "" {
				return failed("`%s` → %s", x.acceptEncoding, why)
			}
		}
		got = append(got, outcome)
	}
	return passed(strings.Join(slices.Compact(got), ", "))
}

// codings are the content codings every row that compresses checks c in:
// gzip, and zstd where c speaks it.
func (c *column) codings() []string {
	if c.zstd {
		return []string{"gzip", "zstd"}
	}
	return []string{"gzip"}
}

// zstdOr is zstd for a middleware that speaks it, else the coding given.
func (c *column) zstdOr(coding string) []string {
	if c.zstd {
		return []string{"zstd"}
	}
	return []string{coding}
}

var negotiationRows = []row{{
	name: "no or empty `Accept-Encoding` → identity",
	pass: "without the field, and with an empty one, the response has no Content-Encoding",
	check: func(c *column) result {
		return negotiate(c, exchange{noField, []string{"identity"}}, exchange{"", []string{"identity"}})
	},
}, {
	name: "`gzip` → gzip",
	pass: "`Accept-Encoding: gzip` gets a gzip body that compress/gzip decodes to what the handler wrote",
	check: func(c *column) result {
		return negotiate(c, exchange{"gzip", []string{"gzip"}})
	},
}, {
	name: "coding names case-insensitive",
	pass: "`GZIP` and `Gzip;Q=1.0` both get gzip (RFC 9110 §8.4.1, §12.4.2)",
	check: func(c *column) result {
		return negotiate(c, exchange{"GZIP", []string{"gzip"}}, exchange{"Gzip;Q=1.0", []string{"gzip"}})
	},
}, {
	name: "`x-gzip` is gzip",
	pass: "`x-gzip` gets gzip (or x-gzip): RFC 9110 §8.4.1.3 says to treat them alike",
	check: func(c *column) result {
		return negotiate(c, exchange{"x-gzip", []string{"gzip", "x-gzip"}})
	},
}, {
	name: "`q=0` refuses",
	pass: "`gzip;q=0` and `gzip;q=0.000, identity` get identity",
	check: func(c *column) result {
		return negotiate(c, exchange{"gzip;q=0", []string{"identity"}},
			exchange{"gzip;q=0.000, identity", []string{"identity"}})
	},
}, {
	name: "`*` admits a coding",
	pass: "`*` gets a compressed body (any coding the middleware speaks, decoded)",
	check: func(c *column) result {
		return negotiate(c, exchange{"*", []string{"any"}})
	},
}, {
	name: "a named coding outranks `*`",
	pass: "`*, gzip;q=0` does not get gzip; `gzip, *;q=0` gets gzip",
	check: func(c *column) result {
		return negotiate(c, exchange{"*, gzip;q=0", []string{"identity", "zstd", "br", "deflate"}},
			exchange{"gzip, *;q=0", []string{"gzip"}})
	},
}, {
	name: "no acceptable coding: `identity;q=0`, `*;q=0`",
	pass: "neither gets a coding the field leaves unacceptable: the answer is identity " +
		"(the field disregarded, RFC 9110 §12.5.3) or 406",
	check: func(c *column) result {
		return negotiate(c, exchange{"identity;q=0", []string{"identity", "406"}},
			exchange{"*;q=0", []string{"identity", "406"}})
	},
}, {
	name: "`gzip, identity;q=0` → gzip",
	pass: "when identity is refused and gzip accepted, the body is gzip",
	check: func(c *column) result {
		return negotiate(c, exchange{"gzip, identity;q=0", []string{"gzip"}})
	},
}, {
	name: "the highest q wins",
	pass: "`zstd;q=0.5, gzip` gets gzip; `gzip;q=0.5, zstd` gets zstd (gzip from a middleware without zstd)",
	check: func(c *column) result {
		return negotiate(c, exchange{"zstd;q=0.5, gzip", []string{"gzip"}},
			exchange{"gzip;q=0.5, zstd", c.zstdOr("gzip")})
	},
}, {
	name: "zstd preferred at equal q",
	pass: "`gzip, zstd`, `zstd, gzip` and a browser's `" + browser + "` get zstd " +
		"(gzip from a middleware without zstd)",
	check: func(c *column) result {
		want := c.zstdOr("gzip")
		return negotiate(c, exchange{"gzip, zstd", want}, exchange{"zstd, gzip", want}, exchange{browser, want})
	},
}, {
	name: "speaks zstd, window ≤ 8 MiB",
	pass: "`zstd` gets a 1 MiB JSON body as zstd that klauspost's decoder (limited to an 8 MiB window) and " +
		"Debian's `zstd -d --memory=8MB` decode to what the handler wrote, its frame declaring a " +
		"window of at most 8 MiB (RFC 9659)",
	check: func(c *column) result {
		// 1 MiB: more than an encoder holds before it writes the frame
		// header, so the header declares the encoder's window rather than
		// the body's size.
		body := jsonBody(1 << 20)
		h := bodyHandler("application/json", body)
		return withResponse(c, h, "GET", []string{"Accept-Encoding", "zstd"}, func(r *response) result {
			if r.coding != "zstd" {
				return failed("`zstd` → %s", codingName(r.coding))
			}
			if why := r.intact(body); why != "" {
				return failed("%s", why)
			}
			win, err := zstdWindow(r.raw)
			if err != nil {
				return failed("frame header: %v", err)
			}
			if win > maxWindow {
				return failed("window %d KiB", win>>10)
			}
			return passed(fmt.Sprintf("window %d KiB", win>>10))
		})
	},
}}
