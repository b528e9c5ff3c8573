package zstdpool

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/overlap"
	"github.com/poolkit/poolkit/pool"
)

// maxPrealloc caps the up-front growth of dst for frames that declare no
// content size, whose bound counts every compressed block at its maximum.
// Larger outputs grow as they are decoded.
const maxPrealloc = 1 << 20

// AppendDecompress appends the decompression of the zstd data src to dst
// and returns the extended slice. Concatenated frames are all read, and
// skippable frames skipped, as the zstd command does; bytes after the last
// frame that start no frame are an error.
//
// A negative limit means no limit. Otherwise AppendDecompress returns
// ErrLimit when the decompressed data would be longer than limit bytes,
// and when the frames' headers show that much (a declared content size, or
// raw and RLE blocks), it does so before decoding or allocating anything
// (see "Limits" in the package documentation). With no limit, a frame's
// declared size is still trusted only as far as its blocks back it, but
// a compressed block of 5 bytes may decode to 128 KiB: use a limit
// whenever src comes from outside.
//
// On error AppendDecompress returns dst as it was given, with ErrEmpty,
// ErrLimit, ErrWindow, or an error wrapping ErrCorrupt or ErrTruncated.
// The result is the caller's: no pool keeps any part of it. When dst has
// room for the output it allocates nothing; when it has not and the frames
// declare their sizes, it allocates once. It writes nothing in dst's spare
// capacity past the returned length, except on error, when it may have
// written anywhere in the spare capacity, as an append may.
//
// dst may overlap src (AppendDecompress(buf[:0], buf, limit) decompresses
// buf in place): the result is the same as with separate memory. When the
// spare capacity of dst overlaps src, AppendDecompress first copies src to
// a pooled scratch buffer and reads from the copy.
func AppendDecompress(dst, src []byte, limit int64) ([]byte, error) {
	if len(src) == 0 {
		return dst, ErrEmpty
	}
	ulimit := uint64(math.MaxInt64)
	if limit >= 0 {
		ulimit = uint64(limit)
	}
	shape, err := walkFrames(src, ulimit)
	if err != nil {
		return dst, err
	}
	if shape.frames == 0 {
		return dst, nil // only skippable frames
	}
	if shape.exact && shape.bound > uint64(math.MaxInt-len(dst)) {
		return dst, fmt.Errorf("%w: %d bytes do not fit in memory", ErrLimit, shape.bound)
	}
	var scratch *bytebuf.Buffer
	if overlap.Spare(dst, src) {
		scratch = bytebuf.Get()
		scratch.B = append(scratch.B, src...)
		src = scratch.B
	}
	var out []byte
	if shape.exact {
		out, err = decodeSized(dst, src, int(shape.bound))
	} else {
		out, err = decodeStream(dst, src, shape, ulimit)
	}
	if scratch != nil {
		bytebuf.Put(scratch) // read to the end: no reference remains
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

// decodeSized decodes src, whose frames all declare their sizes, n bytes
// in all, onto dst. It grows dst once if it lacks room, and hands the
// decoder dst with exactly n bytes of spare capacity: the decoder's fast
// copies, which may write 16 bytes past their output, then run only where
// later output overwrites them, never past the end.
func decodeSized(dst, src []byte, n int) ([]byte, error) {
	if cap(dst)-len(dst) < n {
		dst = slices.Grow(dst, n)
	}
	st := sizedDecoders.Get()
	if st == nil {
		st = newDecoderState(false)
	}
	out, err := st.dec.DecodeAll(src, dst[:len(dst):len(dst)+n])
	sizedDecoders.Put(st) // DecodeAll keeps no reference to src or dst
	if err != nil {
		return dst, classify(err, nil)
	}
	if len(out)-len(dst) != n {
		return dst, fmt.Errorf("%w: decoded %d bytes where the frames declare %d", ErrCorrupt, len(out)-len(dst), n)
	}
	return out, nil
}

// decodeStream decodes src, some of whose frames do not declare their
// sizes, onto dst through a stream decoder, stopping with ErrLimit once
// the output passes limit; it writes at most limit+1 bytes past len(dst).
func decodeStream(dst, src []byte, shape inputShape, limit uint64) ([]byte, error) {
	st := getStreamDecoder()
	st.src.Reset(src)
	st.trap.r = &st.src
	defer st.release()
	if err := st.dec.Reset(&st.trap); err != nil {
		return dst, classify(err, &st.trap)
	}
	limit = min(limit, math.MaxInt64-1)
	base := len(dst)
	if hint := min(shape.bound, limit, maxPrealloc); uint64(cap(dst)-len(dst)) < hint {
		dst = slices.Grow(dst, int(hint))
	}
	for {
		if len(dst) == cap(dst) {
			dst = growWithin(dst, base, limit)
		}
		room := dst[len(dst):cap(dst)]
		// Read at most one byte past the limit, to detect that the
		// output exceeds it.
		if left := limit + 1 - uint64(len(dst)-base); uint64(len(room)) > left {
			room = room[:left]
		}
		n, err := st.dec.Read(room)
		dst = dst[:len(dst)+n]
		if uint64(len(dst)-base) > limit {
			return dst, fmt.Errorf("%w: more than %d bytes", ErrLimit, limit)
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, classify(err, &st.trap)
		}
	}
}

// growWithin grows dst, whose output so far starts at base and is at
// most limit bytes long, by allocating exactly the new capacity: double
// the output so far, or, when the next doubling would pass the limit, up
// to limit+1 bytes of output at once. So the output is copied at most
// once more than its doublings, and no capacity is made past limit+1.
func growWithin(dst []byte, base int, limit uint64) []byte {
	have := uint64(len(dst) - base)
	grow := max(have, 512)
	if have+2*grow > limit+1 {
		grow = limit + 1 - have
	}
	out := make([]byte, len(dst), uint64(len(dst))+grow)
	copy(out, dst)
	return out
}

// errTrap passes reads through to r and keeps the last error r returned,
// so that classify can tell the caller's reader's errors from the data's.
type errTrap struct {
	r   io.Reader
	err error
}

func (t *errTrap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF {
		t.err = err
	}
	return n, err
}

// classify turns a decoder error into one of the package's errors. An
// error that the source reader returned (trapped by trap, which may be
// nil) is passed through unchanged.
func classify(err error, trap *errTrap) error {
	switch {
	case trap != nil && trap.err != nil && errors.Is(err, trap.err):
		return err
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Errorf("%w: %w", ErrTruncated, io.ErrUnexpectedEOF)
	case errors.Is(err, zstd.ErrWindowSizeExceeded), errors.Is(err, zstd.ErrDecoderSizeExceeded):
		return fmt.Errorf("%w: %w", ErrWindow, err)
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

// decoderState is a pooled zstd decoder with what it reads through. br,
// src and trap are values inside the state, so resetting them allocates
// nothing.
type decoderState struct {
	dec  *zstd.Decoder
	br   bufio.Reader // a Reader's source
	src  bytes.Reader // AppendDecompress's source
	trap errTrap
	err  error // a Reader's sticky error, io.EOF at the end
}

// newDecoderState makes a decoder that runs on its caller's goroutine.
// A stream decoder refuses windows above MaxWindow and never decodes a
// whole input at once into memory of its own; a sized one (for DecodeAll,
// whose history is the caller's dst) takes any size AppendDecompress's
// frame walk has let through.
func newDecoderState(stream bool) *decoderState {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true)}
	if stream {
		opts = append(opts, zstd.WithDecoderMaxWindow(MaxWindow), zstd.WithDecodeBuffersBelow(0))
	} else {
		opts = append(opts, zstd.WithDecoderMaxMemory(1<<63), zstd.WithDecoderMaxWindow(1<<41))
	}
	dec, err := zstd.NewReader(nil, opts...)
	if err != nil {
		panic("zstdpool: zstd refused the decoder options: " + err.Error())
	}
	return &decoderState{dec: dec}
}

// sizedDecoders and streamDecoders hold pointers, so Get and Put allocate
// nothing.
var sizedDecoders, streamDecoders pool.Pool[*decoderState]

// getStreamDecoder returns a stream decoder state. It belongs to the
// caller until release.
func getStreamDecoder() *decoderState {
	if st := streamDecoders.Get(); st != nil {
		return st
	}
	return newDecoderState(true)
}

// release drops st's references to the caller's data and returns st to
// the pool. What it keeps is bounded: a history of at most MaxWindow plus
// two blocks, as the decoder refuses larger windows.
func (st *decoderState) release() {
	_ = st.dec.Reset(nil) // drops the decoder's reference to the source
	st.src.Reset(nil)
	st.br.Reset(nil)
	st.trap = errTrap{}
	st.err = nil
	streamDecoders.Put(st)
}
