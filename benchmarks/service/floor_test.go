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

// TestCompressFloorAnswersLikePoolkit checks that the compress floor sends,
// for every order of the load, the very bytes poolkit's handler sends,
// compressed as poolkit's are (zstd for a browser's Accept-Encoding, gzip
// for gzip alone), so that the CPU between the two is poolkit's own work;
// and that it refuses any other body.
func TestCompressFloorAnswersLikePoolkit(t *testing.T) {
	floor, _ := lookupVariant("compress-floor")
	kit, _ := lookupVariant("poolkit")
	fh, kh := floor.handler(), kit.handler()
	post := func(h http.Handler, body []byte, ae string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/orders", bytes.NewReader(body))
		req.Header.Set("Accept-Encoding", ae)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	decode := func(ce string, b []byte) []byte {
		t.Helper()
		if ce == "zstd" {
			out, err := zstdDecoder.DecodeAll(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
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
	for _, tc := range []struct{ ae, ce string }{{browserAcceptEncoding, "zstd"}, {"gzip", "gzip"}} {
		for i, body := range requestBodies(loadBodies) {
			f, k := post(fh, body, tc.ae), post(kh, body, tc.ae)
			if f.Code != 200 || k.Code != 200 {
				t.Fatalf("order %d: status %d (floor), %d (poolkit)", i, f.Code, k.Code)
			}
			if f.Header().Get("Content-Encoding") != tc.ce || k.Header().Get("Content-Encoding") != tc.ce ||
				f.Header().Get("Content-Type") != k.Header().Get("Content-Type") {
				t.Errorf("order %d, %s: floor's headers %v, poolkit's %v", i, tc.ae, f.Header(), k.Header())
			}
			// Same level, same compressor: the compressed bytes are the same too.
			if !bytes.Equal(f.Body.Bytes(), k.Body.Bytes()) {
				t.Errorf("order %d, %s: the floor's compressed body differs from poolkit's", i, tc.ae)
			}
			if got, want := decode(tc.ce, f.Body.Bytes()), decode(tc.ce, k.Body.Bytes()); !bytes.Equal(got, want) {
				t.Errorf("order %d: floor answered\n%s\npoolkit\n%s", i, got, want)
			}
		}
	}
	other := slices.Clone(requestBodies(1)[0])
	other[len(other)-2] = ' ' // still an order, but not one of the load's
	if rec := post(fh, other, browserAcceptEncoding); rec.Code != http.StatusUnprocessableEntity {
		t.Errorf("a body not of the load: status %d, want 422", rec.Code)
	}
}

// TestExtraVariantsOnlyWhenNamed checks that the default run leaves out
// the variants marked extra, and that naming one runs it.
func TestExtraVariantsOnlyWhenNamed(t *testing.T) {
	if d := defaultVariants(); slices.Contains(d, "compress-floor") || !slices.Contains(d, "poolkit") {
		t.Errorf("default variants %v: want poolkit and not compress-floor", d)
	}
	var buf bytes.Buffer
	err := mainErr(t.Context(), []string{"-h"}, &buf, &buf)
	if err == nil || !strings.Contains(buf.String(), "compress-floor (only when named)") {
		t.Errorf("-h: err %v, output lacks compress-floor (only when named):\n%s", err, buf.String())
	}
	if testing.Short() {
		t.Skip("starts server processes")
	}
	rep, err := runJSON(t, "-rounds", "1", "-phase", "100ms", "-rates", "100", "-variants", "poolkit,compress-floor")
	if err != nil {
		t.Fatal(err)
	}
	vs, _ := rep["variants"].(map[string]any)
	if _, ok := vs["compress-floor"]; !ok || len(vs) != 2 {
		t.Errorf("-variants poolkit,compress-floor ran %v", vs)
	}
}
