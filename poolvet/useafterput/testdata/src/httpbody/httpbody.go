// Package httpbody sends pooled buffers as HTTP request bodies.
package httpbody

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
)

// ByteBuffer is a pooled byte buffer.
type ByteBuffer struct{ B []byte }

var pool = sync.Pool{New: func() any { return new(ByteBuffer) }}

func getBuf() *ByteBuffer { return pool.Get().(*ByteBuffer) }

func putBuf(b *ByteBuffer) { b.B = b.B[:0]; pool.Put(b) }

// push sends the buffer's bytes and puts the buffer back when it returns.
func push(ctx context.Context, c *http.Client, url string, write func(*ByteBuffer)) error {
	bb := getBuf()
	defer putBuf(bb)
	write(bb)
	body := bytes.NewReader(bb.B)
	req, err := http.NewRequestWithContext(ctx, "POST", url, body)
	if err != nil {
		return err
	}
	resp, err := c.Do(req) // want `^sends memory of bb as an HTTP request body, which the deferred Put on line 24 hands back to pool \(the transport may read it after Do returns\)$`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// post sends the buffer itself, then puts it back.
func post(url string, v []byte) error {
	b := bufs.Get().(*bytes.Buffer)
	b.Reset()
	b.Write(v)
	resp, err := http.Post(url, "text/plain", b) // want `^sends b as an HTTP request body, which the Put on line 46 hands back to bufs \(the transport may read it after Post returns\)$`
	bufs.Put(b)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// roundTrip hands the request to a RoundTripper.
func roundTrip(rt http.RoundTripper, url string, v []byte) error {
	b := bufs.Get().(*bytes.Buffer)
	defer bufs.Put(b)
	b.Reset()
	b.Write(v)
	req, err := http.NewRequest("PUT", url, b)
	if err != nil {
		return err
	}
	resp, err := rt.RoundTrip(req) // want `sends memory of b as an HTTP request body, which the deferred Put on line 56 hands back to bufs`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- quiet ----

// The body is a copy of the buffer's bytes.
func pushCopy(c *http.Client, url string, write func(*ByteBuffer)) error {
	bb := getBuf()
	defer putBuf(bb)
	write(bb)
	req, err := http.NewRequest("POST", url, bytes.NewReader(append([]byte(nil), bb.B...)))
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The buffer builds the URL, copied into a string, not the body.
func get(c *http.Client, base string) (*http.Response, error) {
	bb := getBuf()
	defer putBuf(bb)
	bb.B = append(bb.B[:0], base...)
	bb.B = append(bb.B, "/metrics"...)
	req, err := http.NewRequest("GET", string(bb.B), nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// The buffer receives the response, which Do does not read into later.
func fetch(c *http.Client, url string) ([]byte, error) {
	b := bufs.Get().(*bytes.Buffer)
	defer bufs.Put(b)
	b.Reset()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(b, resp.Body); err != nil {
		return nil, err
	}
	return bytes.Clone(b.Bytes()), nil
}
