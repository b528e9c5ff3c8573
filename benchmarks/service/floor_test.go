package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestGzipFloorAnswersLikePoolkit checks that the gzip floor sends, for
// every order of the load, the very bytes poolkit's handler sends, gzipped
// as poolkit's are, so that the CPU between the two is poolkit's own work;
// and that it refuses any other body.
func TestGzipFloorAnswersLikePoolkit(t *testing.T) {
	floor, _ := lookupVariant("gzip-floor")
	kit, _ := lookupVariant("poolkit")
	fh, kh := floor.handler(), kit.handler()
	post := func(h http.Handler, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/orders", bytes.NewReader(body))
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	gunzip := func(b []byte) []byte {
		t.Helper()
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for i, body := range requestBodies(loadBodies) {
		f, k := post(fh, body), post(kh, body)
		if f.Code != 200 || k.Code != 200 {
			t.Fatalf("order %d: status %d (floor), %d (poolkit)", i, f.Code, k.Code)
		}
		if f.Header().Get("Content-Encoding") != "gzip" || f.Header().Get("Content-Type") != k.Header().Get("Content-Type") {
			t.Errorf("order %d: floor's headers %v, poolkit's %v", i, f.Header(), k.Header())
		}
		// Same level, same compressor: the compressed bytes are the same too.
		if !bytes.Equal(f.Body.Bytes(), k.Body.Bytes()) {
			t.Errorf("order %d: the floor's gzipped body differs from poolkit's", i)
		}
		if got, want := gunzip(f.Body.Bytes()), gunzip(k.Body.Bytes()); !bytes.Equal(got, want) {
			t.Errorf("order %d: floor answered\n%s\npoolkit\n%s", i, got, want)
		}
	}
	other := slices.Clone(requestBodies(1)[0])
	other[len(other)-2] = ' ' // still an order, but not one of the load's
	if rec := post(fh, other); rec.Code != http.StatusUnprocessableEntity {
		t.Errorf("a body not of the load: status %d, want 422", rec.Code)
	}
}

// TestExtraVariantsOnlyWhenNamed checks that the default run leaves out
// the variants marked extra, and that naming one runs it.
func TestExtraVariantsOnlyWhenNamed(t *testing.T) {
	if d := defaultVariants(); slices.Contains(d, "gzip-floor") || !slices.Contains(d, "poolkit") {
		t.Errorf("default variants %v: want poolkit and not gzip-floor", d)
	}
	var buf bytes.Buffer
	err := mainErr(t.Context(), []string{"-h"}, &buf, &buf)
	if err == nil || !strings.Contains(buf.String(), "gzip-floor (only when named)") {
		t.Errorf("-h: err %v, output lacks gzip-floor (only when named):\n%s", err, buf.String())
	}
	if testing.Short() {
		t.Skip("starts server processes")
	}
	rep, err := runJSON(t, "-rounds", "1", "-phase", "100ms", "-rates", "100", "-variants", "poolkit,gzip-floor")
	if err != nil {
		t.Fatal(err)
	}
	vs, _ := rep["variants"].(map[string]any)
	if _, ok := vs["gzip-floor"]; !ok || len(vs) != 2 {
		t.Errorf("-variants poolkit,gzip-floor ran %v", vs)
	}
}
