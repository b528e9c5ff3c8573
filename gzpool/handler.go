package gzpool

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/poolkit/poolkit/pool"
)

// DefaultMinSize is the smallest response body, in bytes, that Handler
// compresses unless WithMinSize says otherwise. Below about a kilobyte the
// gzip header, trailer and Content-Encoding header eat most of the saving,
// and a response usually fits one TCP segment either way.
const DefaultMinSize = 1024

// maxRetainedBuf is the largest first-bytes buffer a pooled response writer
// keeps; handlers configured with a larger minimum size allocate theirs
// per request rather than pinning it in the pool.
const maxRetainedBuf = 64 << 10

// Option configures Handler.
type Option func(*handler)

// WithLevel sets the compression level of Handler's responses: one of
// HuffmanOnly, DefaultCompression or 0 to 9. Handler panics on other
// values.
func WithLevel(level int) Option {
	return func(h *handler) { h.level = level }
}

// WithMinSize sets the smallest response body Handler compresses; shorter
// bodies are sent as they are. Handler buffers up to n bytes of each
// response to decide, unless the handler sets Content-Length. Zero or less
// compresses every body.
func WithMinSize(n int) Option {
	return func(h *handler) { h.minSize = max(n, 0) }
}

// Handler returns an http.Handler that serves h with its responses gzipped
// for clients that accept gzip, using pooled writers.
//
// Handler compresses a response when the request's Accept-Encoding admits
// gzip (q-values honoured: "gzip;q=0" refuses it, "*" admits it unless
// gzip is refused by name), the method is not HEAD, the status is not 1xx,
// 204, 206 or 304, the handler set no Content-Encoding or Content-Range
// of its own, and the body reaches the minimum size (DefaultMinSize unless
// WithMinSize): it buffers the first bytes to decide, or goes by the
// Content-Length the handler set. A compressed response carries
// "Content-Encoding: gzip" and no Content-Length. Handler adds
// "Vary: Accept-Encoding" to every response it might have compressed,
// whether it did or not, keeping any Vary the handler sets. (For requests
// that do not accept gzip, h gets the server's ResponseWriter itself: there,
// a handler that replaces Vary with Header().Set rather than adding to it
// drops Accept-Encoding, which costs caches only a missed compression.)
//
// Ranges and validators: byte ranges and strong entity tags describe the
// uncompressed data, so a compressed response must not carry them, or a
// client resuming a download would append a range of the uncompressed data
// to a compressed prefix. A compressed response, and a 304 to a request
// that accepts gzip, therefore has no Accept-Ranges field, and its strong
// ETag is made weak ("v1" becomes W/"v1"; a value that is not an entity tag
// is dropped): If-Range never matches a weak tag, while If-None-Match still
// does. And a request that accepts gzip and carries a Range field reaches h
// without Range and If-Range (on a copy of the request), so it is answered
// with the whole body, compressed, never with a 206: an If-Range date, as
// http.FileServer validates with, cannot tell the two representations
// apart. Clients that want ranges ask for identity, as browsers do for
// media and Go's Transport does for a request with a Range. One mix remains
// the client's to avoid: a compressed prefix, then a resume that no longer
// accepts gzip validated by a date alone.
//
// The ResponseWriter Handler passes to h implements http.Flusher: Flush
// sends everything written so far through the compressor to the client, so
// streaming responses keep streaming. It also unwraps for
// http.ResponseController, which reaches the server's deadlines through it.
//
// Requests that switch protocols (an Upgrade field with a Connection field
// naming "upgrade", as a websocket handshake has, or the CONNECT method)
// reach h untouched, with the server's own ResponseWriter. For other
// requests, the ResponseWriter is an http.Hijacker whenever the server's
// is (directly or through Unwrap), so w.(http.Hijacker) and
// ResponseController.Hijack work as without the middleware: Hijack first
// sends what h has written, and after it Write returns http.ErrHijacked
// and Handler writes nothing more.
//
// Once its pools are warm, Handler makes no allocation per response,
// compressed or not, beyond what h allocates but one for every 64
// responses: the Vary and Content-Encoding values it sets are each
// response's own, never pooled nor shared, because the header map outlives
// the request, and they are cut 64 at a time from a slab that is never
// reused. Three cases cost more: sniffing a Content-Type h did not set,
// weakening an ETag, and copying a Range request.
//
// If h panics, Handler neither finishes the response nor returns the
// half-used gzip writer to its pool; the panic goes on to the server.
func Handler(h http.Handler, opts ...Option) http.Handler {
	hd := &handler{next: h, level: DefaultCompression, minSize: DefaultMinSize}
	for _, opt := range opts {
		opt(hd)
	}
	if err := checkLevel(hd.level); err != nil {
		panic(fmt.Sprintf("gzpool.Handler: %v", err))
	}
	return hd
}

