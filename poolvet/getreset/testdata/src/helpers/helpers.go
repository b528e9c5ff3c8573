// Package helpers holds pooled values written through the functions they
// are passed to, reset on only some Put paths, or appended to instead of
// truncated.
package helpers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"text/template"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var bytesPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

var tmpl = template.Must(template.New("t").Parse("{{.}}"))

// writeHeader writes through the io.Writer it is given.
func writeHeader(w io.Writer, name string) {
	fmt.Fprintf(w, "== %s ==\n", name)
}

// writeBody writes through its parameter with a method of io.Writer.
func writeBody(w io.Writer, body string) error {
	_, err := w.Write([]byte(body))
	return err
}

// ---- flagged ----

// The helper writes into the unreset buffer.
func helperWrite(out io.Writer, name string) {
	b := bufPool.Get().(*bytes.Buffer)
	writeHeader(b, name) // want `^b from bufPool \(Get on line 37\) is written before it is reset \(no Put of bufPool resets it\)$`
	out.Write(b.Bytes())
	bufPool.Put(b)
}

// A helper calling a helper.
func nestedHelper(out io.Writer, name string) {
	b := bufPool.Get().(*bytes.Buffer)
	writeAll(b, name) // want `b from bufPool \(Get on line 45\) is written before it is reset`
	out.Write(b.Bytes())
	bufPool.Put(b)
}

func writeAll(w io.Writer, name string) {
	writeHeader(w, name)
	writeBody(w, name)
}

// A template executed into the unreset buffer.
func render(out io.Writer, v any) error {
	b := bufPool.Get().(*bytes.Buffer)
	if err := tmpl.ExecuteTemplate(b, "t", v); err != nil { // want `b from bufPool \(Get on line 58\)`
		return err
	}
	_, err := out.Write(b.Bytes())
	bufPool.Put(b)
	return err
}

// Only the error path resets: the success path puts the buffer back dirty.
var encPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func encode(out io.Writer, v any) error {
	b := encPool.Get().(*bytes.Buffer)
	if err := json.NewEncoder(b).Encode(v); err != nil { // want `b from encPool \(Get on line 71\) is written before it is reset`
		b.Reset()
		encPool.Put(b)
		return err
	}
	_, err := out.Write(b.Bytes())
	encPool.Put(b)
	return err
}

// A reset in one branch does not cover the Put after the if.
var logPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func logLine(out io.Writer, msg string, big bool) {
	b := logPool.Get().(*bytes.Buffer)
	b.WriteString(msg) // want `b from logPool \(Get on line 86\)`
	out.Write(b.Bytes())
	if big {
		b.Reset()
	}
	logPool.Put(b)
}

// append(*bp, ...) appends to the previous user's bytes.
func appendOld(out io.Writer, s string) {
	bp := bytesPool.Get().(*[]byte)
	b := append(*bp, s...) // want `bp from bytesPool \(Get on line 97\) is written before it is reset`
	out.Write(b)
	*bp = b
	bytesPool.Put(bp)
}

// ---- clean ----

var cleanBytes = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Reset before the helper writes.
func helperAfterReset(out io.Writer, name string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	writeHeader(b, name)
	out.Write(b.Bytes())
	bufPool.Put(b)
}

// A helper that resets what it is given before writing.
func resetAndWrite(b *bytes.Buffer, s string) {
	b.Reset()
	b.WriteString(s)
}

func helperResets(out io.Writer, s string) {
	b := bufPool.Get().(*bytes.Buffer)
	resetAndWrite(b, s)
	out.Write(b.Bytes())
	bufPool.Put(b)
}

// A helper that only reads: not a write.
func length(r io.Reader) int {
	n, _ := io.Copy(io.Discard, r)
	return int(n)
}

// (*bp)[:0]: the old bytes are dropped.
func appendTruncated(out io.Writer, s string) {
	bp := cleanBytes.Get().(*[]byte)
	b := append((*bp)[:0], s...)
	out.Write(b)
	*bp = b
	cleanBytes.Put(bp)
}

// Every Put resets, in both branches of an if.
var bothPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func bothBranches(out io.Writer, v any) error {
	b := bothPool.Get().(*bytes.Buffer)
	err := json.NewEncoder(b).Encode(v)
	if err == nil {
		_, err = out.Write(b.Bytes())
	}
	if err != nil {
		b.Reset()
	} else {
		b.Truncate(0)
	}
	bothPool.Put(b)
	return err
}

// Every Put path resets: the error path and the success path.
var everyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func everyPath(out io.Writer, name string) error {
	b := everyPool.Get().(*bytes.Buffer)
	writeHeader(b, name)
	if b.Len() > 1<<20 {
		b.Reset()
		everyPool.Put(b)
		return errors.New("too long")
	}
	_, err := out.Write(b.Bytes())
	b.Reset()
	everyPool.Put(b)
	return err
}

// Template into a reset buffer.
func renderReset(out io.Writer, v any) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	if err := tmpl.Execute(b, v); err != nil {
		return err
	}
	_, err := out.Write(b.Bytes())
	bufPool.Put(b)
	return err
}

// Handed to a function of another package we cannot see: stay quiet.
func handedOn(out io.Writer, v any, enc func(io.Writer, any)) {
	b := bufPool.Get().(*bytes.Buffer)
	enc(b, v)
	out.Write(b.Bytes())
	bufPool.Put(b)
}

var _ = length

// A method of another value writing into the buffer it is given.
type header struct{ name string }

func (h *header) writeTo(w io.Writer) { io.WriteString(w, h.name) }

var hdrPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func withHeader(out io.Writer, h *header) {
	b := hdrPool.Get().(*bytes.Buffer)
	h.writeTo(b) // want `b from hdrPool \(Get on line 210\)`
	out.Write(b.Bytes())
	hdrPool.Put(b)
}

// A reset guarded by a test of the buffer itself is a reset on every path.
var lenPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func resetIfUsed(out io.Writer, s string) {
	b := lenPool.Get().(*bytes.Buffer)
	b.WriteString(s)
	out.Write(b.Bytes())
	if b.Len() > 0 {
		b.Reset()
	}
	lenPool.Put(b)
}
