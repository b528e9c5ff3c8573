package httpcompress

import (
	"net/http"
	"strings"
	"sync/atomic"
)

// Indexes into a response's header values (see newHeaderValues).
const (
	valVary = iota // "Accept-Encoding"
	valGzip        // "gzip"
	valZstd        // "zstd"
	numVals
)

// headerValues returns the slice a header map holds for value i of vals:
// a one-element slice with no room after it, so that an append by anyone
// copies it rather than writing past it.
func headerValue(vals *[numVals]string, i int) []string { return vals[i : i+1 : i+1] }

// newHeaderValues returns the values Handler gives the Vary and
// Content-Encoding fields, "Accept-Encoding", "gzip" and "zstd", in an
// array that is this response's alone.
//
// The array is never pooled, nor handed to a second response: the header
// map belongs to the server and to any middleware outside Handler, which
// may read it after ServeHTTP returned, and http.Header lets a handler
// write into a value in place (h["Vary"][0] = ...), so an array that went
// back to a pool, or a package-level []string{"gzip"}, could show one
// response's header in another's. Instead the arrays are cut from slabs of
// headerSlabSets made at once and never reused: one allocation per
// headerSlabSets responses, and a slab is freed by the garbage collector
// when the last header map holding one of its arrays is.
func newHeaderValues() *[numVals]string {
	if s := headerSlab.Load(); s != nil {
		if i := s.next.Add(1) - 1; i < headerSlabSets {
			return &s.vals[i]
		}
	}
	s := new(valueSlab)
	for i := range s.vals {
		s.vals[i] = [numVals]string{"Accept-Encoding", "gzip", "zstd"}
	}
	s.next.Store(1) // vals[0] is this call's
	headerSlab.Store(s)
	return &s.vals[0]
}

// headerSlabSets is how many responses' header values one allocation
// holds: 64 arrays of three strings, 3 KiB.
const headerSlabSets = 64

// A valueSlab holds the header values of headerSlabSets responses. Each
// array is filled before the slab is published and handed out once (next
// counts the arrays taken), so no array is written after a response has
// it, and no two responses share one.
type valueSlab struct {
	next atomic.Uint32
	vals [headerSlabSets][numVals]string
}

// headerSlab is the slab newHeaderValues cuts from; a full one is replaced
// and left to the garbage collector.
var headerSlab atomic.Pointer[valueSlab]

// adaptRequest returns the request the handler should see when the
// response may be compressed, and the coding of the representation the
// client revalidates, identity when it revalidates none of Handler's.
//
// Byte ranges describe the uncompressed data, so a request carrying Range
// loses Range and If-Range, and is answered with the whole body. Entity
// tags of compressed responses carry the coding ("v1" is sent as
// W/"v1-zstd"), so If-None-Match gets each weak tag that ends in a
// coding's suffix again without it, for the handler to compare its own
// tag: W/"v1-zstd" becomes W/"v1-zstd", W/"v1". The tag as the client
// sent it stays in the list, because a handler may have made it itself
// (a weak tag of its own compressed copy), and a strong tag is never
// changed, as Handler makes none. Either change is made on a shallow copy
// of r with a copy of its header, as a handler must not modify its
// request; a request with neither field is returned as it is, with no
// allocation.
func adaptRequest(r *http.Request) (*http.Request, coding) {
	_, hasRange := r.Header["Range"]
	held := identity
	for _, v := range r.Header["If-None-Match"] {
		if c := taggedCoding(v); c != identity {
			held = c
			break
		}
	}
	if !hasRange && held == identity {
		return r, identity
	}
	r = r.WithContext(r.Context())
	r.Header = r.Header.Clone()
	delete(r.Header, "Range")
	delete(r.Header, "If-Range")
	if held != identity {
		inm := r.Header["If-None-Match"]
		for i, v := range inm {
			inm[i] = untagETags(v)
		}
	}
	return r, held
}

// etagSuffix returns the suffix Handler adds inside the entity tags of a
// response in coding c.
func etagSuffix(c coding) string {
	switch c {
	case codingGzip:
		return "-gzip"
	case codingZstd:
		return "-zstd"
	}
	return ""
}

// nextETag returns the first element of the entity-tag list v (an
// If-None-Match value) and the rest of the list. An entity tag may hold
// commas inside its quotes, so the list is not split on commas blindly;
// an element that is not an entity tag ("*") runs to the next comma.
func nextETag(v string) (tag, rest string) {
	v = strings.TrimLeft(v, " \t,")
	start := 0
	if strings.HasPrefix(v, "W/") {
		start = 2
	}
	if len(v) <= start || v[start] != '"' {
		tag, rest, _ = strings.Cut(v, ",")
		return strings.TrimSpace(tag), rest
	}
	end := strings.IndexByte(v[start+1:], '"')
	if end < 0 {
		return v, ""
	}
	end += start + 2
	return v[:end], v[end:]
}