type handler struct {
	next    http.Handler
	level   int
	minSize int
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isUpgrade(r) {
		h.next.ServeHTTP(w, r)
		return
	}
	hdr := w.Header()
	vals := newHeaderValues()
	addVary(hdr, vals[0:1:1])
	if r.Method == http.MethodHead || !acceptsGzip(r.Header["Accept-Encoding"]) {
		h.next.ServeHTTP(w, r)
		return
	}
	if _, ok := r.Header["Range"]; ok {
		r = withoutRange(r)
	}
	rw := getResponseWriter(w, h)
	rw.vals = vals
	defer rw.release() // also when h panics: then rw.done is false
	var hw http.ResponseWriter = rw
	if canHijack(w) {
		hw = hijackWriter{rw} // one pointer: no allocation
	}
	h.next.ServeHTTP(hw, r)
	rw.finish()
}

// isUpgrade reports whether r asks to switch protocols: it has an Upgrade
// field and its Connection field names "upgrade" (a websocket or h2c
// handshake), or it is a CONNECT (also HTTP/2's extended CONNECT for
// websockets). Its response is a tunnel, not a body to compress.
func isUpgrade(r *http.Request) bool {
	if r.Method == http.MethodConnect {
		return true
	}
	if len(r.Header["Upgrade"]) == 0 {
		return false
	}
	for _, v := range r.Header["Connection"] {
		for v != "" {
			var f string
			f, v, _ = strings.Cut(v, ",")
			if strings.EqualFold(strings.TrimSpace(f), "upgrade") {
				return true
			}
		}
	}
	return false
}

// canHijack reports whether w, or a writer it unwraps to (the chain
// http.ResponseController follows), is an http.Hijacker.
func canHijack(w http.ResponseWriter) bool {
	for {
		switch t := w.(type) {
		case http.Hijacker:
			return true
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return false
		}
	}
}

// newHeaderValues returns the values Handler gives the Vary and
// Content-Encoding fields, "Accept-Encoding" and "gzip", in an array that
// is this response's alone. A header map holds them as vals[0:1:1] and
// vals[1:2:2], so that an append by anyone copies them rather than
// writing past them.
//
// The array is never pooled, nor handed to a second response: the header
// map belongs to the server and to any middleware outside Handler, which
// may read it after ServeHTTP returned, and http.Header lets a handler
// write into a value in place (h["Vary"][0] = ...), so an array that went
// back to a pool, or a package-level []string{"gzip"}, could show one
// response's header in another's. Instead the arrays are cut from slabs of
// headerSlabPairs made at once and never reused: one allocation per
// headerSlabPairs responses, and a slab is freed by the garbage collector
// when the last header map holding one of its arrays is.
func newHeaderValues() *[2]string {
	if s := headerSlab.Load(); s != nil {
		if i := s.next.Add(1) - 1; i < headerSlabPairs {
			return &s.vals[i]
		}
	}
	s := new(valueSlab)
	for i := range s.vals {
		s.vals[i] = [2]string{"Accept-Encoding", "gzip"}
	}
	s.next.Store(1) // vals[0] is this call's
	headerSlab.Store(s)
	return &s.vals[0]
}

