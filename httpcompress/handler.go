package httpcompress

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/poolkit/poolkit/internal/encpool"
	"github.com/poolkit/poolkit/internal/zstdblock"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/zstdpool"
)

// DefaultMinSize is the smallest response body, in bytes, that Handler
// compresses unless WithMinSize says otherwise. Below about a kilobyte the
// coding's framing and the Content-Encoding header eat most of the saving,
// and a response usually fits one TCP segment either way.
const DefaultMinSize = 1024

// maxRetainedBuf is the largest first-bytes buffer a pooled response writer
// keeps: one block, the most a whole body held for the one-block encoder
// needs (holdWhole grows the buffer no further). Handlers configured with
// a larger minimum size allocate theirs per request rather than pinning it
// in the pool.
const maxRetainedBuf = zstdblock.MaxInput

// Option configures Handler.
type Option func(*handler)

// WithGzipLevel sets the gzip level of Handler's gzip responses, in
// compress/gzip's numbering: -2 (HuffmanOnly), -1 (the default, 5 for
// klauspost's gzip) or 0 to 9. Handler panics on other values.
func WithGzipLevel(level int) Option {
	return func(h *handler) { h.gzipLevel = level }
}

// WithZstdLevel sets the zstd level of Handler's zstd responses, one of
// zstdpool.SpeedFastest (the default) to zstdpool.SpeedBestCompression.
// Handler panics on other values.
func WithZstdLevel(level int) Option {
	return func(h *handler) { h.zstdLevel = level }
}

// WithoutZstd makes Handler answer with gzip or identity only, as before
// it spoke zstd.
func WithoutZstd() Option {
	return func(h *handler) { h.zstdOff = true }
}

// WithMinSize sets the smallest response body Handler compresses; shorter
// bodies are sent as they are. Handler buffers up to n bytes of each
// response to decide, unless the handler sets Content-Length. Zero or less
// compresses every body.
func WithMinSize(n int) Option {
	return func(h *handler) { h.minSize = max(n, 0) }
}

// Handler returns an http.Handler that serves h with its responses
// compressed, with zstd or gzip as the client accepts, using pooled
// compressors. See the package documentation for what it compresses, how
// it negotiates, what it does to validators and ranges, and what it costs.
//
// If h panics, Handler neither finishes the response nor returns the
// half-used compressor to its pool; the panic goes on to the server.
func Handler(h http.Handler, opts ...Option) http.Handler {
	hd := &handler{next: h, gzipLevel: -1, zstdLevel: zstdpool.SpeedFastest, minSize: DefaultMinSize}
	for _, opt := range opts {
		opt(hd)
	}
	if hd.gzipLevel < encpool.GzipMinLevel || hd.gzipLevel > encpool.GzipMaxLevel {
		panic(fmt.Sprintf("httpcompress.Handler: invalid gzip level %d, want %d to %d", hd.gzipLevel, encpool.GzipMinLevel, encpool.GzipMaxLevel))
	}
	if hd.zstdLevel < zstdpool.SpeedFastest || hd.zstdLevel > zstdpool.SpeedBestCompression {
		panic(fmt.Sprintf("httpcompress.Handler: invalid zstd level %d, want %d (SpeedFastest) to %d (SpeedBestCompression)", hd.zstdLevel, zstdpool.SpeedFastest, zstdpool.SpeedBestCompression))
	}
	if hd.compressType == nil {
		hd.compressType = compressibleType
	}
	if hd.zstdLevel > zstdpool.SpeedFastest {
		// SpeedFastest streams through encpool's ZstdStream.
		hd.zstd = zstdPool(hd.zstdLevel)
	}
	return hd
}

