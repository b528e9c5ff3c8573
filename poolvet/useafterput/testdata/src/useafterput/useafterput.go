package useafterput

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var strsPool = sync.Pool{New: func() any { s := make([]string, 5); return &s }}

type JsonData struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Items []string `json:"items"`
}

type point struct{ X, Y int }

var decPool = sync.Pool{New: func() any { return new(JsonData) }}

var pointPool = sync.Pool{New: func() any { return new(point) }}

var kit = pool.New(func() *bytes.Buffer { return new(bytes.Buffer) })

var ints slicepool.Pool[int]

var bb bytebuf.Pool

type gzipWriter struct {
	buf *bytes.Buffer
	out []byte
}

var gwPool = sync.Pool{New: func() any { return &gzipWriter{buf: new(bytes.Buffer)} }}

func putBuf(b *bytes.Buffer) { bufPool.Put(b) }

var sink []byte

// ---- flagged ----

// The seed's bug: the deferred Put recycles the buffer the caller gets.
func deferBytes(v int) []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	fmt.Fprint(buf, v)
	return buf.Bytes() // want `^returns memory of buf, which the deferred Put on line 54 hands back to bufPool \(copy it out first\)$`
}

// The seed's other bug: return *ss with defer Put(ss).
func ReplicateStrNTimesWithPool(s string) []string {
	n := 5
	ss := strsPool.Get().(*[]string)
	defer strsPool.Put(ss)
	for i := 0; i < n; i++ {
		(*ss)[i] = s
	}
	return *ss // want `returns memory of ss, which the deferred Put on line 64 hands back to strsPool`
}

// The seed's decode helper returns a shallow copy sharing Items.
func DecodeJSONWithPool(in string) (JsonData, error) {
	res := decPool.Get().(*JsonData)
	defer decPool.Put(res)
	if err := json.Unmarshal([]byte(in), &res); err != nil {
		return JsonData{}, err
	}
	return *res, nil // want `returns memory of res, which the deferred Put on line 74`
}

func useAfter(w io.Writer) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("x")
	bufPool.Put(b)
	w.Write(b.Bytes()) // want `^b is used after it was put back into bufPool on line 85$`
}

func aliasAfter() []byte {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("x")
	out := b.Bytes()
	bufPool.Put(b)
	return out // want `^out aliases b, which was put back into bufPool on line 94$`
}

func returnSelf() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	return b // want `^returns b, which the deferred Put on line 100 hands back to bufPool \(its next user shares it\)$`
}

func deferClosure() []byte {
	b := kit.Get()
	defer func() {
		if b.Cap() < 1<<16 {
			kit.Put(b)
		}
	}()
	b.Reset()
	b.WriteString("y")
	return bytes.TrimSpace(b.Bytes()) // want `returns memory of b, which the deferred Put on line 109 hands back to kit`
}

func sliceAfter(n int) int {
	s := ints.Get(n)
	s = append(s, 1, 2, 3)
	ints.Put(s)
	return s[0] // want `s is used after it was put back into ints on line 120`
}

func bytebufSend(ch chan<- []byte) {
	b := bb.Get()
	defer bb.Put(b)
	b.WriteString("z")
	ch <- b.B // want `^sends memory of b, which the deferred Put on line 126 hands back to bb \(copy it out first\)$`
}

func storeGlobal() {
	b := bytebuf.Get()
	defer bytebuf.Put(b)
	b.WriteString("z")
	sink = b.Bytes()[:1] // want `stores memory of b, which the deferred Put on line 133 hands back to bytebuf's default pool`
}

func wrapperPut() {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	putBuf(b)
	b.WriteString("late") // want `b is used after it was put back into bufPool on line 141`
}

func fieldAlias() []byte {
	gw := gwPool.Get().(*gzipWriter)
	defer gwPool.Put(gw)
	gw.buf.Reset()
	gw.buf.WriteString("q")
	return gw.buf.Bytes() // want `returns memory of gw`
}

func literalAlias() JsonData {
	gw := gwPool.Get().(*gzipWriter)
	defer gwPool.Put(gw)
	return JsonData{Name: "n", Items: []string{string(gw.out)}}
}

type result struct{ Data []byte }

func structLitAlias() result {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	return result{Data: b.Bytes()} // want `returns memory of b`
}

func doublePut() {
	b := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(b)
	bufPool.Put(b) // want `b is used after it was put back into bufPool on line 170`
}

func putSliceAddr() []int {
	arr := (*strsPoolInts.Get().(*[]int))[:0]
	arr = append(arr, 42)
	strsPoolInts.Put(&arr)
	return arr // want `arr is used after it was put back into strsPoolInts`
}

var strsPoolInts = sync.Pool{New: func() any { s := []int{}; return &s }}

// A use in the init statement of an if is still a use.
func useInInit() {
	b := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(b)
	if n := b.Len(); n > 0 { // want `^b is used after it was put back into bufPool on line 186$`
		fmt.Println(n)
	}
}

