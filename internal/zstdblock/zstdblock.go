// Package zstdblock writes a whole input of up to 128 KiB as one zstd
// frame of one block, cheaply, or a stream as a frame of such blocks: the
// encoder behind HTTP bodies at zstd's fastest level.
//
// The format is Zstandard, RFC 8878. A frame is single-segment (no window
// descriptor: the window is the content size, which the header declares)
// and holds one block: RLE when every byte is the same, compressed when
// that is smaller, otherwise raw. AppendFrameChecksum adds a content
// checksum (XXH64, written from its specification); AppendFrame writes
// none. The block is made for inputs of a few KiB:
//
//   - a greedy matcher taking two positions a step: the last offset tried
//     two bytes ahead, then the candidates a hash of the next 6 bytes
//     finds for both, checked against the 4 bytes the table keeps; matches
//     of at least 4 bytes, extended backwards; a step that grows over
//     incompressible stretches; offsets equal to one of the three the
//     decoder repeats coded as repeats;
//   - literals in a Huffman code limited to 11 bits (one stream up to 1023
//     literals, four above), its weights FSE-coded, or written 4 bits
//     each when that is shorter; raw or RLE literals when a code would
//     not pay;
//   - sequences coded with FSE tables built from their codes' counts, or
//     the predefined ones when those cost less with the description.
//
// The bytes of a frame depend only on its input: an Encoder builds its
// Huffman code and sequence tables for each block from that block alone,
// and its match table ignores every entry written for another frame. So
// nothing one frame held (no symbol, count, table, offset or byte) can
// show through the next one an Encoder writes, for whoever reads it: the
// same input gives the same frame from a new Encoder and from one that
// coded anything before.
//
// github.com/klauspost/compress/zstd at SpeedFastest finds matches much
// the same way and, like this package, builds its entropy tables for
// every block. Under callgrind, on the service benchmark's 5 KB receipts
// this package spends 0.95x its instructions (262k against 275k) for
// 1600 bytes against 1619, and on gzpool's 3.2 KB JSON body 0.93x (141k
// against 152k) for the same 536 bytes (BenchmarkReceiptZstdBlock and
// BenchmarkGzpoolBodyZstd in benchmarks/service; about 38k of those
// instructions build the Huffman code and sequence tables).
//
// A Stream writes a longer or flushed input as one frame of such blocks,
// their matches reaching back into the last 64 to 128 KiB of input before
// the block (a window of 256 KiB), the decoder's repeated offsets carried
// from block to block as RFC 8878 prescribes; each block describes its
// own entropy tables. Behind httpcompress, on gzpool's JSON body of just
// over 128 KiB (two blocks), it spends 0.90x the instructions of
// klauspost's stream encoder at SpeedFastest (3.56M against 3.98M a
// response, under callgrind) for 14725 bytes against 14810, and
// allocates nothing where klauspost's allocates once (BenchmarkHandler,
// body=128KiB, ae=browser, impl=httpcompress, in benchmarks/gzpool). 200
// short events flushed one by one come to 3461 bytes, as with klauspost's
// (TestStreamEventsAcrossBlocks).
package zstdblock

import (
	"encoding/binary"
	"slices"

	"github.com/poolkit/poolkit/pool"
)

// MaxInput is the largest input AppendFrame takes: one block, RFC 8878's
// Block_Maximum_Size.
const MaxInput = 128 << 10

// magic starts every zstd frame (RFC 8878, section 3.1.1).
const magic = 0xFD2FB528

// Block types (RFC 8878, section 3.1.1.2).
const (
	blockRaw        = 0
	blockRLE        = 1
	blockCompressed = 2
)

// Encoder holds the tables and buffers of one frame's encoding: 64 KiB
// of match table, about 10 KiB of entropy tables, and buffers that grow
// with the largest block met: its literals (MaxInput and 16 bytes), its
// sequences (16 bytes each, up to one per 4 bytes of input, so up to
// about 5 times MaxInput with append's slack; about MaxInput on JSON) and
// its output (up to 3 times MaxInput). What it keeps from one frame to
// the next shapes nothing of the next frame (see the package
// documentation). Its zero value is ready. An Encoder is used by one
// goroutine at a time.
type Encoder struct {
	m    matcher
	lits []byte // the block's literals, in order
	seqs []sequence
	h    huffman
	sc   seqCoder
	out  []byte // the block's content, built before its header is known
}

// encoders holds pointers, so Get and Put allocate nothing.
var encoders pool.Pool[*Encoder]

// AppendFrame appends to dst one zstd frame holding src, which must be at
// most MaxInput bytes long (it panics otherwise: callers choose this
// encoder by size), and returns the extended slice. It writes nothing in
// dst's spare capacity past the returned length, and dst may overlap src:
// src is read in full before dst is written. It uses a pooled Encoder.
func AppendFrame(dst, src []byte) []byte {
	return appendPooled(dst, src, false)
}

// AppendFrameChecksum is AppendFrame with a content checksum after the
// block (XXH64, as RFC 8878 prescribes), which decoders verify.
func AppendFrameChecksum(dst, src []byte) []byte {
	return appendPooled(dst, src, true)
}

func appendPooled(dst, src []byte, checksum bool) []byte {
	e := encoders.Get()
	if e == nil {
		e = new(Encoder)
	}
	dst = e.appendFrame(dst, src, checksum)
	encoders.Put(e)
	return dst
}

