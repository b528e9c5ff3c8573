// Package getresetclean holds correct pool uses: nothing is reported.
package getresetclean

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Reset right after Get.
func resetAfterGet(w io.Writer, s string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	w.Write(b.Bytes())
	bufPool.Put(b)
}

// The seed's stream encoder: defer Put, then Reset, then write.
func EncodeJSONStreamWithPool(in any) (string, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(in); err != nil {
		return "", err
	}
	return strings.TrimRight(buf.String(), "\n"), nil
}

// Every Put of resetPool resets first, so Gets may write at once.
var resetPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func writeFirst(s string) string {
	b := resetPool.Get().(*bytes.Buffer)
	b.WriteString(s)
	out := b.String()
	b.Reset()
	resetPool.Put(b)
	return out
}

func putResetHelper(b *bytes.Buffer) {
	b.Reset()
	resetPool.Put(b)
}

func writeFirstHelper(s string) {
	b := resetPool.Get().(*bytes.Buffer)
	b.WriteString(s)
	putResetHelper(b)
}

// Header reset of a pooled slice, then append; the header is written back.
var intsPool = sync.Pool{New: func() any { s := []int{}; return &s }}

func appendAfterReslice(n int) int {
	l := intsPool.Get().(*[]int)
	*l = (*l)[:0]
	*l = append(*l, n)
	m := len(*l)
	intsPool.Put(l)
	return m
}

func headerWriteBack(n int) int {
	l := intsPool.Get().(*[]int)
	s := (*l)[:0]
	s = append(s, n, n)
	*l = s
	intsPool.Put(l)
	return len(s)
}

// bufio.Writer reset to the new destination before writing.
var bwPool = sync.Pool{New: func() any { return bufio.NewWriter(nil) }}

func bufioReset(w io.Writer, p []byte) error {
	bw := bwPool.Get().(*bufio.Writer)
	bw.Reset(w)
	bw.Write(p)
	err := bw.Flush()
	bw.Reset(nil)
	bwPool.Put(bw)
	return err
}

// The seed's gzip writer: both fields reset, one through the other.
type gzipWriter struct {
	buf *bytes.Buffer
	w   *bufio.Writer
}

var gwPool = sync.Pool{New: func() any { return &gzipWriter{buf: new(bytes.Buffer), w: bufio.NewWriter(nil)} }}

func gzipLike(p []byte) []byte {
	gw := gwPool.Get().(*gzipWriter)
	defer gwPool.Put(gw)
	gw.buf.Reset()
	gw.w.Reset(gw.buf)
	gw.w.Write(p)
	gw.w.Flush()
	return bytes.Clone(gw.buf.Bytes())
}

// A struct overwritten as a whole.
type Person struct{ Records []string }

var personPool = sync.Pool{New: func() any { return new(Person) }}

func zeroStruct(s string) int {
	p := personPool.Get().(*Person)
	*p = Person{Records: p.Records[:0]}
	p.Records = append(p.Records, s)
	n := len(p.Records)
	personPool.Put(p)
	return n
}

// A local method that resets its receiver counts as a reset.
func (p *Person) clear() { p.Records = p.Records[:0] }

func methodReset(s string) {
	p := personPool.Get().(*Person)
	p.clear()
	p.Records = append(p.Records, s)
	personPool.Put(p)
}

// poolkit pools that reset by themselves.
var kitReset = pool.New(func() *bytes.Buffer { return new(bytes.Buffer) },
	pool.WithReset(func(b *bytes.Buffer) *bytes.Buffer { b.Reset(); return b }))

func kitWithReset(s string) {
	b := kitReset.Get()
	b.WriteString(s)
	kitReset.Put(b)
}

var bb bytebuf.Pool

func bytebufPool(s string) string {
	b := bb.Get()
	b.WriteString(s)
	out := b.String()
	bb.Put(b)
	return out
}

var ints slicepool.Pool[int]

func slicePool(n int) int {
	s := ints.Get(n)
	s = append(s, n)
	ints.Put(s)
	return len(s)
}

// Handed to code we cannot see before the write: stay quiet.
func prepare(b *bytes.Buffer) { b.Reset() }

func handedOff(s string) {
	b := bufPool.Get().(*bytes.Buffer)
	prepare(b)
	b.WriteString(s)
	bufPool.Put(b)
}

// A pool nobody in this package puts into hands out fresh values only.
var neverPut = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func fresh(s string) string {
	b := neverPut.Get().(*bytes.Buffer)
	b.WriteString(s)
	return b.String()
}

// Truncate(0) resets.
func truncate(s string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Truncate(0)
	b.WriteString(s)
	bufPool.Put(b)
}

// Every Put resets the one field that gets appended to.
type frame struct {
	hdr  [4]byte
	body []byte
}

var framePool = sync.Pool{New: func() any { return new(frame) }}

func putFrame(f *frame) {
	f.body = f.body[:0]
	framePool.Put(f)
}

func buildFrame(p []byte) int {
	f := framePool.Get().(*frame)
	f.body = append(f.body, p...)
	n := len(f.body)
	putFrame(f)
	return n
}

// Reset before a cap guard that wraps the Put.
var guardPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func guarded(s string) string {
	b := guardPool.Get().(*bytes.Buffer)
	b.WriteString(s)
	out := b.String()
	b.Reset()
	if b.Cap() <= 64<<10 {
		guardPool.Put(b)
	}
	return out
}
