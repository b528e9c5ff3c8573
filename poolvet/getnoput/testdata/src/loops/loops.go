// Package loops holds pooled values dropped by a continue or break, and
// pools never put back into at all.
package loops

import (
	"bytes"
	"crypto/sha256"
	"hash"
	"io"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// ---- flagged ----

// An empty item skips the Put for that iteration.
func writeAll(w io.Writer, items []string) {
	for _, it := range items {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		if it == "" {
			continue // want `^b from bufPool \(Get on line 20\) is not put back before this continue, which leaves the loop iteration holding it \(lost reuse, not a leak\)$`
		}
		b.WriteString(it)
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// A write error ends the loop with the buffer dropped.
func copyAll(w io.Writer, items []string) error {
	var err error
	for i := 0; i < len(items); i++ {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		b.WriteString(items[i])
		if _, err = w.Write(b.Bytes()); err != nil {
			break // want `b from bufPool \(Get on line 35\) is not put back before this break`
		}
		bufPool.Put(b)
	}
	return err
}

// A labeled continue of the outer loop.
func nested(w io.Writer, rows [][]string) {
outer:
	for _, row := range rows {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		for _, cell := range row {
			if cell == "" {
				continue outer // want `b from bufPool \(Get on line 50\) is not put back before this continue`
			}
			b.WriteString(cell)
		}
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// A continue in a switch case.
func kinds(w io.Writer, kinds []int) {
	for _, k := range kinds {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		switch k {
		case 0:
			continue // want `b from bufPool \(Get on line 66\) is not put back before this continue`
		case 1:
			b.WriteString("one")
		}
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// A worker loop that never ends: the continue path loops back to the Get.
func worker(w io.Writer, in <-chan string) {
	for {
		msg, ok := <-in
		if !ok {
			return
		}
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		if msg == "" {
			continue // want `b from bufPool \(Get on line 86\) is not put back before this continue`
		}
		b.WriteString(msg)
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// A pool of hashes no code puts back into: every Get runs New.
var hashPool = sync.Pool{New: func() any { return sha256.New() }}

func sum(p []byte) []byte {
	h := hashPool.Get().(hash.Hash) // want `^nothing in this package puts back into hashPool \(every Get allocates through New\)$`
	h.Reset()
	h.Write(p)
	return h.Sum(nil)
}

type hasher struct {
	pool sync.Pool
}

func (hs *hasher) sum(p []byte) []byte {
	h := hs.pool.Get().(hash.Hash) // want `nothing in this package puts back into hs.pool`
	h.Reset()
	h.Write(p)
	return h.Sum(nil)
}

// ---- clean ----

// Put before the continue.
func putThenContinue(w io.Writer, items []string) {
	for _, it := range items {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		if it == "" {
			bufPool.Put(b)
			continue
		}
		b.WriteString(it)
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// The continue comes before the Get.
func continueFirst(w io.Writer, items []string) {
	for _, it := range items {
		if it == "" {
			continue
		}
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		b.WriteString(it)
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// A break of an inner loop does not leave the iteration holding b.
func innerBreak(w io.Writer, rows [][]string) {
	for _, row := range rows {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		for _, cell := range row {
			if cell == "" {
				break
			}
			b.WriteString(cell)
		}
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// A break out of a switch does not leave the loop.
func switchBreak(w io.Writer, kinds []int) {
	for _, k := range kinds {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		switch k {
		case 0:
			break
		default:
			b.WriteString("x")
		}
		w.Write(b.Bytes())
		bufPool.Put(b)
	}
}

// A capacity guard drops a large buffer on purpose.
func capGuard(w io.Writer, items []string) {
	for _, it := range items {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		b.WriteString(it)
		w.Write(b.Bytes())
		if b.Cap() > 64<<10 {
			continue
		}
		bufPool.Put(b)
	}
}

// Hand-off: the slice of buffers owns them now.
func collect(items []string) []*bytes.Buffer {
	var out []*bytes.Buffer
	for _, it := range items {
		b := bufPool.Get().(*bytes.Buffer)
		b.Reset()
		if it == "" {
			bufPool.Put(b)
			continue
		}
		b.WriteString(it)
		out = append(out, b)
	}
	return out
}

// A hash pool put back into.
var goodHashes = sync.Pool{New: func() any { return sha256.New() }}

func goodSum(p []byte) []byte {
	h := goodHashes.Get().(hash.Hash)
	h.Reset()
	h.Write(p)
	out := h.Sum(nil)
	goodHashes.Put(h)
	return out
}

// An exported pool: another package may put back into it (here, the
// caller that gets the hash).
var Exported = sync.Pool{New: func() any { return sha256.New() }}

func ExportedHash() hash.Hash {
	h := Exported.Get().(hash.Hash)
	h.Reset()
	return h
}

// The pool is handed to a helper that puts back.
var helped = sync.Pool{New: func() any { return sha256.New() }}

func release(p *sync.Pool, h hash.Hash) { p.Put(h) }

func helpedSum(b []byte) []byte {
	h := helped.Get().(hash.Hash)
	h.Write(b)
	out := h.Sum(nil)
	release(&helped, h)
	return out
}

// A pool field set up in a literal, never put back into.
type digester struct {
	hashes sync.Pool
}

var dg = &digester{hashes: sync.Pool{New: func() any { return sha256.New() }}}

func digest(p []byte) []byte {
	h := dg.hashes.Get().(hash.Hash) // want `nothing in this package puts back into dg.hashes`
	h.Write(p)
	return h.Sum(nil)
}

// A hash pool put back into by one function and forgotten by another.
var hashes = sync.Pool{New: func() any { return sha256.New() }}

func sumRight(p []byte) []byte {
	h := hashes.Get().(hash.Hash)
	h.Reset()
	h.Write(p)
	out := h.Sum(nil)
	hashes.Put(h)
	return out
}

func sumForgot(p []byte) []byte {
	h := hashes.Get().(hash.Hash) // want `^h from hashes \(Get on line 272\) is never put back \(lost reuse, not a leak\)$`
	h.Reset()
	h.Write(p)
	return h.Sum(nil)
}

// Handed to the caller: not ours to put.
func hashFor() hash.Hash {
	h := hashes.Get().(hash.Hash)
	h.Reset()
	return h
}

// Stored: the holder puts it back later.
type session struct{ h hash.Hash }

func (s *session) start() {
	h := hashes.Get().(hash.Hash)
	h.Reset()
	s.h = h
}