type handler struct {
	next      http.Handler
	zstd      *encpool.ZstdPool // above SpeedFastest; nil at SpeedFastest
	gzipLevel int
	zstdLevel int
	minSize   int
	zstdOff   bool
	// compressType reports whether a body of a Content-Type is
	// compressed: compressibleType unless an option replaced it.
	compressType func(contentType string) bool
	padding      string // what paddings are cut from; empty for none
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isUpgrade(r) {
		h.next.ServeHTTP(w, r)
		return
	}
	// A response to HEAD, or to a request that accepts no coding, is
	// never compressed (coding identity), but still goes through rw, which
	// adds Vary once, when it starts.
	c := identity
	held := identity                 // the coding of the copy the client revalidates
	inm := r.Header["If-None-Match"] // as the client sent it
	if r.Method != http.MethodHead {
		c = negotiate(r.Header["Accept-Encoding"], true, !h.zstdOff)
		if c != identity {
			r, held = adaptRequest(r)
		}
	}
	rw := getResponseWriter(w, h)
	rw.vals = newHeaderValues()
	rw.coding = c
	rw.held = held
	rw.inm = inm
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

// Response writer states.
const (
	undecided   = iota // buffering the first bytes
	passthrough        // sending the body as the handler writes it
	compressing        // sending the body through the compressor
	// wholeBody: collecting a body to compress whole, as one zstd
	// block, when the handler returns; nothing is sent yet.
	wholeBody
)

// responseWriter is the http.ResponseWriter Handler gives the wrapped
// handler. It is pooled: a ResponseWriter must not be used after
// ServeHTTP returns (net/http's rule), so Handler owns it again then.
type responseWriter struct {
	w        http.ResponseWriter
	h        *handler
	gz       *encpool.Gzip       // set while compressing with gzip
	zs       *encpool.Zstd       // set while compressing with zstd above SpeedFastest
	zb       *encpool.ZstdStream // set while compressing with zstd at SpeedFastest
	vals     *[numVals]string
	buf      []byte // the first bytes, while undecided
	status   int    // 0 until the handler sets one
	state    int
	coding   coding        // the coding negotiated; identity: never compress
	held     coding        // the coding of the copy the client revalidates
	inm      []string      // the request's If-None-Match, as the client sent it
	rng      *rand.ChaCha8 // draws padding lengths; kept across uses
	done     bool          // finish ran to the end
	ct       string        // the last Content-Type compressType was asked about
	ctOK     bool          // and its answer,
	ctKnown  bool          // if it was asked
	hijacked bool          // the handler took over the connection
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
	case wholeBody:
		if err := rw.startStream(); err != nil {
			return nil, nil, err
		}
		fallthrough
	case compressing:
		if err := rw.flushEncoder(); err != nil {
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
// end (the handler panicked, or writing to the client panicked), the
// compressor may be half-way through a stream: it is dropped, not pooled.
func (rw *responseWriter) release() {
	if rw.done {
		if rw.gz != nil {
			encpool.PutGzip(rw.gz)
		}
		if rw.zs != nil {
			rw.h.zstd.Put(rw.zs)
		}
		if rw.zb != nil {
			encpool.PutZstdStream(rw.zb)
		}
	}
	buf := rw.buf[:0]
	if cap(buf) > maxRetainedBuf {
		buf = nil
	}
	*rw = responseWriter{buf: buf, rng: rw.rng}
	rwPool.Put(rw)
}

// Header returns the header map of the underlying ResponseWriter.
func (rw *responseWriter) Header() http.Header { return rw.w.Header() }

// Unwrap returns the underlying ResponseWriter, for
// http.ResponseController.
func (rw *responseWriter) Unwrap() http.ResponseWriter { return rw.w }

// CloseNotify implements the deprecated http.CloseNotifier, which some
// handlers still assert without checking (gin's streaming does), with the
// channel of the underlying ResponseWriter, directly or through Unwrap.
// When none has one, it returns a channel that never receives.
func (rw *responseWriter) CloseNotify() <-chan bool {
	w := rw.w
	for {
		switch t := w.(type) {
		case http.CloseNotifier: //lint:ignore SA1019 forwarded for handlers that use it
			return t.CloseNotify()
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return nil
		}
	}
}

// WriteHeader records the status. Informational statuses other than 101
// go to the client at once, with the header as it stands, as in net/http;
// others wait for the response to start (see "Headers" in the package
// documentation). As in net/http, a code that is not three digits panics,
// unless the call is superfluous.
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
}

// compressible reports whether the request, status and header as they
// stand allow compression: a coding was negotiated, the status has a body
// that is not a range, the handler set no Content-Encoding or
// Content-Range of its own, a Content-Type, when set, that is not
// compressed already, and a Content-Length, when set, of at least the
// minimum size.
func (rw *responseWriter) compressible() bool {
	if rw.coding == identity {
		return false
	}
	switch rw.status {
	case http.StatusSwitchingProtocols, http.StatusNoContent,
		http.StatusPartialContent, http.StatusNotModified:
		return false
	}
	hdr := rw.w.Header()
	if len(hdr["Content-Encoding"]) > 0 || len(hdr["Content-Range"]) > 0 {
		return false
	}
	if ct := hdr["Content-Type"]; len(ct) > 0 && !rw.compressType(ct[0]) {
		return false
	}
	if cl := hdr["Content-Length"]; len(cl) > 0 {
		if n, err := strconv.ParseInt(cl[0], 10, 64); err == nil && n < int64(rw.h.minSize) {
			return false
		}
	}
	return true
}

// compressType reports whether a body of the Content-Type ct is
// compressed, asking the handler's filter once per type per response: the
// type is looked at when the body starts and again when the response
// starts, and a filter given by WithContentTypeFilter may cost.
func (rw *responseWriter) compressType(ct string) bool {
	if !rw.ctKnown || ct != rw.ct {
		rw.ct, rw.ctOK, rw.ctKnown = ct, rw.h.compressType(ct), true
	}
	return rw.ctOK
}

// Write buffers or compresses p.
func (rw *responseWriter) Write(p []byte) (int, error) {
	if rw.hijacked {
		return 0, http.ErrHijacked
	}
	if rw.status == 0 {
		rw.WriteHeader(http.StatusOK)
	}
	if len(p) == 0 && rw.state == undecided {
		return 0, nil // no body yet, as net/http takes it: nothing starts
	}
	switch rw.state {
	case passthrough:
		return rw.w.Write(p)
	case compressing:
		return rw.encWrite(p)
	case wholeBody:
		if len(rw.buf)+len(p) <= zstdblock.MaxInput {
			holdWhole(rw, p)
			return len(p), nil
		}
		// Too long for one block: stream it.
		if err := rw.startStream(); err != nil {
			return 0, err
		}
		return rw.encWrite(p)
	}
	// Undecided. The first bytes are held, up to the minimum size, unless
	// the response cannot be compressed as its header stands now.
	if len(rw.buf)+len(p) < rw.h.minSize && (len(rw.buf) > 0 || rw.compressible()) {
		rw.buf = append(rw.buf, p...)
		return len(p), nil
	}
	if err := rw.startCompression(p, true); err != nil {
		return 0, err
	}
	switch rw.state {
	case passthrough:
		return rw.w.Write(p)
	case wholeBody:
		holdWhole(rw, p)
		return len(p), nil
	}
	return rw.encWrite(p)
}

// WriteString writes s as Write would, without making a byte slice of it
// (io.WriteString uses it): to a response sent as it is, through the
// server's own WriteString; into the bytes held; or to the compressor a
// piece at a time.
func (rw *responseWriter) WriteString(s string) (int, error) {
	if rw.hijacked {
		return 0, http.ErrHijacked
	}
	if rw.status == 0 {
		rw.WriteHeader(http.StatusOK)
	}
	if s == "" && rw.state == undecided {
		return 0, nil // as Write
	}
	switch rw.state {
	case passthrough:
		return io.WriteString(rw.w, s)
	case undecided:
		if len(rw.buf) == 0 && !rw.compressible() {
			rw.startPassthrough()
			return io.WriteString(rw.w, s)
		}
		if len(rw.buf)+len(s) < rw.h.minSize {
			rw.buf = append(rw.buf, s...)
			return len(s), nil
		}
		if len(rw.buf)+len(s) <= zstdblock.MaxInput {
			// Held with the first bytes, s is sent with them, in
			// whatever way startCompression decides.
			holdWhole(rw, s)
			if err := rw.startCompression(nil, true); err != nil {
				return 0, err
			}
			return len(s), nil
		}
		// Longer than a block: hold what fits, start, send the rest.
		n := max(zstdblock.MaxInput-len(rw.buf), 0)
		holdWhole(rw, s[:n])
		if err := rw.startCompression(nil, false); err != nil {
			return 0, err
		}
		m, err := rw.writeStarted(s[n:])
		return n + m, err
	case wholeBody:
		n := min(zstdblock.MaxInput-len(rw.buf), len(s))
		holdWhole(rw, s[:n])
		if n == len(s) {
			return n, nil
		}
		if err := rw.startStream(); err != nil {
			return 0, err
		}
		m, err := rw.writeStarted(s[n:])
		return n + m, err
	}
	return rw.writeStarted(s)
}

// writeStarted writes s to a started response, sent as it is or
// compressing, without making a byte slice of it: through the server's
// WriteString, or through the compressor a piece at a time, each piece
// copied into the first-bytes buffer, which is empty while compressing.
func (rw *responseWriter) writeStarted(s string) (int, error) {
	if rw.state == passthrough {
		return io.WriteString(rw.w, s)
	}
	if cap(rw.buf) < minPiece {
		rw.buf = make([]byte, 0, minPiece) // kept by the pooled writer
	}
	piece := rw.buf[:cap(rw.buf)]
	n := 0
	for n < len(s) {
		k := copy(piece, s[n:])
		m, err := rw.encWrite(piece[:k])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// minPiece is the least writeStarted copies a string through at a time.
const minPiece = 4 << 10

// ReadFrom copies src to the response as Write would. A response sent as
// it is hands src to the server's writer, whose ReadFrom can send a file
// with sendfile.
func (rw *responseWriter) ReadFrom(src io.Reader) (int64, error) {
	if rw.hijacked {
		return 0, http.ErrHijacked
	}
	if rw.status == 0 {
		rw.WriteHeader(http.StatusOK)
	}
	if rw.state == undecided && len(rw.buf) == 0 && !rw.compressible() {
		rw.startPassthrough()
	}
	if rw.state == passthrough {
		return io.Copy(rw.w, src)
	}
	return io.Copy(writerOnly{rw}, src)
}

// writerOnly hides a responseWriter's ReadFrom from io.Copy.
type writerOnly struct{ io.Writer }

// holdWhole appends p to the bytes held, which with p are at most one
// block. The buffer grows as append would, but never past one block, so
// that a pooled response writer can keep it (maxRetainedBuf) and the next
// body of that size is held without allocating.
func holdWhole[T string | []byte](rw *responseWriter, p T) {
	if need := len(rw.buf) + len(p); need > cap(rw.buf) {
		grown := make([]byte, len(rw.buf), min(max(need, 2*cap(rw.buf)), zstdblock.MaxInput))
		copy(grown, rw.buf)
		rw.buf = grown
	}
	rw.buf = append(rw.buf, p...)
}

// encWrite compresses p.
func (rw *responseWriter) encWrite(p []byte) (int, error) {
	if rw.zb != nil {
		return rw.zb.S.Write(p)
	}
	if rw.zs != nil {
		return rw.zs.E.Write(p)
	}
	return rw.gz.W.Write(p)
}

// flushEncoder sends what the compressor holds to the client's writer.
func (rw *responseWriter) flushEncoder() error {
	if rw.zb != nil {
		return rw.zb.S.Flush()
	}
	if rw.zs != nil {
		return rw.zs.E.Flush()
	}
	return rw.gz.W.Flush()
}

// startPassthrough sends the header and the buffered bytes as they are.
func (rw *responseWriter) startPassthrough() {
	rw.state = passthrough
	hdr := rw.w.Header()
	addVary(hdr, headerValue(rw.vals, valVary)) // the handler may have replaced it
	if rw.status == http.StatusNotModified && rw.held != identity {
		// The client revalidates its compressed copy: this response
		// updates that copy's stored fields, its tag included.
		tagRevalidated(hdr, rw.held, rw.inm)
	}
	rw.w.WriteHeader(rw.status)
	if len(rw.buf) > 0 {
		_, _ = rw.w.Write(rw.buf) // a failed write shows on the next one
		rw.buf = rw.buf[:0]
	}
}

// startCompression starts the response: it decides, from the header as
// it stands, whether to compress, and if not starts a passthrough. If so,
// it readies the header of a compressed response and sends it, then sends
// the buffered bytes through a pooled compressor, or, when mayWait and the
// response's zstd body may fit one block, holds the rest of the body
// (state wholeBody). next is the data about to be written, used with the
// buffer to sniff a missing Content-Type; a sniffed type that is
// compressed already starts a passthrough instead. The decision and the
// header sent come from the same moment: nothing the handler changes
// later is sent (net/http takes its copy of the header at WriteHeader).
func (rw *responseWriter) startCompression(next []byte, mayWait bool) error {
	if !rw.compressible() {
		rw.startPassthrough()
		return nil
	}
	hdr := rw.w.Header()
	if _, ok := hdr["Content-Type"]; !ok {
		// Sniff the uncompressed data, as net/http would: it would
		// otherwise sniff the compressed bytes, or, with the
		// Content-Encoding set, not sniff at all. Like net/http, set
		// no type when there is nothing to sniff (a Flush before the
		// body).
		sniff := rw.buf
		if len(sniff) < 512 && len(next) > 0 {
			sniff = append(sniff, next[:min(len(next), 512-len(sniff))]...)
			rw.buf = sniff[:len(rw.buf)]
		}
		if len(sniff) > 0 {
			ct := http.DetectContentType(sniff)
			if !rw.compressType(ct) {
				rw.startPassthrough() // net/http sniffs the same type
				return nil
			}
			hdr["Content-Type"] = []string{ct}
		}
	}
	delete(hdr, "Content-Length")
	// Ranges and strong validators belong to the uncompressed data.
	delete(hdr, "Accept-Ranges")
	tagETags(hdr, rw.coding)
	addVary(hdr, headerValue(rw.vals, valVary)) // the handler may have replaced it
	if rw.coding == codingZstd {
		hdr["Content-Encoding"] = headerValue(rw.vals, valZstd)
	} else {
		hdr["Content-Encoding"] = headerValue(rw.vals, valGzip)
	}
	rw.w.WriteHeader(rw.status)
	if rw.coding == codingZstd && mayWait && rw.h.zstdLevel == zstdpool.SpeedFastest && len(rw.buf)+len(next) <= zstdblock.MaxInput {
		rw.state = wholeBody
		return nil
	}
	return rw.startStream()
}

// startStream sends the buffered bytes of a compressed response, whose
// header startCompression sent, through a pooled compressor. A
// first-bytes buffer grown past what the pool keeps is dropped: a
// streaming response holds its compressor, not the body too.
func (rw *responseWriter) startStream() error {
	rw.state = compressing
	switch {
	case rw.coding == codingZstd && rw.h.zstdLevel == zstdpool.SpeedFastest:
		rw.zb = encpool.GetZstdStream()
		rw.zb.Sink.W = rw.w
	case rw.coding == codingZstd:
		rw.zs = rw.h.zstd.Get()
		rw.zs.Sink.W = rw.w
	default:
		rw.gz = encpool.GetGzip(rw.h.gzipLevel)
		rw.gz.Sink.W = rw.w
		if rw.h.padding != "" {
			// PutGzip's Reset clears the header again.
			rw.gz.W.Comment = rw.h.padding[:rw.padLen()]
		}
	}
	var err error
	if len(rw.buf) > 0 {
		_, err = rw.encWrite(rw.buf)
	}
	rw.buf = rw.buf[:0]
	if cap(rw.buf) > maxRetainedBuf {
		rw.buf = nil
	}
	return err
}

// appendWholeFrame is the one-block encoder finishWholeBody uses; tests
// wrap it to see which responses take that path.
var appendWholeFrame = zstdblock.AppendFrame

// finishWholeBody sends the body, compressed as one zstd frame of one
// block, with the padding frame after it, in one Write. The frame is
// written over the body in the first-bytes buffer: the encoder reads all
// of its input before it writes.
func (rw *responseWriter) finishWholeBody() {
	out := appendWholeFrame(rw.buf[:0], rw.buf)
	if rw.h.padding != "" {
		out = rw.appendZstdPadding(out)
	}
	rw.buf = out[:0]
	_, _ = rw.w.Write(out) // the client sees a truncated body on error
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
	switch rw.state {
	case undecided:
		// A flushing handler is streaming: compress what is to come.
		if err := rw.startCompression(nil, false); err != nil {
			return err
		}
	case wholeBody:
		if err := rw.startStream(); err != nil {
			return err
		}
	}
	if rw.state == compressing {
		if err := rw.flushEncoder(); err != nil {
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
// sends a short buffered body as it is, or ends the compressed stream.
func (rw *responseWriter) finish() {
	if rw.hijacked {
		// The connection is the handler's: write nothing. The
		// compressor is between calls, so its pool's Put makes it new.
		rw.done = true
		return
	}
	switch rw.state {
	case undecided:
		// A body shorter than the minimum size, or none: net/http
		// would send 200 for a handler that wrote nothing.
		if rw.status == 0 {
			rw.status = http.StatusOK
		}
		rw.startPassthrough()
	case wholeBody:
		rw.finishWholeBody()
	case compressing:
		// The client sees a truncated body on error.
		switch {
		case rw.zb != nil:
			if rw.zb.S.Close() == nil && rw.h.padding != "" {
				_ = rw.writeZstdPadding()
			}
		case rw.zs != nil:
			if rw.zs.E.Close() == nil && rw.h.padding != "" {
				_ = rw.writeZstdPadding()
			}
		default:
			_ = rw.gz.W.Close()
		}
	}
	rw.done = true
}