// taggedCoding returns the coding whose suffix ends the first weak entity
// tag in the If-None-Match value v that has one, or identity. Handler
// makes only weak tags, so a strong one is never its.
func taggedCoding(v string) coding {
	for v != "" {
		var tag string
		tag, v = nextETag(v)
		if !strings.HasPrefix(tag, "W/") {
			continue
		}
		switch {
		case strings.HasSuffix(tag, `-zstd"`):
			return codingZstd
		case strings.HasSuffix(tag, `-gzip"`):
			return codingGzip
		}
	}
	return identity
}

// untagETags returns the If-None-Match value v with each weak entity tag
// that ends in a coding's suffix followed by the same tag without the
// suffix: W/"v1-gzip" gives W/"v1-gzip", W/"v1".
func untagETags(v string) string {
	var b strings.Builder
	for v != "" {
		var tag string
		tag, v = nextETag(v)
		if tag == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tag)
		if !strings.HasPrefix(tag, "W/") {
			continue
		}
		for _, c := range [...]coding{codingZstd, codingGzip} {
			if suffix := etagSuffix(c) + `"`; strings.HasSuffix(tag, suffix) {
				b.WriteString(", ")
				b.WriteString(tag[:len(tag)-len(suffix)])
				b.WriteByte('"')
				break
			}
		}
	}
	return b.String()
}

// hasETag reports whether the If-None-Match values inm list the entity
// tag tag, byte for byte.
func hasETag(inm []string, tag string) bool {
	for _, v := range inm {
		for v != "" {
			var t string
			t, v = nextETag(v)
			if t == tag {
				return true
			}
		}
	}
	return false
}

// tagRevalidated gives the entity tags of a 304 the coding c of the copy
// the client revalidates, where the client holds that copy under
// Handler's tag: the handler's "v1" becomes W/"v1-gzip" when the client's
// If-None-Match values inm name W/"v1-gzip". A tag the client holds as
// the handler sent it, such as the handler's own W/"asset-gzip", stays as
// it is. The handler's slice is not written to; it allocates only when it
// changes a tag.
func tagRevalidated(hdr http.Header, c coding, inm []string) {
	suffix := etagSuffix(c)
	for _, key := range [...]string{"Etag", "ETag"} {
		tags := hdr[key]
		var out []string
		for i, tag := range tags {
			opaque, ok := strings.CutPrefix(tag, "W/")
			if !ok {
				opaque = tag
			}
			if len(opaque) < 2 || opaque[0] != '"' || opaque[len(opaque)-1] != '"' {
				continue
			}
			ours := `W/` + opaque[:len(opaque)-1] + suffix + `"`
			if !hasETag(inm, ours) {
				continue
			}
			if out == nil {
				out = append([]string(nil), tags...)
			}
			out[i] = ours
		}
		if out != nil {
			hdr[key] = out
		}
	}
}

// tagETags makes the entity tags of hdr name the coding c, as weak tags:
// "v1" and W/"v1" both become W/"v1-zstd" for zstd, so that no validator
// of one representation labels another (gzip's, zstd's and the identity
// one differ), and If-Range, which never matches a weak tag, cannot splice
// ranges of two representations. Values that are not entity tags are
// dropped. It looks under "ETag" too, the spelling handlers that assign
// the map directly use to keep its case. It allocates only when hdr has an
// ETag.
func tagETags(hdr http.Header, c coding) {
	suffix := etagSuffix(c)
	for _, key := range [...]string{"Etag", "ETag"} {
		tags, ok := hdr[key]
		if !ok {
			continue
		}
		out := make([]string, 0, len(tags))
		for _, tag := range tags {
			opaque, ok := strings.CutPrefix(tag, "W/")
			if !ok {
				opaque = tag
			}
			if len(opaque) < 2 || opaque[0] != '"' || opaque[len(opaque)-1] != '"' {
				continue
			}
			out = append(out, `W/`+opaque[:len(opaque)-1]+suffix+`"`)
		}
		if len(out) == 0 {
			delete(hdr, key)
			continue
		}
		hdr[key] = out
	}
}

// addVary adds "Vary: Accept-Encoding" unless hdr already names it. When
// hdr has no Vary, it stores value, if not nil, as the field's values.
func addVary(hdr http.Header, value []string) {
	vals := hdr["Vary"]
	for _, v := range vals {
		for v != "" {
			var f string
			f, v, _ = strings.Cut(v, ",")
			if f = strings.TrimSpace(f); f == "*" || strings.EqualFold(f, "Accept-Encoding") {
				return
			}
		}
	}
	if len(vals) == 0 && value != nil {
		hdr["Vary"] = value
		return
	}
	hdr["Vary"] = append(vals, "Accept-Encoding")
}
