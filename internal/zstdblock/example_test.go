package zstdblock_test

import (
	"bytes"
	"fmt"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/zstdblock"
)

func ExampleAppendFrame() {
	body := bytes.Repeat([]byte(`{"sku":"SKU-1","qty":2},`), 100)
	z := zstdblock.AppendFrame(nil, body)

	d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	defer d.Close()
	got, err := d.DecodeAll(z, nil)
	fmt.Println(len(body), "bytes in one frame;", bytes.Equal(got, body), err)
	// Output: 2400 bytes in one frame; true <nil>
}
