package httpcompress

import (
	"fmt"
	"mime"
	"strings"
)

// WithContentTypes makes Handler compress only bodies whose media type is
// one of types, in place of its default list of types compressed already.
// Each entry is a media type, "text/html", or a type with any subtype,
// "text/*"; parameters of the response's type are ignored, so
// "application/json" matches "application/json; charset=utf-8". Case is
// ignored. Handler panics on an entry that is not a media type, or that
// has parameters, which it would not match. A response with no
// Content-Type is matched by the type net/http's sniffing gives it. With
// no types, the default list applies again. Of WithContentTypes and
// WithContentTypeFilter, the last given wins.
func WithContentTypes(types ...string) Option {
	return func(h *handler) {
		if len(types) == 0 {
			h.compressType = nil // Handler sets the default
			return
		}
		list := make([]mediaRange, 0, len(types))
		for _, t := range types {
			mt, params, err := mime.ParseMediaType(t)
			if err != nil || len(params) > 0 || strings.Count(mt, "/") != 1 {
				panic(fmt.Sprintf("httpcompress.WithContentTypes: %q is not a media type without parameters (type/subtype or type/*)", t))
			}
			typ, sub, _ := strings.Cut(mt, "/")
			if typ == "*" || typ == "" || sub == "" {
				panic(fmt.Sprintf("httpcompress.WithContentTypes: %q is not a media type without parameters (type/subtype or type/*)", t))
			}
			list = append(list, mediaRange{typ, sub})
		}
		h.compressType = func(ct string) bool { return matchMediaRanges(list, ct) }
	}
}

// WithContentTypeFilter makes Handler compress a body only when
// compress, given its Content-Type value as the handler set it or as
// net/http's sniffing gives it, reports true. It replaces Handler's
// default list of types compressed already, so the filter decides alone.
// compress runs on every response that could otherwise be compressed,
// from many goroutines at once, and should not allocate. Of
// WithContentTypes and WithContentTypeFilter, the last given wins; a nil
// compress restores the default.
func WithContentTypeFilter(compress func(contentType string) bool) Option {
	return func(h *handler) { h.compressType = compress }
}

// mediaRange is an entry of WithContentTypes, lower-cased: sub is "*" for
// every subtype of typ.
type mediaRange struct{ typ, sub string }

// matchMediaRanges reports whether the media type of the Content-Type
// value ct is in list. It allocates nothing.
func matchMediaRanges(list []mediaRange, ct string) bool {
	ct, _, _ = strings.Cut(ct, ";")
	typ, sub, ok := strings.Cut(strings.TrimSpace(ct), "/")
	if !ok {
		return false
	}
	for _, m := range list {
		if strings.EqualFold(typ, m.typ) && (m.sub == "*" || strings.EqualFold(sub, m.sub)) {
			return true
		}
	}
	return false
}
