package httpcompress

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// The tests decode responses with independent decoders: compress/gzip for
// gzip, klauspost's own zstd decoder for zstd.

// decodeBody returns body decoded as Content-Encoding ce says: gzip, zstd,
// or nothing (the body as it is).
func decodeBody(t testing.TB, ce string, body []byte) []byte {
	t.Helper()
	out, err := tryDecode(ce, body)
	if err != nil {
		t.Fatalf("response body is not %s: %v", ce, err)
	}
	return out
}

func tryDecode(ce string, body []byte) ([]byte, error) {
	switch ce {
	case "gzip":
		zr, err := stdgzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	case "zstd":
		zr, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		return zr.DecodeAll(body, nil)
	}
	return body, nil
}

func gunzip(t testing.TB, b []byte) string {
	t.Helper()
	return string(decodeBody(t, "gzip", b))
}
