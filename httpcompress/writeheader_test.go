package httpcompress

import (
	"fmt"
	"io"
	"net/http"
	"testing"
)

// TestServerWriteHeaderCodes checks that WriteHeader behaves behind
// Handler as it does on net/http's own ResponseWriter, the oracle: the
// same panic for a code that is not three digits, none for a superfluous
// call, and the same status on the wire.
func TestServerWriteHeaderCodes(t *testing.T) {
	type result struct {
		panicked any
		status   int
	}
	scenarios := []struct {
		name string
		h    http.HandlerFunc
	}{}
	for _, code := range []int{0, -1, 99, 1000, 12345, 200, 404, 600, 999} {
		scenarios = append(scenarios, struct {
			name string
			h    http.HandlerFunc
		}{fmt.Sprintf("WriteHeader(%d)", code), func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			io.WriteString(w, bigBody)
		}})
	}
	scenarios = append(scenarios, []struct {
		name string
		h    http.HandlerFunc
	}{
		{"WriteHeader(201) then WriteHeader(0)", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
			w.WriteHeader(0)
			io.WriteString(w, bigBody)
		}},
		{"Write then WriteHeader(0)", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, bigBody)
			w.WriteHeader(0)
		}},
		// The panic comes from WriteHeader itself, leaving the response
		// unstarted: a handler that recovers can still send one.
		{"recovered WriteHeader(-1), then a body", func(w http.ResponseWriter, r *http.Request) {
			func() {
				defer func() { recover() }()
				w.WriteHeader(-1)
			}()
			w.WriteHeader(http.StatusAccepted)
			io.WriteString(w, bigBody)
		}},
		{"WriteHeader(103) then WriteHeader(0)", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusEarlyHints)
			w.WriteHeader(0)
		}},
	}...)

	panics := make(chan any, 1)
	recovering := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() { panics <- recover() }()
			h.ServeHTTP(w, r)
		})
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			run := func(h http.Handler) result {
				srv := newServer(t, recovering(h))
				res, _ := get(t, rawClient(), srv.URL, "gzip")
				return result{<-panics, res.StatusCode}
			}
			want := run(sc.h)
			got := run(Handler(sc.h))
			if fmt.Sprint(got.panicked) != fmt.Sprint(want.panicked) {
				t.Errorf("behind Handler: panic %v, net/http: panic %v", got.panicked, want.panicked)
			}
			if want.panicked == nil && got.status != want.status {
				t.Errorf("behind Handler: status %d, net/http: %d", got.status, want.status)
			}
		})
	}
}
