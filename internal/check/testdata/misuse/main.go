// Command misuse runs one misuse of poolkit's pools, named by its argument,
// for the checked-mode tests: built with -tags poolkitcheck, every misuse
// must stop at the line marked "// L:name" or with a report naming it.
// The "correct" programs must run to the end and print "ok".
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

type object struct {
	name string
	tags []string
	n    [4]int64
}

// sink is where bytebuf-copy-after-put copies to: a make and a copy on
// consecutive lines would become one runtime call, placed at the make.
var sink [8192]byte

type record struct {
	buf []byte
	n   int
}

var programs = map[string]func(){
	"pool-double-put-pointer": func() {
		p := pool.New(func() *object { return new(object) })
		o := p.Get()
		p.Put(o) // L:pool-ptr-put1
		p.Put(o) // L:pool-ptr-put2
	},
	"pool-double-put-slice-reset": func() {
		p := pool.New(func() []byte { return make([]byte, 0, 64) },
			pool.WithReset(func(s []byte) []byte { return s[:0] }))
		s := append(p.Get(), "abc"...)
		p.Put(s) // L:pool-slice-put1
		p.Put(s) // L:pool-slice-put2
	},
	"pool-double-put-struct": func() {
		var p pool.Pool[record] // the zero Pool, no options
		r := record{buf: make([]byte, 8)}
		p.Put(r) // L:pool-struct-put1
		p.Put(r) // L:pool-struct-put2
	},
	"pool-double-put-map-stats": func() {
		p := pool.New(func() map[string]int { return map[string]int{} }, pool.WithStats[map[string]int]())
		m := p.Get()
		p.Put(m) // L:pool-map-put1
		p.Put(m) // L:pool-map-put2
	},
	"slicepool-double-put": func() {
		var p slicepool.Pool[int]
		s := p.Get(100)
		p.Put(s) // L:slicepool-put1
		p.Put(s) // L:slicepool-put2
	},
	"slicepool-double-put-pointers": func() {
		var p slicepool.Pool[*object]
		s := p.Get(10)
		p.Put(s) // L:slicepool-ptr-put1
		p.Put(s) // L:slicepool-ptr-put2
	},
	"bytebuf-double-put": func() {
		var p bytebuf.Pool
		b := p.Get()
		p.Put(b) // L:bytebuf-put1
		p.Put(b) // L:bytebuf-put2
	},
	"bytebuf-pkg-double-put": func() {
		b := bytebuf.Get()
		b.WriteString("hello")
		bytebuf.Put(b) // L:bytebuf-pkg-put1
		bytebuf.Put(b) // L:bytebuf-pkg-put2
	},
	"bytebuf-read-after-put": func() {
		b := bytebuf.Get()
		b.WriteString("hello")
		out := b.Bytes()
		bytebuf.Put(b)
		fmt.Println(out[0]) // L:bytebuf-read
	},
	"bytebuf-write-after-put": func() {
		var p bytebuf.Pool
		b := p.Get()
		b.WriteString("hello")
		out := b.Bytes()
		p.Put(b)
		out[1] = 'a' // L:bytebuf-write
	},
	"bytebuf-copy-after-put": func() {
		b := bytebuf.Get()
		b.WriteString(strings.Repeat("x", 5000)) // grown into new checked pages
		out := b.Bytes()
		bytebuf.Put(b)
		copy(sink[:], out) // L:bytebuf-copy
	},
	"bytebuf-direct-append-after-put": func() {
		b := bytebuf.Get()
		b.B = append(b.B, "direct"...) // Buffer.B appended to directly
		bytebuf.Put(b)
		b.B = append(b.B, '!') // L:bytebuf-direct
	},
	"bytebuf-method-after-put": func() {
		b := bytebuf.Get()
		bytebuf.Put(b)        // L:bytebuf-method-put
		b.WriteString("late") // L:bytebuf-method
	},
	"bytebuf-len-after-put": func() {
		var p bytebuf.Pool
		b := p.Get()
		p.Put(b)    // L:bytebuf-len-put
		_ = b.Len() // L:bytebuf-len
	},
	"slicepool-read-after-put": func() {
		var p slicepool.Pool[int64]
		s := append(p.Get(10), 1, 2, 3)
		p.Put(s)
		fmt.Println(s[2]) // L:slicepool-read
	},
	"slicepool-write-after-put": func() {
		var p slicepool.Pool[byte]
		s := append(p.Get(100), "abc"...)
		p.Put(s)
		s[0] = 'x' // L:slicepool-write
	},
	"pool-write-after-put": func() {
		p := pool.New(func() *object { return &object{tags: make([]string, 0, 4)} },
			pool.WithReset(func(o *object) *object { o.name = ""; o.tags = o.tags[:0]; return o }))
		o := p.Get()
		o.name = "first"
		p.Put(o) // L:pool-write-put
		o.name = "written after Put"
		for range 1000 {
			p.Put(p.Get())
		}
	},
	"pool-slice-write-after-put": func() {
		p := pool.New(func() []*object { return make([]*object, 0, 8) },
			pool.WithReset(func(s []*object) []*object { clear(s[:cap(s)]); return s[:0] }))
		s := append(p.Get(), &object{})
		p.Put(s) // L:pool-slice-write-put
		s = s[:1]
		s[0] = &object{name: "stale"}
		for range 1000 {
			p.Put(p.Get())
		}
	},
	"pool-double-putptr": func() {
		p := pool.New(func() []int { return make([]int, 0, 8) })
		b := p.GetPtr()
		*b = append(*b, 1)
		p.PutPtr(b) // L:pool-putptr1
		p.PutPtr(b) // L:pool-putptr2
	},
	"pool-putptr-write-after-put": func() {
		p := pool.New(func() []int { return make([]int, 0, 8) })
		b := p.GetPtr()
		s := append((*b)[:0], 1)
		*b = s
		p.PutPtr(b) // L:pool-putptr-write-put
		s[0] = 2
		for range 1000 {
			p.PutPtr(p.GetPtr())
		}
	},
	"slicepool-pointers-write-after-put": func() {
		var p slicepool.Pool[*object]
		s := append(p.Get(4), &object{})
		p.Put(s) // L:slicepool-ptr-write-put
		s[0] = &object{name: "stale"}
		for range 1000 {
			p.Put(p.Get(4))
		}
	},
	"article-gzip": func() {
		z, err := articleGzip([]byte(strings.Repeat("pooled gzip ", 100)))
		if err != nil {
			panic(err)
		}
		if z[0] != 0x1f { // L:article-gzip-use
			panic("not gzip")
		}
	},

	// Correct programs.
	"correct-copy-out": func() {
		for i := range 3000 {
			z, err := gzipCopy([]byte(strings.Repeat("abc", i%50+1)))
			if err != nil {
				panic(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(z))
			if err != nil {
				panic(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || string(got) != strings.Repeat("abc", i%50+1) {
				panic(fmt.Sprint("round trip failed: ", err))
			}
		}
	},
	"correct-write-to": func() {
		var out bytes.Buffer
		for i := range 3000 {
			b := bytebuf.Get()
			b.AppendInt(int64(i))
			b.WriteByte('\n')
			b.AppendQuote("x")
			b.B = append(b.B, strings.Repeat("y", i%300)...) // direct append, then methods
			b.WriteRune('€')
			if _, err := b.WriteTo(&out); err != nil {
				panic(err)
			}
			bytebuf.Put(b)
		}
		var sp slicepool.Pool[int]
		var pp = pool.New(func() *object { return new(object) },
			pool.WithReset(func(o *object) *object { *o = object{tags: o.tags[:0]}; return o }))
		for i := range 3000 {
			s := append(sp.Get(i%200), i)
			sp.Put(s)
			o := pp.Get()
			o.tags = append(o.tags, "t")
			pp.Put(o)
		}
	},
}

// articleGzip is the shape of a published article's pooled gzip: the
// result is the pooled buffer's Bytes, returned while a deferred Put hands
// the buffer back.
func articleGzip(data []byte) ([]byte, error) {
	buf := bytebuf.Get()
	defer bytebuf.Put(buf)
	zw := gzipWriters.Get()
	defer gzipWriters.Put(zw)
	zw.Reset(buf)
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil // the bug: buf goes back to the pool on return
}

// gzipCopy is articleGzip fixed: the result is copied out before Put.
func gzipCopy(data []byte) ([]byte, error) {
	buf := bytebuf.Get()
	defer bytebuf.Put(buf)
	zw := gzipWriters.Get()
	defer gzipWriters.Put(zw)
	zw.Reset(buf)
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

var gzipWriters = pool.New(func() *gzip.Writer { return gzip.NewWriter(nil) },
	pool.WithReset(func(zw *gzip.Writer) *gzip.Writer { zw.Reset(nil); return zw }))

func main() {
	if len(os.Args) != 2 || programs[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: misuse program")
		os.Exit(2)
	}
	programs[os.Args[1]]()
	fmt.Println("ok")
}
