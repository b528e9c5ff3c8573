package getnoput

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var kit = pool.New(func() *bytes.Buffer { return new(bytes.Buffer) })

var ints slicepool.Pool[int]

var bb bytebuf.Pool

var errEmpty = errors.New("empty")

func getBuf() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func putBuf(b *bytes.Buffer) { bufPool.Put(b) }

// ---- flagged ----

func encode(w io.Writer, v any) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	if err := json.NewEncoder(b).Encode(v); err != nil {
		return err // want `^b from bufPool \(Get on line 34\) is not put back on this return path \(lost reuse, not a leak\)$`
	}
	_, err := w.Write(b.Bytes())
	bufPool.Put(b)
	return err
}

func earlyReturn(s string) (int, error) {
	b := bufPool.Get().(*bytes.Buffer)
	if s == "" {
		return 0, errEmpty // want `b from bufPool \(Get on line 45\) is not put back on this return path`
	}
	b.Reset()
	b.WriteString(s)
	n := b.Len()
	bufPool.Put(b)
	return n, nil
}

func fallsOff(w io.Writer, kind int) {
	b := kit.Get()
	b.Reset()
	switch kind {
	case 0:
		b.WriteString("zero")
		kit.Put(b)
	case 1:
		b.WriteString("one")
		kit.Put(b)
	}
} // want `b from kit \(Get on line 57\) is not put back when the function ends`

func sliceErr(xs []int) (int, error) {
	s := ints.Get(len(xs))
	for _, x := range xs {
		if x < 0 {
			return 0, fmt.Errorf("negative %d", x) // want `s from ints`
		}
		s = append(s, x*2)
	}
	n := len(s)
	ints.Put(s)
	return n, nil
}

func bytebufErr(w io.Writer, s string) error {
	b := bb.Get()
	b.WriteString(s)
	if _, err := w.Write(b.Bytes()); err != nil {
		return err // want `b from bb`
	}
	bb.Put(b)
	return nil
}

func viaWrappers(s string) error {
	b := getBuf()
	b.Reset()
	if s == "" {
		return errEmpty // want `b from bufPool`
	}
	b.WriteString(s)
	putBuf(b)
	return nil
}

func switchDrop(kind int, w io.Writer) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	switch kind {
	case 0:
		b.WriteString("zero")
	case 1:
		b.WriteString("one")
	default:
		return errors.New("bad kind") // want `b from bufPool`
	}
	_, err := w.Write(b.Bytes())
	bufPool.Put(b)
	return err
}

func twoReturns(a, c bool) int {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	if a {
		return 1 // want `b from bufPool`
	}
	if c {
		return 2 // want `b from bufPool`
	}
	bufPool.Put(b)
	return 0
}

func loopBreak(items []string, w io.Writer) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	for _, it := range items {
		if it == "" {
			return errEmpty // want `b from bufPool`
		}
		b.WriteString(it)
	}
	w.Write(b.Bytes())
	bufPool.Put(b)
	return nil
}

// ---- clean ----

func deferred(w io.Writer, v any) error {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	if err := json.NewEncoder(b).Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func putOnEveryPath(w io.Writer, v any) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	if err := json.NewEncoder(b).Encode(v); err != nil {
		bufPool.Put(b)
		return err
	}
	_, err := w.Write(b.Bytes())
	bufPool.Put(b)
	return err
}

// A capacity guard drops large buffers on purpose.
func capGuard(w io.Writer, s string) {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	w.Write(b.Bytes())
	if b.Cap() > 64<<10 {
		return
	}
	bufPool.Put(b)
}

// Returned to the caller, who owns it now.
func handOut(s string, keep bool) *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	if keep {
		return b
	}
	bufPool.Put(b)
	return nil
}

// Handed to another function, which may put it back.
func release(b *bytes.Buffer) { bufPool.Put(b) }

func handedOn(s string) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	if s == "" {
		release(b)
		return errEmpty
	}
	b.WriteString(s)
	bufPool.Put(b)
	return nil
}

// Panicking and fatal paths are not return paths.
func panics(s string) {
	b := bufPool.Get().(*bytes.Buffer)
	if s == "" {
		panic("empty")
	}
	if s == "fatal" {
		log.Fatal("fatal")
	}
	b.Reset()
	b.WriteString(s)
	bufPool.Put(b)
}

// Never put in this function: not our business (it may be released elsewhere).
func neverPut(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	return s
}

// Slice grown with append and put back on every path.
func sliceOK(xs []int) int {
	s := ints.Get(len(xs))
	for _, x := range xs {
		s = append(s, x)
	}
	n := len(s)
	ints.Put(s)
	return n
}

// A closure refers to the value: not followed.
func closure(s string) error {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	write := func() { b.WriteString(s) }
	write()
	if s == "" {
		return errEmpty
	}
	bufPool.Put(b)
	return nil
}

// Stored in a struct that carries it on.
type holder struct{ b *bytes.Buffer }

func stored(s string) *holder {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	if s != "" {
		return &holder{b: b}
	}
	bufPool.Put(b)
	return nil
}

// A method that releases the value.
type conn struct{ buf *bytes.Buffer }

var connPool = sync.Pool{New: func() any { return new(conn) }}

func (c *conn) Close() { connPool.Put(c) }

func methodRelease(fail bool) error {
	c := connPool.Get().(*conn)
	if fail {
		c.Close()
		return errEmpty
	}
	connPool.Put(c)
	return nil
}

// Put only when the work succeeded: a failed value is dropped on purpose.
func conditionalPut(w io.Writer, s string) bool {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	_, err := w.Write(b.Bytes())
	ok := err == nil
	if ok {
		bufPool.Put(b)
	}
	return ok
}

// Comma-ok: when the assertion fails there is nothing to put back.
func commaOK(s string) error {
	b, ok := bufPool.Get().(*bytes.Buffer)
	if !ok {
		return errEmpty
	}
	b.Reset()
	b.WriteString(s)
	bufPool.Put(b)
	return nil
}
