package zstdpool

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Framing constants of RFC 8878.
const (
	frameMagic      = 0xFD2FB528
	skippableMagic  = 0x184D2A50 // to 0x184D2A5F
	skippableMask   = 0xFFFFFFF0
	maxBlockSize    = 128 << 10 // Block_Maximum_Size's ceiling
	blockHeaderSize = 3
	checksumSize    = 4
	minWindow       = 1 << 10
	blockRaw        = 0
	blockRLE        = 1
	blockCompressed = 2
	fcsUnknown      = math.MaxUint64
)

// frameInfo is what the header of one frame declares.
type frameInfo struct {
	headerLen   int
	window      uint64 // the declared window; the content size in a single segment
	contentSize uint64 // fcsUnknown when not declared
	checksum    bool
	skippable   bool
	skipLen     uint32 // a skippable frame's user data length
}

// parseFrameHeader reads the header of the frame src starts with. It
// returns errShort when src ends inside the header. Frames that need a
// dictionary are refused: this package registers none.
func parseFrameHeader(src []byte) (frameInfo, error) {
	var f frameInfo
	if len(src) < 4 {
		return f, errShort
	}
	magic := binary.LittleEndian.Uint32(src)
	if magic&skippableMask == skippableMagic {
		if len(src) < 8 {
			return f, errShort
		}
		f.skippable = true
		f.headerLen = 8
		f.skipLen = binary.LittleEndian.Uint32(src[4:])
		return f, nil
	}
	if magic != frameMagic {
		return f, fmt.Errorf("%w: not a zstd frame (magic number %#08x)", ErrCorrupt, magic)
	}
	if len(src) < 5 {
		return f, errShort
	}
	fhd := src[4]
	fcsFlag := fhd >> 6
	single := fhd&0x20 != 0
	if fhd&0x08 != 0 {
		return f, fmt.Errorf("%w: reserved bit set in the frame header", ErrCorrupt)
	}
	f.checksum = fhd&0x04 != 0
	dictLen := [4]int{0, 1, 2, 4}[fhd&3]
	fcsLen := [4]int{0, 2, 4, 8}[fcsFlag]
	if fcsFlag == 0 && single {
		fcsLen = 1
	}
	n := 5
	if !single {
		n++
	}
	f.headerLen = n + dictLen + fcsLen
	if len(src) < f.headerLen {
		return f, errShort
	}
	if !single {
		wd := src[5]
		windowLog := 10 + uint(wd>>3)
		base := uint64(1) << windowLog
		f.window = base + base/8*uint64(wd&7)
	}
	var dictID uint32
	switch dictLen {
	case 1:
		dictID = uint32(src[n])
	case 2:
		dictID = uint32(binary.LittleEndian.Uint16(src[n:]))
	case 4:
		dictID = binary.LittleEndian.Uint32(src[n:])
	}
	if dictID != 0 {
		return f, fmt.Errorf("%w: frame needs dictionary %d, and none is registered", ErrCorrupt, dictID)
	}
	n += dictLen
	f.contentSize = fcsUnknown
	switch fcsLen {
	case 1:
		f.contentSize = uint64(src[n])
	case 2:
		f.contentSize = uint64(binary.LittleEndian.Uint16(src[n:])) + 256
	case 4:
		f.contentSize = uint64(binary.LittleEndian.Uint32(src[n:]))
	case 8:
		f.contentSize = binary.LittleEndian.Uint64(src[n:])
	}
	if single {
		f.window = f.contentSize
	}
	return f, nil
}

// headerLen returns how many bytes the frame header that head starts
// needs, which parseFrameHeader found longer than head: the magic number,
// then the descriptor, then what the descriptor announces.
func headerLen(head []byte) int {
	switch {
	case len(head) < 4:
		return 4
	case binary.LittleEndian.Uint32(head)&skippableMask == skippableMagic:
		return 8
	case len(head) < 5:
		return 5
	}
	fhd := head[4]
	n := 5 + [4]int{0, 1, 2, 4}[fhd&3] + [4]int{0, 2, 4, 8}[fhd>>6]
	if fhd&0x20 == 0 {
		n++ // the window descriptor
	} else if fhd>>6 == 0 {
		n++ // a single segment's one-byte content size
	}
	return n
}

// errShort is parseFrameHeader's report of a header cut off; callers turn
// it into ErrTruncated or wait for more input.
var errShort = fmt.Errorf("%w: the input ends inside a frame header", ErrTruncated)

// inputShape is what walkFrames learns of an input without decoding it.
type inputShape struct {
	// bound is an upper bound of the decoded size: the sum of the declared
	// content sizes, and for frames that declare none, the sizes of their
	// raw and RLE blocks and Block_Maximum_Size per compressed block.
	bound uint64
	// least is a lower bound of the decoded size of valid input: the
	// declared sizes, and the sizes of the other frames' raw and RLE
	// blocks.
	least uint64
	// exact tells whether every data frame declares its content size, so
	// that bound is the decoded size of valid input.
	exact bool
	// streamWindow is the largest window of the frames that declare no
	// content size, which a decoder must hold.
	streamWindow uint64
	// frames counts the data frames (not the skippable ones).
	frames int
}

