package httpcompress

import "testing"

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		in     []string
		zstdOn bool
		want   coding
	}{
		// gzip alone (WithoutZstd), as before zstd:
		{nil, false, identity},
		{[]string{""}, false, identity},
		{[]string{"gzip"}, false, codingGzip},
		{[]string{"GZIP"}, false, codingGzip},
		{[]string{"x-gzip"}, false, codingGzip},
		{[]string{"deflate, gzip, br"}, false, codingGzip},
		{[]string{"deflate", "gzip"}, false, codingGzip},
		{[]string{"br;q=1.0, gzip;q=0.8, *;q=0.1"}, false, codingGzip},
		{[]string{"gzip;q=0"}, false, identity},
		{[]string{"gzip; q=0.000"}, false, identity},
		{[]string{"gzip;Q=0.001"}, false, codingGzip},
		{[]string{"gzip;q=1"}, false, codingGzip},
		{[]string{"gzip;q=1.000"}, false, codingGzip},
		{[]string{"gzip;q=1.5"}, false, identity},     // not a qvalue
		{[]string{"gzip;q=0.5x"}, false, identity},    // not a qvalue
		{[]string{"gzip;level=1"}, false, codingGzip}, // other parameters ignored
		{[]string{"*"}, false, codingGzip},
		{[]string{"*;q=0"}, false, identity},
		{[]string{"*, gzip;q=0"}, false, identity}, // named beats the wildcard
		{[]string{"gzip;q=0, *"}, false, identity},
		{[]string{"gzip;q=0.5, *;q=0"}, false, codingGzip},
		{[]string{"identity"}, false, identity},
		{[]string{"gzipx, xgzip"}, false, identity},
		{[]string{" gzip ;  q=0.3 "}, false, codingGzip},
		{[]string{"gzip, zstd"}, false, codingGzip},
		{[]string{"zstd"}, false, identity},
		// gzip and zstd:
		{nil, true, identity},
		{[]string{""}, true, identity},
		{[]string{"gzip, deflate, br, zstd"}, true, codingZstd}, // browsers: zstd at equal q
		{[]string{"zstd"}, true, codingZstd},
		{[]string{"ZStd"}, true, codingZstd},
		{[]string{"gzip", "zstd"}, true, codingZstd}, // several fields
		{[]string{"zstd;q=0.5, gzip"}, true, codingGzip},
		{[]string{"zstd;q=0.9, gzip;q=0.8"}, true, codingZstd},
		{[]string{"zstd;q=0, gzip"}, true, codingGzip},
		{[]string{"zstd;q=0, gzip;q=0"}, true, identity},
		{[]string{"*"}, true, codingZstd},
		{[]string{"*;q=0"}, true, identity},
		{[]string{"*, zstd;q=0"}, true, codingGzip},
		{[]string{"*;q=0.5, gzip"}, true, codingGzip}, // named beats the wildcard
		{[]string{"*;q=0, gzip"}, true, codingGzip},
		{[]string{"identity"}, true, identity},
		{[]string{"identity, gzip;q=0.5"}, true, identity}, // identity preferred by q
		{[]string{"identity;q=0.5, gzip"}, true, codingGzip},
		{[]string{"identity, zstd"}, true, codingZstd}, // equal q: compress
		{[]string{"br"}, true, identity},
		{[]string{"x-gzip"}, true, codingGzip},
		{[]string{"zstd;q=1.5"}, true, identity},  // not a qvalue: q=0
		{[]string{"zstd;q=0.5x"}, true, identity}, // not a qvalue: q=0
		{[]string{"zstdx, xzstd"}, true, identity},
		{[]string{" zstd ;  q=0.3 , gzip;q=0.2"}, true, codingZstd},
	} {
		if got := negotiate(tc.in, true, tc.zstdOn); got != tc.want {
			t.Errorf("negotiate(%q, zstd %v) = %v, want %v", tc.in, tc.zstdOn, got, tc.want)
		}
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
