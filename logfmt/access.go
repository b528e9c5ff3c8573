package logfmt

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// AccessLog returns an http.Handler that serves each request with h and
// then writes one logfmt line about it to out, with one Write call:
//
//	time=2026-11-22T19:50:01.250Z method=GET path=/search status=200 bytes=5120 duration=1.2ms user=ann
//
// time is when the request started, with milliseconds; path is
// r.URL.Path; status is the status the handler sent, 200 if it wrote a
// body or returned without calling WriteHeader; bytes is the count of body
// bytes the handler's Writes passed on, as the writer underneath reported
// them; duration is how long h.ServeHTTP ran. The pairs the handler added
// with AccessLine follow. If h panics, the line gets panic=true (and status
// 500 if the handler had not sent a header) and the panic goes on to
// net/http.
//
// Writes to out are serialised by the handler AccessLog returns, so out
// need not be safe for concurrent use. A Write error from out is dropped.
// In steady state AccessLog allocates nothing per request: the
// ResponseWriter it passes to h and the line's buffers are pooled.
//
// The ResponseWriter h receives implements io.ReaderFrom (so that
// http.ServeContent keeps net/http's sendfile path), http.Flusher (its Flush calls
// the underlying writer's, through http.ResponseController) and
// http.Hijacker (an error wrapping http.ErrNotSupported when the writer
// underneath cannot hijack), and has an Unwrap method, so
// http.NewResponseController(w) reaches every optional method of the
// writer underneath. Like any ResponseWriter, it must not be used after
// h.ServeHTTP returns: it goes back to a pool then.
//
// # With httpcompress.Handler
//
// The byte count is that of the writer AccessLog wraps. Outermost,
// AccessLog(httpcompress.Handler(h)) counts the compressed bytes sent on the
// wire, and h can still reach AccessLine through the gzip writer's Unwrap;
// innermost, httpcompress.Handler(AccessLog(h)) counts the uncompressed body h
// wrote. The duration of the outer order includes the compression. Put
// AccessLog outside to log what the client received.
//
// AccessLog panics if h or out is nil.
func AccessLog(h http.Handler, out io.Writer) http.Handler {
	if h == nil || out == nil {
		panic("logfmt.AccessLog: nil handler or writer")
	}
	return &accessHandler{h: h, out: out}
}

// AccessLine returns the line that AccessLog writes for the request that w
// serves, for a handler to add its own pairs to (user=ann, rows=12): they
// are written after AccessLog's own. It finds it through w itself or
// through the Unwrap methods of writers wrapped around it, such as
// httpcompress.Handler's. It returns nil when w does not come from AccessLog.
//
// The line belongs to AccessLog: use it only until the handler returns,
// from the handler's goroutine, and do not call End or Discard on it.
func AccessLine(w http.ResponseWriter) *Line {
	for {
		switch x := w.(type) {
		case *accessWriter:
			return &x.extra
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

type accessHandler struct {
	h   http.Handler
	out io.Writer
	mu  sync.Mutex // serialises Writes to out
}

// accessWriter is the ResponseWriter AccessLog passes to the handler. It
// is pooled: pointers are what sync.Pool stores without an allocation.
type accessWriter struct {
	w      http.ResponseWriter
	status int
	bytes  int64
	extra  Line // the pairs the handler adds
}

var accessWriters = pool.New(func() *accessWriter { return new(accessWriter) })

func (a *accessHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	aw := accessWriters.Get()
	aw.w = w
	done := false
	defer func() {
		// Runs when h returns and when it panics; recover is not
		// called, so a panic goes on to net/http unchanged.
		a.log(aw, r, start, !done)
		if done {
			aw.w = nil // pin nothing of this request's
			aw.status, aw.bytes = 0, 0
			accessWriters.Put(aw)
		}
		// After a panic aw is dropped, not pooled: the handler may have
		// left it in any state, and a goroutine it started may still
		// hold it.
	}()
	a.h.ServeHTTP(aw, r)
	done = true
}

// log writes the request's line.
func (a *accessHandler) log(aw *accessWriter, r *http.Request, start time.Time, panicked bool) {
	status := aw.status
	if status == 0 {
		status = http.StatusOK
		if panicked {
			status = http.StatusInternalServerError
		}
	}
	var l Line
	l.TimeMillis("time", start)
	l.String("method", r.Method)
	l.String("path", r.URL.Path)
	l.Int("status", int64(status))
	l.Int("bytes", aw.bytes)
	l.Duration("duration", time.Since(start))
	if panicked {
		l.Bool("panic", true)
	}
	if e := &aw.extra; e.buf != nil {
		if len(e.buf.B) > 0 {
			b := l.begin()
			b.B = append(b.B, e.buf.B...)
		}
		e.Discard()
	}
	a.mu.Lock()
	_ = l.End(a.out)
	a.mu.Unlock()
}

// Header returns the underlying writer's header map.
func (aw *accessWriter) Header() http.Header { return aw.w.Header() }

// WriteHeader passes code on and then records it if it is the first final
// status (1xx informational headers other than 101 are not recorded). The
// code is recorded only once the writer underneath has taken it: net/http
// panics on a code outside 100-999 before sending anything, and the line
// must then say 500, not the code that was never sent.
func (aw *accessWriter) WriteHeader(code int) {
	aw.w.WriteHeader(code)
	if aw.status == 0 && (code >= 200 || code == http.StatusSwitchingProtocols) {
		aw.status = code
	}
}

// Write passes p on and counts the bytes the writer underneath took.
func (aw *accessWriter) Write(p []byte) (int, error) {
	if aw.status == 0 {
		aw.status = http.StatusOK
	}
	n, err := aw.w.Write(p)
	aw.bytes += int64(n)
	return n, err
}

// ReadFrom copies r to the response through the underlying writer's
// ReadFrom when it has one, as net/http's does (sendfile for files served
// with http.ServeContent), and counts the bytes.
func (aw *accessWriter) ReadFrom(r io.Reader) (int64, error) {
	if aw.status == 0 {
		aw.status = http.StatusOK
	}
	var n int64
	var err error
	if rf, ok := aw.w.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(r)
	} else {
		n, err = io.Copy(writerOnly{aw.w}, r)
	}
	aw.bytes += n
	return n, err
}

// writerOnly hides every method but Write, so that io.Copy does not call
// ReadFrom again.
type writerOnly struct{ io.Writer }

// Flush sends any buffered data to the client, as http.Flusher says,
// through http.ResponseController so that a writer underneath that only
// has FlushError, or that unwraps to one that flushes, is flushed too.
func (aw *accessWriter) Flush() {
	if aw.status == 0 {
		aw.status = http.StatusOK // flushing sends the header
	}
	if f, ok := aw.w.(http.Flusher); ok {
		f.Flush()
		return
	}
	_ = http.NewResponseController(aw.w).Flush()
}

// Hijack hijacks the connection through the writer underneath, as
// http.Hijacker says, or returns an error wrapping http.ErrNotSupported.
// The line records status 101 for a hijacked connection whose handler sent
// no status.
func (aw *accessWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(aw.w).Hijack()
	if err == nil && aw.status == 0 {
		aw.status = http.StatusSwitchingProtocols
	}
	return c, rw, err
}

// Unwrap returns the writer underneath, for http.ResponseController.
func (aw *accessWriter) Unwrap() http.ResponseWriter { return aw.w }