// walkFrames checks the framing of src, a sequence of zstd and skippable
// frames, and returns its shape, reading only frame and block headers.
// It refuses as corrupt a frame that declares a content size its blocks
// cannot hold (more than Block_Maximum_Size per compressed block and the
// sizes of its raw and RLE blocks, or less than the latter), so that a
// declared size is trusted only as far as the input backs it; with
// ErrLimit a frame whose declared content size, or the sum of whose raw
// and RLE blocks, passes what remains of limit; with ErrWindow a frame
// with no size and a window above MaxWindow. Errors for malformed framing
// wrap ErrCorrupt or ErrTruncated. It allocates nothing but an error.
func walkFrames(src []byte, limit uint64) (inputShape, error) {
	s := inputShape{exact: true}
	for len(src) > 0 {
		f, err := parseFrameHeader(src)
		if err != nil {
			if s.frames > 0 && err != errShort {
				return s, fmt.Errorf("%w: bytes after the last frame start no frame", ErrCorrupt)
			}
			return s, err
		}
		src = src[f.headerLen:]
		if f.skippable {
			if uint64(len(src)) < uint64(f.skipLen) {
				return s, fmt.Errorf("%w: the input ends inside a skippable frame", ErrTruncated)
			}
			src = src[f.skipLen:]
			continue
		}
		s.frames++
		if f.window < minWindow && f.contentSize == fcsUnknown {
			return s, fmt.Errorf("%w: window of %d bytes, below the minimum of 1 KiB", ErrCorrupt, f.window)
		}
		if f.contentSize == fcsUnknown {
			s.exact = false
			if f.window > MaxWindow {
				return s, fmt.Errorf("%w: a frame declares a window of %d bytes", ErrWindow, f.window)
			}
			s.streamWindow = max(s.streamWindow, f.window)
		}
		blockMax := min(f.window, maxBlockSize)
		if f.contentSize != fcsUnknown && f.window < minWindow {
			// A single segment smaller than the minimum window: its
			// blocks may still be that large.
			blockMax = min(max(f.contentSize, minWindow), maxBlockSize)
		}
		// frameBound bounds the frame's output from above, frameLeast
		// from below: raw and RLE blocks decode to exactly their size,
		// a compressed block to at most blockMax.
		var frameBound, frameLeast uint64
		for last := false; !last; {
			if len(src) < blockHeaderSize {
				return s, fmt.Errorf("%w: the input ends inside a block header", ErrTruncated)
			}
			h := uint32(src[0]) | uint32(src[1])<<8 | uint32(src[2])<<16
			src = src[blockHeaderSize:]
			last = h&1 != 0
			size := uint64(h >> 3)
			var in, out uint64
			switch (h >> 1) & 3 {
			case blockRaw:
				in, out = size, size
				frameLeast += size
			case blockRLE:
				in, out = 1, size
				frameLeast += size
			case blockCompressed:
				in, out = size, blockMax
			default:
				return s, fmt.Errorf("%w: reserved block type", ErrCorrupt)
			}
			if size > blockMax {
				return s, fmt.Errorf("%w: a block of %d bytes, above the frame's maximum of %d", ErrCorrupt, size, blockMax)
			}
			if uint64(len(src)) < in {
				return s, fmt.Errorf("%w: the input ends inside a block", ErrTruncated)
			}
			src = src[in:]
			frameBound += out
			// A declared size, which bounds frameLeast, is checked
			// against the limit after the blocks.
			if f.contentSize == fcsUnknown && frameLeast > limit-s.least {
				return s, fmt.Errorf("%w: raw and RLE blocks of more than the %d bytes left of the limit", ErrLimit, limit-s.least)
			}
			if f.contentSize == fcsUnknown && frameBound > limit-s.bound {
				// Compressed blocks may decode to less than their
				// bound: only a sum of exact sizes proves a bomb.
				frameBound = limit - s.bound + 1
			}
		}
		if f.checksum {
			if len(src) < checksumSize {
				return s, fmt.Errorf("%w: the input ends inside a frame checksum", ErrTruncated)
			}
			src = src[checksumSize:]
		}
		if f.contentSize != fcsUnknown {
			// The blocks bound what the frame can hold: a declared
			// size above that is a lie, which must not decide how
			// much memory is allocated.
			if f.contentSize > frameBound || f.contentSize < frameLeast {
				return s, fmt.Errorf("%w: a frame declares %d bytes, but its blocks hold %d to %d", ErrCorrupt, f.contentSize, frameLeast, frameBound)
			}
			if f.contentSize > limit-s.bound {
				return s, fmt.Errorf("%w: a frame declares %d bytes, more than the %d left of the limit", ErrLimit, f.contentSize, limit-s.bound)
			}
			s.bound += f.contentSize
			s.least += f.contentSize
		} else {
			s.least += frameLeast
			s.bound = min(s.bound+frameBound, limit+1)
		}
	}
	return s, nil
}
