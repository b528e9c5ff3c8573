package poolkit_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/poolkit/poolkit/httpcompress"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/respsink"
	"github.com/poolkit/poolkit/logfmt"
)

// orderDoc returns a request document with n items and extra bytes of
// padding in each SKU, and how many non-empty JSON string values it has:
// each becomes one new Go string, one allocation, when decoded.
func orderDoc(t *testing.T, n, pad int) ([]byte, int) {
	items := make([]item, n)
	for i := range items {
		items[i] = item{SKU: fmt.Sprintf("SKU-%04d%s", i, strings.Repeat("x", pad)), Qty: i%9 + 1, Price: float64(i%13) + 0.25}
	}
	doc, err := json.Marshal(order{Customer: "Ann O'Hara", Email: "ann@example.com", Items: items})
	if err != nil {
		t.Fatal(err)
	}
	return doc, countStrings(t, doc)
}

// countStrings counts the non-empty string values in a JSON document,
// read by encoding/json into untyped values: an oracle independent of the
// handler and of jsonpool.
func countStrings(t *testing.T, doc []byte) int {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	var count func(any) int
	count = func(v any) int {
		switch v := v.(type) {
		case string:
			if v != "" {
				return 1
			}
		case []any:
			n := 0
			for _, e := range v {
				n += count(e)
			}
			return n
		case map[string]any:
			n := 0
			for _, e := range v {
				n += count(e)
			}
			return n
		}
		return 0
	}
	return count(v)
}

// headerSlab is how many responses share one allocation of httpcompress.Handler:
// their Vary and Content-Encoding values, which each response's header map
// keeps after the request, so they are cut from a slab that is never
// reused rather than pooled.
const headerSlab = 64

// TestRecipeAllocatesOnlyTheStrings is the check of the recipe: one request
// through logfmt.AccessLog(httpcompress.Handler(h), out), as a service composes
// them, with the request reused and its body reader reset, allocates
// exactly the decoded request's own strings, compressed or not, but for
// one allocation every 64 responses in httpcompress.Handler.
func TestRecipeAllocatesOnlyTheStrings(t *testing.T) {
	exec := func(packet []byte) (int64, error) {
		if len(packet) < 5 || packet[4] != comQuery || int(packet[0])|int(packet[1])<<8|int(packet[2])<<16 != len(packet)-4 {
			return 0, fmt.Errorf("bad packet % x", packet[:min(len(packet), 8)])
		}
		return 7, nil
	}
	srv := logfmt.AccessLog(httpcompress.Handler(&orderHandler{exec: exec}), io.Discard)

	for _, c := range []struct {
		name       string
		items, pad int
		accept     string
		wantCoding string // the Content-Encoding answered, "" for none
	}{
		{"1 item", 1, 0, "", ""},
		{"1 item, gzip accepted, too small to compress", 1, 0, "gzip", ""},
		{"40 items", 40, 0, "", ""},
		{"40 items, gzip", 40, 0, "gzip", "gzip"},
		{"40 items, a browser's Accept-Encoding", 40, 0, "gzip, deflate, br, zstd", "zstd"},
		{"200 items of 100-byte SKUs, gzip", 200, 100, "gzip, deflate", "gzip"},
		{"200 items of 100-byte SKUs, zstd", 200, 100, "zstd", "zstd"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, strs := orderDoc(t, c.items, c.pad)
			body := bytes.NewReader(doc)
			req := httptest.NewRequest("POST", "/orders", body)
			if c.accept != "" {
				req.Header.Set("Accept-Encoding", c.accept)
			}
			w := new(respsink.Writer)
			serve := func() {
				body.Reset(doc)
				w.Reset()
				srv.ServeHTTP(w, req)
			}

			// The response, checked once against an independent reading:
			// the recorder's, decoded with compress/gzip or klauspost's
			// zstd decoder.
			rec := httptest.NewRecorder()
			body.Reset(doc)
			srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusCreated {
				t.Fatalf("status %d, body %q", rec.Code, rec.Body)
			}
			out := rec.Body.Bytes()
			if got := rec.Header().Get("Content-Encoding"); got != c.wantCoding {
				t.Fatalf("Content-Encoding %q, want %q", got, c.wantCoding)
			}
			switch c.wantCoding {
			case "gzip":
				zr, err := gzip.NewReader(bytes.NewReader(out))
				if err != nil {
					t.Fatal(err)
				}
				if out, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			case "zstd":
				zr, err := zstd.NewReader(nil)
				if err != nil {
					t.Fatal(err)
				}
				out, err = zr.DecodeAll(out, nil)
				zr.Close()
				if err != nil {
					t.Fatal(err)
				}
			}
			var resp orderResponse
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatalf("response %q: %v", out, err)
			}
			if resp.OrderID != 7 || resp.Customer != "Ann O'Hara" || len(resp.Items) != c.items {
				t.Fatalf("response %+v", resp)
			}

			// Warm the pools: scratch capacities, jsonpool's encoders,
			// httpcompress's writers, the access log's line buffers.
			for range 100 {
				serve()
			}
			if !pooltest.WantAllocsAmortized(t, float64(strs), headerSlab, serve) {
				t.Logf("%d items: want %d allocations, one per string of the request, and httpcompress.Handler's slab of header values every %d responses", c.items, strs, headerSlab)
			}
			if w.Status != http.StatusCreated || w.Header().Get("Content-Encoding") != c.wantCoding {
				t.Fatalf("last measured request: status %d, header %v", w.Status, w.Header())
			}
		})
	}
}

