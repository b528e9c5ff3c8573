// Package derived holds buffers grown from local variables that hold the
// caller's data.
package derived

import (
	"bufio"
	"bytes"
	"sync"
)

var lines = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// readLine appends chunks read from the caller's reader: the buffer
// grows to the longest line ever read.
func readLine(r *bufio.Reader) string {
	buf := *lines.Get().(*[]byte)
	defer func() {
		lines.Put(&buf) // want `lines.Put keeps &buf .*append of caller data`
	}()
	buf = buf[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			break
		}
	}
	return string(buf)
}

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// joinFields writes each of the caller's fields.
func joinFields(fields []string) string {
	b := bufs.Get().(*bytes.Buffer)
	b.Reset()
	for _, f := range fields {
		b.WriteString(f)
	}
	s := b.String()
	bufs.Put(b) // want `bufs.Put keeps b .*b.WriteString of caller data`
	return s
}

// constant writes only what the function itself holds, in a loop over
// a constant count.
func constant() string {
	b := bufs.Get().(*bytes.Buffer)
	b.Reset()
	for i := 0; i < 3; i++ {
		sep := "-"
		b.WriteString(sep)
	}
	s := b.String()
	bufs.Put(b)
	return s
}
