// Package escape holds aliases of pooled values handed on before the Put
// and outliving it: sends, goroutines, values that keep the buffer, and
// fields written after Put(&x.field).
package escape

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"golang.org/x/sync/errgroup"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var slicePool = sync.Pool{New: func() any { return new([]byte) }}

func getBuf() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func putBuf(b *bytes.Buffer) { bufPool.Put(b) }

type result struct {
	Data []byte
	Err  error
}

type message struct{ Body []byte }

// ---- flagged ----

// The receiver reads the bytes after the buffer went back.
func sendBytes(out chan<- []byte, s string) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	out <- b.Bytes() // want `^sends memory of b on a channel before the Put on line 40 puts b back into bufPool \(the receiver may still be using it\)$`
	putBuf(b)
}

// A struct holding the bytes, sent in a loop.
func sendResult(out chan<- result, items []string) {
	for _, it := range items {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		b.WriteString(it)
		out <- result{Data: b.Bytes()} // want `sends memory of b on a channel before the Put on line 50`
		bufPool.Put(b)
	}
}

// The goroutine's closure uses the buffer after it went back.
func goClosure(w io.Writer, s string) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	go func() { // want `^the goroutine started here uses b, which the Put on line 62 puts back into bufPool without waiting for it$`
		w.Write(b.Bytes())
	}()
	putBuf(b)
}

// The goroutine gets the bytes as an argument.
func goArgs(w io.Writer, s string) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	data := b.Bytes()
	go w.Write(data) // want `the goroutine started here uses b, which the Put on line 72`
	putBuf(b)
}

// A goroutine with a deferred Put: the function returns, the Put runs, the
// goroutine still writes.
func goDeferred(w io.Writer, s string) {
	b := getBuf()
	defer putBuf(b)
	b.Reset()
	b.WriteString(s)
	go io.Copy(w, b) // want `the goroutine started here uses b, which the deferred Put on line 79`
}

// The request keeps the buffer as its body and is sent after the Put.
func postAfterPut(ctx context.Context, c *http.Client, url string, v any) (*http.Response, error) {
	b := getBuf()
	b.Reset()
	if err := json.NewEncoder(b).Encode(v); err != nil {
		putBuf(b)
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", url, b)
	putBuf(b)
	if err != nil {
		return nil, err
	}
	return c.Do(req) // want `^req keeps b, which was put back into bufPool on line 94 \(passed to http.NewRequestWithContext on line 93\)$`
}

// A reader over the bytes, read after the Put.
func readerAfterPut(w io.Writer, s string) error {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	r := bytes.NewReader(b.Bytes())
	putBuf(b)
	_, err := io.Copy(w, r) // want `r keeps b, .* \(passed to bytes.NewReader on line 106\)`
	return err
}

// A named result holding the bytes, returned while the deferred Put runs.
func namedResult(s string) (res result) {
	b := getBuf()
	defer putBuf(b)
	b.Reset()
	b.WriteString(s)
	res.Data = b.Bytes()
	return // want `returns memory of b, which the deferred Put on line 115`
}

// A struct built up field by field, then returned.
func builtUp(s string) *message {
	b := getBuf()
	defer putBuf(b)
	b.Reset()
	b.WriteString(s)
	m := &message{}
	m.Body = b.Bytes()
	return m // want `returns memory of b, which the deferred Put on line 125`
}

type conn struct {
	buf  []byte
	name string
}

// After Put(&c.buf) the pool owns that address: clearing the field writes
// into a pooled object.
func (c *conn) release() {
	slicePool.Put(&c.buf)
	c.buf = nil // want `^c.buf is used after &c.buf was put back into slicePool on line 141$`
}

type frame struct{ payload *bytes.Buffer }

// Reading a field after putting the value it holds.
func (f *frame) close() int {
	bufPool.Put(f.payload)
	return f.payload.Len() // want `f.payload is used after it was put back into bufPool on line 149`
}

// ---- clean ----

// The bytes are copied before they are sent.
func sendCopy(out chan<- []byte, s string) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	out <- append([]byte(nil), b.Bytes()...)
	putBuf(b)
}

// A string is a copy.
func sendString(out chan<- string, s string) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	out <- b.String()
	putBuf(b)
}

