package getreset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/poolkit/poolkit/pool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var intsPool = sync.Pool{New: func() any { s := []int{}; return &s }}

var sbPool = sync.Pool{New: func() any { return new(strings.Builder) }}

var bwPool = sync.Pool{New: func() any { return bufio.NewWriter(nil) }}

var brPool = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

type Person struct {
	Name    []string
	Records []string
	say     func()
}

func (p *Person) RegSay(f func()) { p.say = f }

var personPool = sync.Pool{New: func() any { return new(Person) }}

type gzipWriter struct {
	buf *bytes.Buffer
	n   int
}

var gwPool = sync.Pool{New: func() any { return &gzipWriter{buf: new(bytes.Buffer)} }}

var kit = pool.New(func() *bytes.Buffer { return new(bytes.Buffer) })

func getBuf() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

// ---- flagged ----

// sync's own example without its Reset.
func Log(w io.Writer, key, val string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.WriteString(key) // want `^b from bufPool \(Get on line 50\) is written before it is reset \(no Put of bufPool resets it\)$`
	b.WriteByte('=')
	b.WriteString(val)
	w.Write(b.Bytes())
	bufPool.Put(b)
}

// The seed's slice example: append to *[]int taken from the pool.
func appendInts(n int) int {
	l := intsPool.Get().(*[]int)
	*l = append(*l, n) // want `l from intsPool \(Get on line 60\) is written before it is reset`
	m := len(*l)
	intsPool.Put(l)
	return m
}

// The seed's Person: a field appended to, the struct never reset.
func say(index int) {
	person := personPool.Get().(*Person)
	person.RegSay(func() {})
	person.Name = append(person.Name, fmt.Sprint(index)) // want `person.Name from personPool \(Get on line 69\) is written before it is reset`
	personPool.Put(person)
}

func fprintf(w io.Writer, v int) {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	fmt.Fprintf(b, "%d", v) // want `b from bufPool`
	w.Write(b.Bytes())
}

func encode(v any) string {
	b := bufPool.Get().(*bytes.Buffer)
	json.NewEncoder(b).Encode(v) // want `b from bufPool`
	s := b.String()
	bufPool.Put(b)
	return s
}

func builder(s string) string {
	sb := sbPool.Get().(*strings.Builder)
	sb.WriteString(s) // want `sb from sbPool`
	out := sb.String()
	sbPool.Put(sb)
	return out
}

// A pooled bufio.Writer still points at the previous destination.
func bufioWriter(w io.Writer, p []byte) {
	bw := bwPool.Get().(*bufio.Writer)
	bw.Write(p) // want `bw from bwPool`
	bw.Flush()
	bwPool.Put(bw)
}

func bufioReader(r io.Reader) (string, error) {
	br := brPool.Get().(*bufio.Reader)
	defer brPool.Put(br)
	return br.ReadString('\n') // want `br from brPool`
}

// The field that is written was never reset (only n was).
func fieldWrite(p []byte) {
	gw := gwPool.Get().(*gzipWriter)
	gw.n = 0
	gw.buf.Write(p) // want `gw.buf from gwPool \(Get on line 114\)`
	gwPool.Put(gw)
}

// A poolkit pool.Pool without WithReset keeps contents too.
func kitNoReset(s string) int {
	b := kit.Get()
	b.WriteString(s) // want `b from kit \(Get on line 122\)`
	n := b.Len()
	kit.Put(b)
	return n
}

// A plain wrapper does not reset either.
func viaWrapper(s string) {
	b := getBuf()
	b.WriteString(s) // want `b from bufPool`
	bufPool.Put(b)
}

// Writing inside a branch before the reset is still a dirty write.
func branchWrite(first bool, s string) {
	b := bufPool.Get().(*bytes.Buffer)
	if !first {
		b.WriteByte(',') // want `b from bufPool`
	}
	b.Reset()
	b.WriteString(s)
	bufPool.Put(b)
}

// Every Put resets body, but head is appended to and never reset.
type frame struct {
	head []byte
	body []byte
}

var framePool = sync.Pool{New: func() any { return new(frame) }}

func buildFrame(p []byte) int {
	f := framePool.Get().(*frame)
	f.head = append(f.head, p[0]) // want `f.head from framePool`
	f.body = append(f.body, p[1:]...)
	n := len(f.head) + len(f.body)
	f.body = f.body[:0]
	framePool.Put(f)
	return n
}
