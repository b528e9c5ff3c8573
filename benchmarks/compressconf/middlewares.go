package main

import (
	"errors"
	"net/http"

	"github.com/CAFxX/httpcompression"
	"github.com/NYTimes/gziphandler"
	chi "github.com/go-chi/chi/v5/middleware"
	"github.com/klauspost/compress/gzhttp"
	"github.com/poolkit/poolkit/httpcompress"
)

// A setup is what a row asks of a middleware beyond its defaults. The zero
// setup is the middleware as its documentation's first example uses it.
type setup struct {
	// onlyTypes, when not nil, restricts compression to these media types
	// (the content-type filtering row).
	onlyTypes []string
	// pad asks for BREACH padding: random-length bytes added to each
	// compressed response, which decoders skip (the padding row).
	pad bool
}

// errNoOption is what a middleware's wrap returns when it has no option for
// what a setup asks; the row then fails with that note.
var errNoOption = errors.New("no option for this")

// A middleware is one column of the table: wrap puts h behind it.
type middleware struct {
	name string
	wrap func(h http.Handler, s setup) (http.Handler, error)
}

// middlewares are the table's columns, poolkit's first.
var middlewares = []middleware{
	{"poolkit", poolkit},
	{"gzhttp", gzhttpWrap},
	{"httpcompression", httpcompressionWrap},
	{"gziphandler", gziphandlerWrap},
	{"chi", chiWrap},
}

// poolkit puts h behind poolkit's compression middleware,
// httpcompress.Handler with its defaults (zstd preferred, gzip's default
// level, a 1 KiB minimum, its list of types compressed already). It is the
// one place that names it: point it at another middleware and the table
// and the test follow.
func poolkit(h http.Handler, s setup) (http.Handler, error) {
	var opts []httpcompress.Option
	if s.onlyTypes != nil {
		opts = append(opts, httpcompress.WithContentTypes(s.onlyTypes...))
	}
	if s.pad {
		// Up to 32 bytes, as gzhttp's column pads.
		opts = append(opts, httpcompress.WithPadding(32))
	}
	return httpcompress.Handler(h, opts...), nil
}

// gzhttpWrap is klauspost/compress's gzhttp with its defaults (zstd on and
// preferred, gzip's default level, a 1 KiB minimum, its list of
// incompressible types left alone).
func gzhttpWrap(h http.Handler, s setup) (http.Handler, error) {
	// gzhttp's option type is unexported: start the list with its
	// default minimum size, so that the slice's type is inferred.
	opts := list(gzhttp.MinSize(gzhttp.DefaultMinSize))
	if s.onlyTypes != nil {
		opts = append(opts, gzhttp.ContentTypes(s.onlyTypes))
	}
	if s.pad {
		// Up to 32 bytes, chosen from a hash of the first 64 KiB of the
		// body, as its README suggests.
		opts = append(opts, gzhttp.RandomJitter(32, 0, false))
	}
	wrap, err := gzhttp.NewWrapper(opts...)
	if err != nil {
		return nil, err
	}
	return wrap(h), nil
}

// httpcompressionWrap is CAFxX/httpcompression's DefaultAdapter: gzip,
// deflate, brotli and zstd, a 200-byte minimum.
func httpcompressionWrap(h http.Handler, s setup) (http.Handler, error) {
	var opts []httpcompression.Option
	if s.onlyTypes != nil {
		opts = append(opts, httpcompression.ContentTypes(s.onlyTypes, false))
	}
	if s.pad {
		return nil, errNoOption
	}
	wrap, err := httpcompression.DefaultAdapter(opts...)
	if err != nil {
		return nil, err
	}
	return wrap(h), nil
}

// gziphandlerWrap is NYTimes/gziphandler's GzipHandler: gzip only, a
// 1400-byte minimum.
func gziphandlerWrap(h http.Handler, s setup) (http.Handler, error) {
	if s.pad {
		return nil, errNoOption
	}
	if s.onlyTypes == nil {
		return gziphandler.GzipHandler(h), nil
	}
	wrap, err := gziphandler.GzipHandlerWithOpts(gziphandler.ContentTypes(s.onlyTypes))
	if err != nil {
		return nil, err
	}
	return wrap(h), nil
}

// chiWrap is go-chi's middleware.Compress at level 5, the level its
// documentation calls sensible, with its default list of compressible
// types: gzip and deflate.
func chiWrap(h http.Handler, s setup) (http.Handler, error) {
	if s.pad {
		return nil, errNoOption
	}
	return chi.Compress(5, s.onlyTypes...)(h), nil
}

// list returns its arguments as a slice, of a type that may be unexported.
func list[T any](xs ...T) []T { return xs }