// headerSlabPairs is how many responses' header values one allocation
// holds: 64 arrays of two strings, 2 KiB.
const headerSlabPairs = 64

// A valueSlab holds the header values of headerSlabPairs responses. Each
// array is filled before the slab is published and handed out once (next
// counts the arrays taken), so no array is written after a response has
// it, and no two responses share one.
type valueSlab struct {
	next atomic.Uint32
	vals [headerSlabPairs][2]string
}

// headerSlab is the slab newHeaderValues cuts from; a full one is replaced
// and left to the garbage collector.
var headerSlab atomic.Pointer[valueSlab]

// withoutRange returns a shallow copy of r without the Range and If-Range
// fields, leaving r as it was: a handler must not modify its request.
func withoutRange(r *http.Request) *http.Request {
	r = r.WithContext(r.Context())
	r.Header = r.Header.Clone()
	delete(r.Header, "Range")
	delete(r.Header, "If-Range")
	return r
}

// weakenETag turns the strong entity tags of hdr into weak ones ("v1"
// becomes W/"v1") and drops values that are not entity tags, so that no
// strong validator of the uncompressed representation labels a compressed
// one. It looks under "ETag" too, the spelling handlers that assign the map
// directly use to keep its case. It allocates only when hdr has an ETag.
func weakenETag(hdr http.Header) {
	for _, key := range [...]string{"Etag", "ETag"} {
		tags, ok := hdr[key]
		if !ok {
			continue
		}
		weak := make([]string, 0, len(tags))
		for _, tag := range tags {
			switch {
			case strings.HasPrefix(tag, `W/"`):
				weak = append(weak, tag)
			case strings.HasPrefix(tag, `"`):
				weak = append(weak, "W/"+tag)
			}
		}
		if len(weak) == 0 {
			delete(hdr, key)
			continue
		}
		hdr[key] = weak
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

// acceptsGzip reports whether the Accept-Encoding field values admit gzip
// (or its alias x-gzip), by q-value: a named gzip (or x-gzip) wins over
// "*", and q=0 refuses. It allocates nothing.
func acceptsGzip(values []string) bool {
	gzipQ, starQ := -1, -1 // q-values in thousandths, -1 when absent
	for _, v := range values {
		for v != "" {
			var item string
			item, v, _ = strings.Cut(v, ",")
			name, params, _ := strings.Cut(item, ";")
			name = strings.TrimSpace(name)
			var q int
			switch {
			case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
				q = parseQ(params)
				gzipQ = max(gzipQ, q)
			case name == "*":
				q = parseQ(params)
				starQ = max(starQ, q)
			}
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

// parseQ returns the q-value, in thousandths, of the parameters after a
// coding name ("; q=0.5" gives 500). A missing q means 1000; a malformed
// one means 0, so that a coding is used only when the client clearly
// accepts it.
func parseQ(params string) int {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		return qValue(strings.TrimSpace(val))
	}
	return 1000
}

// qValue parses RFC 9110's qvalue: "0" or "1", optionally followed by a
// dot and up to three digits, 1 not exceeding 1.000.
func qValue(s string) int {
	if s == "" || (s[0] != '0' && s[0] != '1') {
		return 0
	}
	q := int(s[0]-'0') * 1000
	rest := s[1:]
	if rest == "" {
		return q
	}
	if rest[0] != '.' || len(rest) > 4 {
		return 0
	}
	scale := 100
	for _, c := range []byte(rest[1:]) {
		if c < '0' || c > '9' {
			return 0
		}
		q += int(c-'0') * scale
		scale /= 10
	}
	if q > 1000 {
		return 0
	}
	return q
}

// Response writer states.
const (
	undecided   = iota // buffering the first bytes
	passthrough        // sending the body as the handler writes it
	compressing        // sending the body through gz
)

// responseWriter is the http.ResponseWriter Handler gives the wrapped
// handler. It is pooled: a ResponseWriter must not be used after
// ServeHTTP returns (net/http's rule), so Handler owns it again then.
type responseWriter struct {
	w        http.ResponseWriter
	h        *handler
	gz       *writerState // set while compressing
	vals     *[2]string   // the response's header values: see newHeaderValues
	buf      []byte       // the first bytes, while undecided
	status   int          // 0 until the handler sets one
	state    int
	done     bool // finish ran to the end
	hijacked bool // the handler took over the connection
}

// hijackWriter is the responseWriter of a request whose server
// ResponseWriter can be hijacked: it adds http.Hijacker, so that
// w.(http.Hijacker) works as it does without the middleware.
type hijackWriter struct{ *responseWriter }

// Hijack sends what the handler has written so far, as net/http does
// before it hands over the connection, then hijacks the underlying
// ResponseWriter. After a successful Hijack, Write returns
// http.ErrHijacked and the middleware writes nothing more.
func (hw hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	rw := hw.responseWriter
	if rw.hijacked {
		return nil, nil, http.ErrHijacked
	}
	switch rw.state {
	case undecided:
		if rw.status != 0 {
			rw.startPassthrough()
		}
	case compressing:
		if err := rw.gz.gz.Flush(); err != nil {
			return nil, nil, err
		}
	}
	conn, brw, err := http.NewResponseController(rw.w).Hijack()
	if err == nil {
		rw.hijacked = true
	}
	return conn, brw, err
}

// rwPool holds pointers, so Get and Put allocate nothing.
var rwPool pool.Pool[*responseWriter]

func getResponseWriter(w http.ResponseWriter, h *handler) *responseWriter {
	rw := rwPool.Get()
	if rw == nil {
		rw = new(responseWriter)
	}
	rw.w, rw.h = w, h
	return rw
}

// release returns rw to its pool, emptied. When finish did not run to the
// end (the handler panicked, or writing to the client panicked), the gzip
// writer may be half-way through a stream: it is dropped, not pooled.
func (rw *responseWriter) release() {
	if rw.gz != nil && rw.done {
		putWriter(rw.gz)
	}
	buf := rw.buf[:0]
	if cap(buf) > maxRetainedBuf {
		buf = nil
	}
	*rw = responseWriter{buf: buf}
	rwPool.Put(rw)
}

// Header returns the header map of the underlying ResponseWriter.
func (rw *responseWriter) Header() http.Header { return rw.w.Header() }

// Unwrap returns the underlying ResponseWriter, for
// http.ResponseController.
func (rw *responseWriter) Unwrap() http.ResponseWriter { return rw.w }

// WriteHeader records the status. Informational statuses other than 101
// go to the client at once; a response that cannot be compressed is
// started at once, and others wait for the first bytes of the body. As in
// net/http, a code that is not three digits panics, unless the call is
// superfluous.
func (rw *responseWriter) WriteHeader(code int) {
	if rw.hijacked || rw.status != 0 || rw.state != undecided {
		return // superfluous, as net/http ignores it
	}
	if code < 100 || code > 999 {
		// net/http's check (go.dev/issue/22880), with its message.
		panic(fmt.Sprintf("invalid WriteHeader code %v", code))
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		rw.w.WriteHeader(code)
		return
	}
	rw.status = code
	if !rw.compressible() {
		rw.startPassthrough()
		return
	}
	if cl := rw.w.Header().Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n < int64(rw.h.minSize) {
			rw.startPassthrough()
		}
	}
}

// compressible reports whether the status and headers allow compression.
func (rw *responseWriter) compressible() bool {
	switch rw.status {
	case http.StatusSwitchingProtocols, http.StatusNoContent,
		http.StatusPartialContent, http.StatusNotModified:
		return false
	}
	hdr := rw.w.Header()
	return hdr.Get("Content-Encoding") == "" && hdr.Get("Content-Range") == ""
}

// Write buffers or compresses p.
func (rw *responseWriter) Write(p []byte) (int, error) {
	if rw.hijacked {
		return 0, http.ErrHijacked
	}
	if rw.status == 0 {
		rw.WriteHeader(http.StatusOK)
	}
	switch rw.state {
	case passthrough:
		return rw.w.Write(p)
	case compressing:
		return rw.gz.gz.Write(p)
	}
	if len(rw.buf)+len(p) < rw.h.minSize {
		rw.buf = append(rw.buf, p...)
		return len(p), nil
	}
	if err := rw.startGzip(p); err != nil {
		return 0, err
	}
	return rw.gz.gz.Write(p)
}

// startPassthrough sends the header and the buffered bytes as they are.
func (rw *responseWriter) startPassthrough() {
	rw.state = passthrough
	hdr := rw.w.Header()
	addVary(hdr, rw.vals[0:1:1]) // the handler may have replaced it
	if rw.status == http.StatusNotModified {
		// The client may hold the compressed representation: this
		// response updates its stored header fields.
		weakenETag(hdr)
	}
	rw.w.WriteHeader(rw.status)
	if len(rw.buf) > 0 {
		_, _ = rw.w.Write(rw.buf) // a failed write shows on the next one
		rw.buf = rw.buf[:0]
	}
}

// startGzip sends the header of a compressed response and the buffered
// bytes through a pooled gzip writer. next is the data about to be
// written, used with the buffer to sniff a missing Content-Type.
func (rw *responseWriter) startGzip(next []byte) error {
	hdr := rw.w.Header()
	if _, ok := hdr["Content-Type"]; !ok {
		// Sniff the uncompressed data, as net/http would: it would
		// otherwise sniff the gzip bytes.
		sniff := rw.buf
		if len(sniff) < 512 && len(next) > 0 {
			sniff = append(sniff, next[:min(len(next), 512-len(sniff))]...)
			rw.buf = sniff[:len(rw.buf)]
		}
		hdr["Content-Type"] = []string{http.DetectContentType(sniff)}
	}
	delete(hdr, "Content-Length")
	// Ranges and strong validators belong to the uncompressed data.
	delete(hdr, "Accept-Ranges")
	weakenETag(hdr)
	hdr["Content-Encoding"] = rw.vals[1:2:2]
	addVary(hdr, rw.vals[0:1:1]) // the handler may have replaced it
	rw.state = compressing
	rw.w.WriteHeader(rw.status)
	rw.gz = getWriter(rw.h.level)
	rw.gz.sink.w = rw.w
	if len(rw.buf) > 0 {
		_, err := rw.gz.gz.Write(rw.buf)
		rw.buf = rw.buf[:0]
		return err
	}
	return nil
}

// Flush sends everything written so far to the client, compressed if the
// response is compressed.
func (rw *responseWriter) Flush() { _ = rw.FlushError() }

// FlushError is Flush returning the error, for http.ResponseController.
func (rw *responseWriter) FlushError() error {
	if rw.hijacked {
		return http.ErrHijacked
	}
	if rw.status == 0 {
		rw.WriteHeader(http.StatusOK)
	}
	if rw.state == undecided {
		// A flushing handler is streaming: compress what is to come.
		if err := rw.startGzip(nil); err != nil {
			return err
		}
	}
	if rw.state == compressing {
		if err := rw.gz.gz.Flush(); err != nil {
			return err
		}
	}
	if f, ok := rw.w.(http.Flusher); ok {
		f.Flush()
		return nil
	}
	return http.NewResponseController(rw.w).Flush()
}

// finish completes the response after the handler returned normally:
// sends a short buffered body as it is, or ends the gzip stream.
func (rw *responseWriter) finish() {
	if rw.hijacked {
		// The connection is the handler's: write nothing. The gzip
		// writer is between calls, so putWriter's Reset makes it new.
		rw.done = true
		return
	}
	switch rw.state {
	case undecided:
		if rw.status != 0 {
			rw.startPassthrough()
		}
	case compressing:
		_ = rw.gz.gz.Close() // the client sees a truncated body on error
	}
	rw.done = true
}