// The receiver acknowledges before the Put.
func sendAck(out chan<- []byte, done <-chan struct{}, s string) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	out <- b.Bytes()
	<-done
	putBuf(b)
}

// The goroutines are joined before the Put.
func goJoined(ws []io.Writer, s string) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Write(b.Bytes())
		}()
	}
	wg.Wait()
	putBuf(b)
}

// errgroup.Wait joins too, also with a deferred Put.
func goErrgroup(ws []io.Writer, s string) error {
	b := getBuf()
	defer putBuf(b)
	b.Reset()
	b.WriteString(s)
	var g errgroup.Group
	for _, w := range ws {
		g.Go(func() error { _, err := w.Write(b.Bytes()); return err })
	}
	return g.Wait()
}

// A goroutine signalling on a channel the function waits on.
func goChan(w io.Writer, s string) error {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	errc := make(chan error, 1)
	go func() {
		_, err := w.Write(b.Bytes())
		errc <- err
	}()
	err := <-errc
	putBuf(b)
	return err
}

// The goroutine owns the buffer and puts it back itself; the other path
// puts it here.
func goOwns(w io.Writer, s string, async bool) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	if async {
		go func() {
			w.Write(b.Bytes())
			putBuf(b)
		}()
		return
	}
	w.Write(b.Bytes())
	putBuf(b)
}

// The request is sent before the deferred Put, but that is not enough
// (flagged, though in this section): net/http may still read the body
// after Do returns.
func postBeforePut(ctx context.Context, c *http.Client, url string, v any) (*http.Response, error) {
	b := getBuf()
	defer putBuf(b)
	b.Reset()
	if err := json.NewEncoder(b).Encode(v); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(b.Bytes()))
	if err != nil {
		return nil, err
	}
	return c.Do(req) // want `sends memory of b as an HTTP request body, which the deferred Put on line 250 hands back to bufPool`
}

// An error made while writing does not keep the buffer.
func errAfterPut(v any) error {
	b := getBuf()
	b.Reset()
	err := json.NewEncoder(b).Encode(v)
	putBuf(b)
	return err
}

// Hand-off by return: the caller owns the buffer, nothing is put.
func handOff(s string) *bytes.Buffer {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	return b
}

// The named result is copied out.
func namedCopy(s string) (res result) {
	b := getBuf()
	defer putBuf(b)
	b.Reset()
	b.WriteString(s)
	res.Data = bytes.Clone(b.Bytes())
	return
}

// The field is taken out before its address goes to the pool.
func (c *conn) releaseRight() {
	b := c.buf[:0]
	c.buf = nil
	slicePool.Put(&b)
}

// Dropping the reference after Put(f.payload) is right: the pool pins nothing.
func (f *frame) closeRight() {
	bufPool.Put(f.payload)
	f.payload = nil
}

// Other fields stay ours after Put(&c.buf).
func (c *conn) releaseName() string {
	slicePool.Put(&c.buf)
	return c.name
}

// Hand-off by a field store: the struct owns it now, no Put here.
func (c *conn) keep(s string) {
	b := getBuf()
	b.WriteString(s)
	c.buf = b.Bytes()
}

// Reading the header of the field put back (cap, a comparison) touches
// no pooled memory.
type pair struct{ put []byte }

var bytesPool = sync.Pool{New: func() any { return []byte(nil) }}

func headerAfterPut(tt pair) bool {
	bytesPool.Put(tt.put) //lint:ignore SA6002 the test pools a slice value on purpose
	return tt.put != nil && cap(tt.put) > 0
}

// The send and the Put are alternatives of one select (fasthttp's
// stackless): the receiver owns it, or we put it back.
func trySend(work chan<- *bytes.Buffer, s string) bool {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	select {
	case work <- b:
	default:
		putBuf(b)
		return false
	}
	return true
}

// The goroutine takes the buffer over on one branch, and the Put is
// guarded by the other (fasthttp's hijack).
func serve(w io.Writer, s string, hijack func(*bytes.Buffer)) {
	b := getBuf()
	b.Reset()
	b.WriteString(s)
	for i := 0; i < 1; i++ {
		if hijack != nil {
			go hijack(b)
			break
		}
		w.Write(b.Bytes())
	}
	if hijack == nil {
		putBuf(b)
	}
}
