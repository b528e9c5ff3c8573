// Package respsink holds a ResponseWriter for tests and benchmarks that
// count a handler's allocations: it keeps no body and reuses its header.
package respsink

import "net/http"

// Writer is an http.ResponseWriter that allocates nothing once its header
// map exists: it keeps one header map, which Reset clears for the next
// response, records the status and counts the body's bytes. It is not an
// http.Flusher; embed it in a type with a Flush method where a handler
// needs one. The zero Writer is ready to use.
type Writer struct {
	// Status is the status of the response: the first WriteHeader's code,
	// or 200 once the body is written; 0 before either.
	Status int
	// N counts the body's bytes.
	N int

	header http.Header
}

// Header returns the response's header map, the same map for every
// response.
func (w *Writer) Header() http.Header {
	if w.header == nil {
		w.header = make(http.Header)
	}
	return w.header
}

// WriteHeader records code, unless a status is recorded already.
func (w *Writer) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
}

// Write counts p, first recording the status 200 if none is.
func (w *Writer) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.N += len(p)
	return len(p), nil
}

// Reset readies w for the next response: the header map cleared, the
// status and the count zero.
func (w *Writer) Reset() {
	clear(w.header)
	w.Status, w.N = 0, 0
}
