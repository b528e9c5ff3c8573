package zstdpool_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/poolkit/poolkit/zstdpool"
)

func ExampleAppendCompress() {
	text := []byte(strings.Repeat("pooled zstd encoders make compression cheap. ", 20))

	// Append to a buffer the caller owns and may reuse.
	buf := make([]byte, 0, 1024)
	z, err := zstdpool.AppendCompress(buf, text)
	if err != nil {
		panic(err)
	}
	out, err := zstdpool.AppendDecompress(nil, z, 1<<20)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(text), "bytes compressed to fewer than 100:", len(z) < 100)
	fmt.Println("round trip equal:", bytes.Equal(out, text))
	// Output:
	// 900 bytes compressed to fewer than 100: true
	// round trip equal: true
}

func ExampleAppendDecompress_limit() {
	// A frame declaring 1 MiB of content, under a 64 KiB limit, is refused
	// before anything is decoded or allocated for it.
	z, _ := zstdpool.AppendCompress(nil, make([]byte, 1<<20))
	_, err := zstdpool.AppendDecompress(nil, z, 64<<10)
	fmt.Println(errors.Is(err, zstdpool.ErrLimit))
	fmt.Println(err)
	// Output:
	// true
	// zstdpool: decompressed data exceeds the limit: a frame declares 1048576 bytes, more than the 65536 left of the limit
}

func ExampleNewWriter() {
	var stream bytes.Buffer
	w := zstdpool.NewWriter(&stream)
	io.WriteString(w, "line 1\n")
	w.Flush() // a reader can decode line 1 now
	io.WriteString(w, "line 2\n")
	if err := w.Close(); err != nil { // returns the encoder to its pool
		panic(err)
	}

	r, err := zstdpool.NewReader(&stream)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	out, _ := io.ReadAll(r)
	fmt.Print(string(out))
	// Output:
	// line 1
	// line 2
}