// TestRecipeInvalidAllocatesOnlyTheStrings checks the error path: a
// request refused by validation, answered 400 through the same scratch
// value, allocates its decoded strings, and httpcompress.Handler's slab of
// header values every 64 responses, nothing else, either.
func TestRecipeInvalidAllocatesOnlyTheStrings(t *testing.T) {
	srv := logfmt.AccessLog(httpcompress.Handler(&orderHandler{exec: func([]byte) (int64, error) {
		return 0, fmt.Errorf("exec called for an invalid order")
	}}), io.Discard)
	doc := []byte(`{"customer":"ann","email":"no address","items":[{"sku":"A-1","qty":0,"price":1}]}`)
	strs := countStrings(t, doc)
	body := bytes.NewReader(doc)
	req := httptest.NewRequest("POST", "/orders", body)
	req.Header.Set("Accept-Encoding", "gzip")
	w := new(respsink.Writer)
	serve := func() {
		body.Reset(doc)
		w.Reset()
		srv.ServeHTTP(w, req)
	}
	serve()
	if w.Status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", w.Status)
	}
	for range 100 {
		serve()
	}
	if !pooltest.WantAllocsAmortized(t, float64(strs), headerSlab, serve) {
		t.Logf("want %d allocations, one per string of the request, and httpcompress.Handler's slab of header values every %d responses", strs, headerSlab)
	}
}

