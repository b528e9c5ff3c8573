package gzpool

import (
	"net/http"

	"github.com/poolkit/poolkit/httpcompress"
)

// DefaultMinSize is httpcompress.DefaultMinSize.
//
// Deprecated: use httpcompress.DefaultMinSize.
const DefaultMinSize = httpcompress.DefaultMinSize

// Option configures Handler; it is httpcompress.Option.
//
// Deprecated: use httpcompress.Option.
type Option = httpcompress.Option

// WithLevel sets the gzip level of Handler's gzip responses: one of
// HuffmanOnly, DefaultCompression or 0 to 9.
//
// Deprecated: use httpcompress.WithGzipLevel.
func WithLevel(level int) Option { return httpcompress.WithGzipLevel(level) }

// WithMinSize is httpcompress.WithMinSize.
//
// Deprecated: use httpcompress.WithMinSize.
func WithMinSize(n int) Option { return httpcompress.WithMinSize(n) }

// Handler is httpcompress.Handler: it compresses h's responses with zstd
// or gzip, whichever the client prefers (zstd at equal q-values), and
// with gzip alone given httpcompress.WithoutZstd().
//
// Deprecated: the middleware moved to package httpcompress, whose name
// says what it does now that it speaks zstd too. Replace
// gzpool.Handler(h, opts...) with httpcompress.Handler(h, opts...), and
// gzpool.WithLevel with httpcompress.WithGzipLevel.
func Handler(h http.Handler, opts ...Option) http.Handler {
	return httpcompress.Handler(h, opts...)
}
