package respsink_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/respsink"
)

func TestWriter(t *testing.T) {
	var w respsink.Writer
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "hello")
		w.WriteHeader(http.StatusTeapot) // too late: the body set 200
	})
	h.ServeHTTP(&w, httptest.NewRequest("GET", "/", nil))
	if w.Status != http.StatusOK || w.N != 5 || w.Header().Get("Content-Type") != "text/plain" {
		t.Fatalf("after one response: status %d, %d bytes, header %v", w.Status, w.N, w.Header())
	}
	w.Reset()
	if w.Status != 0 || w.N != 0 || len(w.Header()) != 0 {
		t.Fatalf("after Reset: status %d, %d bytes, header %v", w.Status, w.N, w.Header())
	}
	h.ServeHTTP(&w, httptest.NewRequest("GET", "/missing", nil))
	if w.Status != http.StatusNotFound || w.N == 0 {
		t.Fatalf("not found: status %d, %d bytes", w.Status, w.N)
	}
	if _, ok := any(&w).(http.Flusher); ok {
		t.Fatal("Writer is an http.Flusher; the doc says it is not")
	}
}

func TestWriterAllocs(t *testing.T) {
	var w respsink.Writer
	w.Header().Set("Content-Type", "text/plain")
	body := []byte("hello")
	// Setting a header value allocates its []string in http.Header;
	// the writer itself allocates nothing per response.
	pooltest.WantAllocs(t, 0, func() {
		w.Reset()
		_ = w.Header()
		w.WriteHeader(http.StatusCreated)
		w.Write(body)
	})
}
