// Package far holds pooled buffers grown in one place and put back in
// another, or grown through a call that returns them grown.
package far

import (
	"bytes"
	"strconv"
	"sync"
)

var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type buffer struct{ data []byte }

var datas = sync.Pool{New: func() any { return new(buffer) }}

var raws = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// acquire falls back to a fresh buffer instead of New.
func acquire() *bytes.Buffer {
	v := bufs.Get()
	if v == nil {
		return &bytes.Buffer{}
	}
	return v.(*bytes.Buffer)
}

// finish puts the buffer back with no capacity check.
func finish(b *bytes.Buffer) {
	b.Reset()
	bufs.Put(b) // want `bufs.Put keeps b whatever its size`
}

// finishChecked drops large buffers.
func finishChecked(b *bytes.Buffer) {
	if b.Cap() > 64<<10 {
		return
	}
	b.Reset()
	bufs.Put(b)
}

// fill grows b from the caller's data.
func fill(b *bytes.Buffer, in []byte) { b.Write(in) }

// Append appends the decimal form of x to dst.
func Append(dst []byte, x int) ([]byte, error) { return strconv.AppendInt(dst, int64(x), 10), nil }

// Decoder stands for a decoder with an append-style DecodeAll.
type Decoder struct{}

// DecodeAll appends the decoded src to dst.
func (Decoder) DecodeAll(src, dst []byte) ([]byte, error) { return append(dst, src...), nil }

// ---- flagged ----

// Growth here, Put in finish.
func growThenFinish(in []byte) {
	b := bufs.Get().(*bytes.Buffer)
	b.Write(in)
	finish(b)
}

// Growth through the Get wrapper with a fallback.
func viaAcquire(in []byte) {
	b := acquire()
	b.Write(in)
	finish(b)
}

// Growth through a call returning the grown slice.
func appendCall(x int) error {
	buf := datas.Get().(*buffer)
	var err error
	buf.data, err = Append(buf.data[:0], x)
	datas.Put(buf) // want `datas.Put keeps buf whatever its size`
	return err
}

// Growth through a decoder appending into the pooled slice.
func decodeAll(dec Decoder, src []byte) error {
	bp := raws.Get().(*[]byte)
	out, err := dec.DecodeAll(src, (*bp)[:0])
	*bp, err = dec.DecodeAll(src, out[:0])
	raws.Put(bp) // want `raws.Put keeps bp whatever its size`
	return err
}

// Growth in a helper, Put here.
func growInHelper(in []byte) {
	b := bufs.Get().(*bytes.Buffer)
	b.Reset()
	fill(b, in)
	bufs.Put(b) // want `bufs.Put keeps b whatever its size`
}

// ---- quiet ----

// The Put in the callee checks the capacity.
func finishGuarded(in []byte) {
	b := bufs.Get().(*bytes.Buffer)
	b.Write(in)
	finishChecked(b)
}

// The call does not grow the pooled slice from caller data.
func appendConst() {
	buf := datas.Get().(*buffer)
	buf.data, _ = Append(buf.data[:0], 42)
	datas.Put(buf)
}

// A guarded Put after a helper's growth.
func growInHelperChecked(in []byte) {
	b := bufs.Get().(*bytes.Buffer)
	b.Reset()
	fill(b, in)
	if b.Cap() <= 64<<10 {
		bufs.Put(b)
	}
}

// The helper grows b, but from a constant, not from the caller's data.
func growInHelperConst() {
	b := bufs.Get().(*bytes.Buffer)
	b.Reset()
	fill(b, []byte("constant"))
	bufs.Put(b)
}

// A grown copy written back through the pooled pointer.
func decodeCopy(dec Decoder, src []byte) error {
	bp := raws.Get().(*[]byte)
	out, err := dec.DecodeAll(src, (*bp)[:0])
	*bp = out
	raws.Put(bp) // want `raws.Put keeps bp whatever its size \(got on line 133, grown from input on line 134 by dec.DecodeAll of caller data\)`
	return err
}

// The grown copy is not written back: the pool keeps the old slice.
func decodeNoWriteBack(dec Decoder, src []byte) ([]byte, error) {
	bp := raws.Get().(*[]byte)
	out, err := dec.DecodeAll(src, (*bp)[:0])
	res := append([]byte(nil), out...)
	raws.Put(bp)
	return res, err
}

// A copy of the pooled header grown by a call and put back by address.
func derefCopy(dec Decoder, src []byte) ([]byte, error) {
	buffer := *raws.Get().(*[]byte)
	defer func() {
		buffer = buffer[:0]
		raws.Put(&buffer) // want `raws.Put keeps &buffer whatever its size`
	}()
	buffer, err := dec.DecodeAll(src, buffer)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), buffer...), nil
}

// The same, with the capacity checked before the Put.
func derefCopyChecked(dec Decoder, src []byte) ([]byte, error) {
	buffer := *raws.Get().(*[]byte)
	defer func() {
		if cap(buffer) <= 64<<10 {
			buffer = buffer[:0]
			raws.Put(&buffer)
		}
	}()
	buffer, err := dec.DecodeAll(src, buffer)
	return append([]byte(nil), buffer...), err
}