// TestRecipeConcurrent serves orders of varying sizes from several
// goroutines at once (run it with -race) and checks every response and
// access-log line against its own request: a scratch value shared by two
// requests, or one that kept a previous request's items, shows as a
// foreign customer, SKU or item count.
func TestRecipeConcurrent(t *testing.T) {
	var logMu sync.Mutex
	var log bytes.Buffer
	srv := logfmt.AccessLog(httpcompress.Handler(&orderHandler{exec: func(packet []byte) (int64, error) {
		return int64(len(packet)), nil
	}}), lockedWriter{&logMu, &log})

	const goroutines, rounds = 8, 60
	pooltest.RunConcurrently(t, goroutines, func(g int) error {
		for i := range rounds {
			n := 1 + (g*7+i*13)%50
			customer := fmt.Sprintf("g%d-r%d", g, i)
			o := order{Customer: customer, Email: customer + "@example.com", Items: make([]item, n)}
			var total float64
			for j := range o.Items {
				o.Items[j] = item{SKU: fmt.Sprintf("%s-%d", customer, j), Qty: j%3 + 1, Price: float64(j)}
				total += float64(j%3+1) * float64(j)
			}
			doc, _ := json.Marshal(o)
			req := httptest.NewRequest("POST", "/orders", bytes.NewReader(doc))
			if i%2 == 0 {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			out := rec.Body.Bytes()
			if rec.Header().Get("Content-Encoding") == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(out))
				if err == nil {
					out, err = io.ReadAll(zr)
				}
				if err != nil {
					return err
				}
			}
			var resp orderResponse
			if err := json.Unmarshal(out, &resp); err != nil || rec.Code != http.StatusCreated {
				return fmt.Errorf("%s: status %d, %q: %v", customer, rec.Code, out, err)
			}
			ok := resp.Customer == customer && len(resp.Items) == n && resp.Total == total
			for j := 0; ok && j < len(resp.Items); j++ {
				ok = resp.Items[j].SKU == o.Items[j].SKU && resp.Items[j].Qty == o.Items[j].Qty
			}
			if !ok {
				return fmt.Errorf("%s with %d items got %+v", customer, n, resp)
			}
		}
		return nil
	})

	// One line per request, each naming its own customer and item count.
	seen := 0
	sc := bufio.NewScanner(&log)
	for sc.Scan() {
		line := sc.Text()
		var g, i, items int
		k := strings.Index(line, " customer=")
		if k < 0 {
			t.Fatalf("access-log line without customer: %q", line)
		}
		if _, err := fmt.Sscanf(line[k:], " customer=g%d-r%d items=%d", &g, &i, &items); err != nil {
			t.Fatalf("access-log line %q: %v", line, err)
		}
		if want := 1 + (g*7+i*13)%50; items != want {
			t.Fatalf("access-log line %q: items=%d, want %d", line, items, want)
		}
		seen++
	}
	if seen != goroutines*rounds {
		t.Fatalf("%d access-log lines, want %d", seen, goroutines*rounds)
	}
}

// lockedWriter serialises writes to w, for a log shared across tests.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestRecipeRefuses sends what a hostile client would: each request is
// refused with its status and a JSON error, and reaches no database.
func TestRecipeRefuses(t *testing.T) {
	srv := logfmt.AccessLog(httpcompress.Handler(&orderHandler{exec: func([]byte) (int64, error) {
		t.Error("exec called for a refused request")
		return 0, nil
	}}), io.Discard)
	tooMany, _ := orderDoc(t, maxItems+1, 0)
	for _, c := range []struct {
		name, body string
		status     int
	}{
		{"empty body", "", 400},
		{"not JSON", "customer=ann", 400},
		{"trailing data", `{"customer":"ann","email":"a@b","items":[{"sku":"A","qty":1,"price":1}]} {}`, 400},
		{"truncated", `{"customer":"ann","email":"a@b","items":[{"sku":"A"`, 400},
		{"wrong type", `{"customer":1}`, 400},
		{"no customer", `{"email":"a@b","items":[{"sku":"A","qty":1,"price":1}]}`, 400},
		{"no items", `{"customer":"ann","email":"a@b","items":[]}`, 400},
		{"negative qty", `{"customer":"ann","email":"a@b","items":[{"sku":"A","qty":-1,"price":1}]}`, 400},
		{"negative price", `{"customer":"ann","email":"a@b","items":[{"sku":"A","qty":1,"price":-1}]}`, 400},
		{"too many items", string(tooMany), 400},
		{"body over maxBody", `{"customer":"` + strings.Repeat("a", maxBody) + `"}`, 413},
	} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("POST", "/orders", strings.NewReader(c.body)))
		var resp errorResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || rec.Code != c.status || resp.Error == "" {
			t.Errorf("%s: status %d, body %.100q (%v); want %d and a JSON error", c.name, rec.Code, rec.Body, err, c.status)
		}
	}
}