// AppendFrame is the package's AppendFrame with e's tables and buffers.
func (e *Encoder) AppendFrame(dst, src []byte) []byte {
	return e.appendFrame(dst, src, false)
}

// AppendFrameChecksum is the package's AppendFrameChecksum with e's
// tables and buffers.
func (e *Encoder) AppendFrameChecksum(dst, src []byte) []byte {
	return e.appendFrame(dst, src, true)
}

func (e *Encoder) appendFrame(dst, src []byte, checksum bool) []byte {
	n := len(src)
	if n > MaxInput {
		panic("zstdblock: input above MaxInput")
	}
	var sum uint32
	var flags byte
	if checksum {
		sum = uint32(xxh64(src)) // before dst, which may overlap src, is written
		flags = 1 << 2           // Content_Checksum_flag
	}
	rep := initialRep
	btype, content := e.encodeBlock(src, 0, 0, &rep)
	// Frame header (RFC 8878, section 3.1.1.1): magic, descriptor,
	// then the content size in the smallest field that holds it.
	var hdr [18]byte
	binary.LittleEndian.PutUint32(hdr[0:], magic)
	const singleSegment = 1 << 5
	h := 5
	switch {
	case n < 256:
		hdr[4] = singleSegment | flags
		hdr[5] = byte(n)
		h = 6
	case n < 256+1<<16:
		hdr[4] = 1<<6 | singleSegment | flags
		binary.LittleEndian.PutUint16(hdr[5:], uint16(n-256))
		h = 7
	default:
		hdr[4] = 2<<6 | singleSegment | flags
		binary.LittleEndian.PutUint32(hdr[5:], uint32(n))
		h = 9
	}
	// Block header (section 3.1.1.2): last block, type, size. An RLE
	// block's size is its regenerated size.
	size := len(content)
	if btype == blockRLE {
		size = n
	}
	bh := uint32(1) | uint32(btype)<<1 | uint32(size)<<3
	hdr[h], hdr[h+1], hdr[h+2] = byte(bh), byte(bh>>8), byte(bh>>16)
	h += 3
	dst = append(dst, hdr[:h]...)
	dst = append(dst, content...)
	if checksum {
		dst = binary.LittleEndian.AppendUint32(dst, sum)
	}
	return dst
}

// initialRep is the decoder's repeated offsets at the start of a frame
// (RFC 8878, section 3.1.1.5).
var initialRep = [3]int{1, 4, 8}

// encodeBlock returns the type and content of the block holding
// hist[start:], the content in e.out after prefix bytes left for the
// caller's headers: a copy, for a raw block, so that dst may overlap the
// input. Matches reach back into hist[:start], the frame's input before
// the block, which went through encodeBlock before. rep holds the
// repeated offsets the decoder has at the block's start, which a frame's
// earlier compressed blocks leave it; a compressed block updates rep to
// the decoder's offsets at its end, and a raw or RLE block, which the
// decoder reads without sequences, leaves rep.
func (e *Encoder) encodeBlock(hist []byte, start, prefix int, rep *[3]int) (btype int, content []byte) {
	src := hist[start:]
	n := len(src)
	e.out = slices.Grow(e.out[:0], prefix)[:prefix]
	if n >= 8 && allSame(src) {
		e.m.skip(n, len(hist))
		e.out = append(e.out, src[0])
		return blockRLE, e.out[prefix:]
	}
	if n < minCompress {
		e.m.skip(n, len(hist))
		e.out = append(e.out, src...)
		return blockRaw, e.out[prefix:]
	}
	var end [3]int
	e.lits, e.seqs, end = e.m.parse(hist, start, e.lits[:0], e.seqs[:0], *rep)
	// The literals section is at most its raw form (3 bytes of header);
	// the sequences section at most 4 bytes of header plus, per
	// sequence, 3 states and 3 values of extra bits, under 12 bytes.
	// Each sequence's match takes at least minMatch bytes of src, so
	// need stays within maxBlockOut, which bounds the buffer's growth.
	need := prefix + len(e.lits) + 3 + 4 + 12*len(e.seqs) + 16
	if cap(e.out) < need {
		e.out = make([]byte, prefix, max(need, min(2*cap(e.out), maxBlockOut)))
	}
	out := e.h.appendLiterals(e.out[:prefix], e.lits)
	out = e.sc.appendSequences(out, e.seqs)
	if len(out)-prefix >= n {
		e.out = append(out[:prefix], src...)
		return blockRaw, e.out[prefix:]
	}
	e.out = out
	*rep = end
	return blockCompressed, out[prefix:]
}

// maxBlockOut is the most a block's content needs of Encoder.out, headers
// before it included: with n bytes of input, literals and 4 bytes a
// sequence sum to at most n, and each sequence takes at most 12 bytes of
// output, so the content takes at most 3n bytes and the sections'
// headers.
const maxBlockOut = streamHeaderSize + 3*MaxInput + 3 + 4 + 16

// minCompress is the smallest input worth a compressed block: below it,
// the literal and sequence headers eat what matches could save.
const minCompress = 16

// allSame reports whether every byte of b equals the first.
func allSame(b []byte) bool {
	c := b[0]
	for _, x := range b[1:] {
		if x != c {
			return false
		}
	}
	return true
}
