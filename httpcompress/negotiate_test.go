package httpcompress

import "testing"

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want coding
	}{
		{nil, identity},
		{[]string{""}, identity},
		{[]string{"gzip, deflate, br, zstd"}, codingZstd}, // browsers: zstd at equal q
		{[]string{"zstd"}, codingZstd},
		{[]string{"ZStd"}, codingZstd},
		{[]string{"gzip", "zstd"}, codingZstd}, // several fields
		{[]string{"zstd;q=0.5, gzip"}, codingGzip},
		{[]string{"zstd;q=0.9, gzip;q=0.8"}, codingZstd},
		{[]string{"zstd;q=0, gzip"}, codingGzip},
		{[]string{"zstd;q=0, gzip;q=0"}, identity},
		{[]string{"*"}, codingZstd},
		{[]string{"*;q=0"}, identity},
		{[]string{"*, zstd;q=0"}, codingGzip},
		{[]string{"*;q=0.5, gzip"}, codingGzip}, // named beats the wildcard
		{[]string{"*;q=0, gzip"}, codingGzip},
		{[]string{"identity"}, identity},
		{[]string{"identity, gzip;q=0.5"}, identity}, // identity preferred by q
		{[]string{"identity;q=0.5, gzip"}, codingGzip},
		{[]string{"identity, zstd"}, codingZstd}, // equal q: compress
		{[]string{"br"}, identity},
		{[]string{"x-gzip"}, codingGzip},
		{[]string{"zstd;q=1.5"}, identity},  // not a qvalue: q=0
		{[]string{"zstd;q=0.5x"}, identity}, // not a qvalue: q=0
		{[]string{"zstdx, xzstd"}, identity},
		{[]string{" zstd ;  q=0.3 , gzip;q=0.2"}, codingZstd},
	} {
		if got := negotiate(tc.in, true, true); got != tc.want {
			t.Errorf("negotiate(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if got := negotiate([]string{"gzip, zstd"}, true, false); got != codingGzip {
		t.Errorf("zstd off: %v, want gzip", got)
	}
	if got := negotiate([]string{"zstd"}, true, false); got != identity {
		t.Errorf("zstd off, zstd only: %v, want identity", got)
	}
}

func TestCompressibleType(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json":                  true,
		"text/html; charset=utf-8":          true,
		"image/svg+xml":                     true,
		"IMAGE/BMP":                         true,
		"image/x-icon":                      true,
		"image/png":                         false,
		"image/jpeg":                        false,
		"image/webp":                        false,
		"video/mp4":                         false,
		"Audio/Ogg":                         false,
		"font/woff2":                        false,
		"font/ttf":                          true,
		"application/zip":                   false,
		"application/gzip":                  false,
		"application/x-gzip":                false,
		"application/zstd":                  false,
		"application/x-7z-compressed":       false,
		"application/vnd.rar":               false,
		"application/x-bzip2":               false,
		"application/wasm":                  true,
		"application/octet-stream":          true,
		"text/event-stream":                 true,
		"application/javascript; q=1":       true,
		"application/x-compress":            false,
		"application/x-xz":                  false,
		"application/vnd.api+json":          true,
		"application/x-www-form-urlencoded": true,
	} {
		if got := compressibleType(ct); got != want {
			t.Errorf("compressibleType(%q) = %v, want %v", ct, got, want)
		}
	}
}