// ---- clean ----

// String copies before the deferred Put runs.
func deferString(v int) string {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	fmt.Fprint(buf, v)
	return buf.String()
}

// Copy out before Put.
func copyOut() []byte {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("x")
	out := append([]byte(nil), b.Bytes()...)
	bufPool.Put(b)
	return out
}

func cloneOut() []byte {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	b.WriteString("x")
	return bytes.Clone(b.Bytes())
}

func slicesClone() []string {
	ss := strsPool.Get().(*[]string)
	defer strsPool.Put(ss)
	*ss = append((*ss)[:0], "a")
	return slices.Clone(*ss)
}

// Writing out before Put, then nothing touches b.
func writeThenPut(w io.Writer) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("x")
	_, err := w.Write(b.Bytes())
	bufPool.Put(b)
	return err
}

// A struct of plain values is copied by the dereference.
func plainDeref() point {
	p := pointPool.Get().(*point)
	defer pointPool.Put(p)
	*p = point{1, 2}
	return *p
}

// Returning a length or an element copy is fine.
func lenAfter() int {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	b.WriteString("abc")
	return b.Len()
}

// Header write-back: the slice grows, the new header is stored back, then Put.
func headerWriteBack(s string) int {
	ss := strsPool.Get().(*[]string)
	buf := (*ss)[:0]
	buf = append(buf, s, s)
	n := len(buf)
	*ss = buf
	strsPool.Put(ss)
	return n
}

// Reassigning after Put starts over with a fresh value.
func reassign() {
	b := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(b)
	b = bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("fresh")
	bufPool.Put(b)
}

// Reassigning in the init statement of an if, a switch or a for starts
// over too: the condition and body see the fresh value.
func reassignInInit() {
	b := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(b)
	if b = bufPool.Get().(*bytes.Buffer); b.Len() != 0 {
		b.Reset()
	}
	bufPool.Put(b)

	c := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(c)
	switch c = bufPool.Get().(*bytes.Buffer); c.Len() {
	case 0:
		c.WriteString("fresh")
	}
	bufPool.Put(c)
}

// Dropping the reference after Put is not a use.
func dropRef() {
	b := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(b)
	b = nil
	_ = b
}

// A cap guard before Put; the element read happens first.
func capGuard(n int) int {
	s := ints.Get(n)
	s = append(s, 7)
	first := s[0]
	if cap(s) <= 1<<10 {
		ints.Put(s)
	}
	return first
}

// Returning a decoded value that holds no pooled memory.
func decodeString(in []byte) (string, error) {
	res := decPool.Get().(*JsonData)
	defer decPool.Put(res)
	res.ID, res.Name, res.Items = 0, "", res.Items[:0]
	if err := json.Unmarshal(in, res); err != nil {
		return "", err
	}
	return res.Name, nil
}

// The deferred Put concerns whatever b holds at defer time; b is swapped later.
func swapped() []byte {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b = new(bytes.Buffer)
	return b.Bytes()
}

// Storing into a local that dies with the function is fine.
func localStore() int {
	b := bytebuf.Get()
	defer bytebuf.Put(b)
	var tmp struct{ p []byte }
	tmp.p = b.Bytes()
	return len(tmp.p)
}

// A closure defined after Put may never run: stay quiet.
func closureAfter() func() int {
	b := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(b)
	return func() int { return 0 }
}

// Fields dropped before Put (STYLE.md: drop references): the slice in the
// field belongs to the caller, not to the pool.
type outSink struct{ dst []byte }

type encoder struct{ sink outSink }

var encPool = sync.Pool{New: func() any { return new(encoder) }}

func putEncoder(e *encoder) {
	e.sink = outSink{}
	encPool.Put(e)
}

func appendEncoded(dst []byte, s string) []byte {
	e := encPool.Get().(*encoder)
	e.sink.dst = append(dst, s...)
	out := e.sink.dst
	putEncoder(e)
	return out
}

// A struct type zeroed through its pointer after Get: the old slices are
// dropped, so a copy taken before Put shares nothing with the next user.
type record struct{ Tags []string }

var recPool = sync.Pool{New: func() any { return new(record) }}

func zeroedCopy(tag string) record {
	r := recPool.Get().(*record)
	defer recPool.Put(r)
	*r = record{}
	r.Tags = append(r.Tags, tag)
	return *r
}

// Comparing addresses and reading len/cap after Put touch no pooled memory.
func identity() bool {
	b := bufPool.Get().(*bytes.Buffer)
	s := ints.Get(4)
	bufPool.Put(b)
	ints.Put(s)
	got := bufPool.Get().(*bytes.Buffer)
	return got == b && cap(s) >= 4
}

// A poolkit pool of plain arrays boxes a copy: the local stays ours.
var blocks = pool.New(func() [16]byte { return [16]byte{} })

func arrayCopy() byte {
	var blk [16]byte
	blk[0] = 1
	blocks.Put(blk)
	return blk[0]
}
