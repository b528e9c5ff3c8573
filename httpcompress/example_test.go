package httpcompress_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/poolkit/poolkit/gzpool"
	"github.com/poolkit/poolkit/httpcompress"
	"github.com/poolkit/poolkit/zstdpool"
)

func ExampleHandler() {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "["+strings.Repeat(`{"id":1,"name":"gopher"},`, 100)+`{}]`)
	})
	srv := httptest.NewServer(httpcompress.Handler(api))
	defer srv.Close()

	// A transport that leaves the compressed bytes alone, to show them.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, ae := range []string{"gzip, deflate, br, zstd", "gzip", "identity"} {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		req.Header.Set("Accept-Encoding", ae)
		res, err := client.Do(req)
		if err != nil {
			panic(err)
		}
		z, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := z
		switch res.Header.Get("Content-Encoding") {
		case "zstd":
			body, err = zstdpool.AppendDecompress(nil, z, 1<<20)
		case "gzip":
			body, err = gzpool.AppendDecompress(nil, z, 1<<20)
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("%q: %q, %d bytes sent as fewer than 200: %v\n",
			ae, res.Header.Get("Content-Encoding"), len(body), len(z) < 200)
	}
	// Output:
	// "gzip, deflate, br, zstd": "zstd", 2504 bytes sent as fewer than 200: true
	// "gzip": "gzip", 2504 bytes sent as fewer than 200: true
	// "identity": "", 2504 bytes sent as fewer than 200: false
}

func ExampleWithContentTypes() {
	h := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", r.URL.Query().Get("type"))
		io.WriteString(w, strings.Repeat("compress me, maybe. ", 100))
	}), httpcompress.WithContentTypes("application/json", "text/*"))
	for _, ct := range []string{"application/json; charset=utf-8", "text/html", "application/xml"} {
		req := httptest.NewRequest("GET", "/?type="+url.QueryEscape(ct), nil)
		req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		fmt.Printf("%s: %q\n", ct, rec.Header().Get("Content-Encoding"))
	}
	// Output:
	// application/json; charset=utf-8: "zstd"
	// text/html: "zstd"
	// application/xml: ""
}

func ExampleWithPadding() {
	body := `{"csrf":"n0t-a-real-t0ken","items":[` + strings.Repeat(`{"id":1},`, 200) + `{}]}`
	h := httpcompress.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}), httpcompress.WithPadding(32))
	for _, ae := range []string{"zstd", "gzip"} {
		lengths := map[int]bool{}
		for range 50 {
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", ae)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			lengths[rec.Body.Len()] = true
			var got []byte
			var err error
			if ae == "zstd" {
				got, err = zstdpool.AppendDecompress(nil, rec.Body.Bytes(), 1<<20)
			} else {
				got, err = gzpool.AppendDecompress(nil, rec.Body.Bytes(), 1<<20)
			}
			if err != nil || string(got) != body {
				panic(fmt.Sprint("padded body does not decode: ", err))
			}
		}
		// 50 draws from 32 lengths: fewer than 10 distinct has a
		// probability far below one in a billion.
		fmt.Printf("%s: 50 responses, one body, at least 10 lengths: %v\n", ae, len(lengths) >= 10)
	}
	// Output:
	// zstd: 50 responses, one body, at least 10 lengths: true
	// gzip: 50 responses, one body, at least 10 lengths: true
}
