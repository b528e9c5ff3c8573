package zstdblock

import (
	"encoding/binary"
	"errors"
	"io"
)

// StreamWindow is the window a Stream's frame declares: what a decoder
// must hold. A block's matches reach back at most into the history a
// Stream keeps (up to streamHistory bytes when the block starts) and the
// block itself (up to MaxInput), so never StreamWindow bytes back.
const StreamWindow = 256 << 10

// streamHistory is the most input before a block that a Stream keeps for
// the block's matches to reach into; when more has gone out, a Stream
// keeps the last historyKept bytes. Sliding the history costs a copy of
// historyKept bytes for every streamHistory-historyKept bytes of input.
const (
	streamHistory = StreamWindow - MaxInput
	historyKept   = streamHistory / 2
)

// Stream writes one zstd frame to an io.Writer as its input comes: a
// frame header without a content size (the frame is not single-segment;
// its window is StreamWindow), then blocks of at most MaxInput bytes of
// input, each coded as AppendFrame codes its one block, but with matches
// that may also reach into the input before the block, up to 64 to 128
// KiB of it, the last block marked last. It writes no content checksum.
//
// Write collects input into one block; a full block goes out when more
// input follows it. Flush sends the input collected so far as a block at
// once. Close sends the rest as the last block (an empty raw block when
// nothing is left). Each block goes to the writer in one Write call,
// preceded in the same call by the frame header when it is the first.
//
// A Stream holds an Encoder and StreamWindow (256 KiB) of input: the
// history and the block being collected; the Encoder's 64 KiB match table
// and 10 KiB of entropy tables, and its buffers for one block (see
// Encoder), at most about 1.5 MiB in all, about 730 KiB on JSON. Its zero
// value is a Stream with no writer: call Reset first. A Stream is used by
// one goroutine at a time.
type Stream struct {
	e       Encoder
	w       io.Writer
	buf     []byte // the history, then the block being collected
	hist    int    // the length of the history in buf
	rep     [3]int // the decoder's repeated offsets after the blocks sent
	started bool   // the frame header has gone out
	closed  bool
	err     error // the first error of w, returned from then on
}

// errClosed is what writing to a closed Stream returns.
var errClosed = errors.New("zstdblock: write to a closed Stream")

// Reset starts a new frame to w, dropping any input of the last one that
// was not sent. It keeps the Stream's buffers; nothing of the last frame
// shapes the new one.
func (s *Stream) Reset(w io.Writer) {
	s.w = w
	s.buf, s.hist = s.buf[:0], 0
	s.rep = initialRep
	s.started, s.closed, s.err = false, false, nil
}

// Write takes p into the frame. It returns len(p), or the first error the
// writer returned, with the count of p's bytes taken before it.
func (s *Stream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.closed {
		return 0, errClosed
	}
	n := 0
	for len(p) > 0 {
		if len(s.buf)-s.hist == MaxInput {
			// More input follows a full block: send it.
			if err := s.sendBlock(false); err != nil {
				return n, err
			}
		}
		if s.buf == nil {
			s.buf = make([]byte, 0, StreamWindow)
		}
		k := min(len(p), MaxInput-(len(s.buf)-s.hist))
		s.buf = append(s.buf, p[:k]...)
		n += k
		p = p[k:]
	}
	return n, nil
}

// Flush sends the input collected since the last block as a block, which
// is not the last, so that the reader can decode everything written so
// far. With nothing collected it sends nothing.
func (s *Stream) Flush() error {
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return errClosed
	}
	if len(s.buf) == s.hist {
		return nil
	}
	return s.sendBlock(false)
}

// Close sends the input collected as the frame's last block, and the
// frame header first if no block went out yet. Closing again does
// nothing and returns nil, or the error the first Close met.
func (s *Stream) Close() error {
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return nil
	}
	s.closed = true
	return s.sendBlock(true)
}

// streamHeaderSize is the most header bytes before a block: the frame
// header (magic, descriptor, window descriptor) and the block header.
const streamHeaderSize = 4 + 1 + 1 + 3

// sendBlock codes the input collected as one block of the frame and
// writes it, with the frame header if it is the first; the block becomes
// history.
func (s *Stream) sendBlock(last bool) error {
	src := s.buf[s.hist:]
	btype, content := s.e.encodeBlock(s.buf, s.hist, streamHeaderSize, &s.rep)
	s.hist = len(s.buf)
	if s.hist > streamHistory {
		// Keep the last historyKept bytes: a block starts with at
		// most streamHistory bytes before it, and its matches
		// reach at most StreamWindow back.
		s.buf = s.buf[:copy(s.buf, s.buf[s.hist-historyKept:])]
		s.hist = historyKept
	}
	out := s.e.out[:streamHeaderSize+len(content)]
	size := len(content)
	if btype == blockRLE {
		size = len(src)
	}
	bh := uint32(btype)<<1 | uint32(size)<<3
	if last {
		bh |= 1
	}
	start := streamHeaderSize - 3
	out[start], out[start+1], out[start+2] = byte(bh), byte(bh>>8), byte(bh>>16)
	if !s.started {
		// Frame header (RFC 8878, section 3.1.1.1): no content size,
		// not single-segment, no checksum, no dictionary; the window
		// descriptor's exponent 8 and mantissa 0 make 1<<(10+8)
		// bytes, StreamWindow.
		start = 0
		binary.LittleEndian.PutUint32(out[0:], magic)
		out[4] = 0
		out[5] = 8 << 3
		s.started = true
	}
	if _, err := s.w.Write(out[start:]); err != nil {
		s.err = err
		return err
	}
	return nil
}
