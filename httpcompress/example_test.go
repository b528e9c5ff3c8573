package httpcompress_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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
