package gzpool_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/poolkit/poolkit/gzpool"
)

func ExampleAppendCompress() {
	text := []byte(strings.Repeat("pooled gzip writers make compression cheap. ", 20))

	// Append to a buffer the caller owns and may reuse.
	buf := make([]byte, 0, 1024)
	z, err := gzpool.AppendCompress(buf, text)
	if err != nil {
		panic(err)
	}
	out, err := gzpool.AppendDecompress(nil, z, 1<<20)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(text), "bytes compressed to fewer than 100:", len(z) < 100)
	fmt.Println("round trip equal:", bytes.Equal(out, text))
	// Output:
	// 880 bytes compressed to fewer than 100: true
	// round trip equal: true
}

func ExampleAppendCompress_inPlace() {
	// One buffer, reused: compress it in place, then decompress in place.
	// Overlapping dst and src give the same result as separate memory.
	buf := make([]byte, 0, 4096)
	buf = append(buf, strings.Repeat("in place, no second buffer. ", 30)...)
	n := len(buf)
	buf, err := gzpool.AppendCompress(buf[:0], buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(n, "bytes compressed to fewer than 100:", len(buf) < 100)
	buf, err = gzpool.AppendDecompress(buf[:0], buf, 1<<20)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(buf), "bytes back:", string(buf[:27]))
	// Output:
	// 840 bytes compressed to fewer than 100: true
	// 840 bytes back: in place, no second buffer.
}

func ExampleAppendDecompress_limit() {
	// 10 MB of zeros compress to about 10 KB: a small request body can be
	// a decompression bomb. A limit stops it.
	bomb, err := gzpool.AppendCompress(nil, make([]byte, 10<<20))
	if err != nil {
		panic(err)
	}
	_, err = gzpool.AppendDecompress(nil, bomb, 1<<20)
	fmt.Println(errors.Is(err, gzpool.ErrLimit), err)

	_, err = gzpool.AppendDecompress(nil, bomb[:len(bomb)/2], 16<<20)
	fmt.Println(errors.Is(err, gzpool.ErrTruncated), err)
	// Output:
	// true gzpool: decompressed data exceeds the limit
	// true gzpool: truncated gzip data: unexpected EOF
}

func ExampleNewWriter() {
	var file bytes.Buffer
	w := gzpool.NewWriter(&file)
	for i := range 3 {
		fmt.Fprintf(w, "line %d\n", i)
	}
	if err := w.Close(); err != nil { // finishes the stream, returns the writer to its pool
		panic(err)
	}

	r, err := gzpool.NewReader(&file)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	text, err := io.ReadAll(r)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(text))
	// Output:
	// line 0
	// line 1
	// line 2
}
