package zstdpool

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"testing"

	"github.com/poolkit/poolkit/internal/check"
	"github.com/poolkit/poolkit/internal/race"
)

// countAllocs tells whether allocated's figures are the code's own: the
// race detector and checked mode allocate for their bookkeeping.
const countAllocs = !race.Enabled && !check.Enabled

// compressedBlock appends a compressed block of content to b.
func compressedBlock(b, content []byte, last bool) []byte {
	h := uint32(len(content))<<3 | blockCompressed<<1
	if last {
		h |= 1
	}
	return append(append(b, byte(h), byte(h>>8), byte(h>>16)), content...)
}

// rawBlock appends a raw block of content to b.
func rawBlock(b, content []byte, last bool) []byte {
	h := uint32(len(content))<<3 | blockRaw<<1
	if last {
		h |= 1
	}
	return append(append(b, byte(h), byte(h>>8), byte(h>>16)), content...)
}

// rleLiterals is a compressed block's content that decodes to n copies of
// c (n below 1<<20): RLE literals, no sequences.
func rleLiterals(n int, c byte) []byte {
	v := uint32(litRLE) | 3<<2 | uint32(n)<<4
	return []byte{byte(v), byte(v >> 8), byte(v >> 16), c, 0}
}

const litRLE = 1

// TestDeclaredSizeBacked checks frames whose declared content size their
// blocks cannot hold (a compressed block decodes to at most 128 KiB, a
// raw or RLE block to its own size): with no limit, AppendDecompress
// must refuse them as corrupt, allocating nothing near the declared size,
// never panic or run out of memory; frames whose blocks back their size
// still decode.
func TestDeclaredSizeBacked(t *testing.T) {
	issue, _ := hex.DecodeString("28b52ffdc0500000000000000040010000") // 2^62 bytes, one empty raw block
	huge := func(fcs uint64) []byte {
		return rawBlock(frameWith(false, 0x50, 3, fcs, false), nil, true)
	}
	for _, tc := range []struct {
		name string
		z    []byte
		want error // nil: decodes, to what klauspost's decoder reads
	}{
		{"2^62 declared, one empty block", issue, ErrCorrupt},
		{"2^46 declared, one empty block", huge(1 << 46), ErrCorrupt},
		{"2^63-1 declared, one empty block", huge(math.MaxInt64), ErrCorrupt},
		{"2^64-2 declared", huge(math.MaxUint64 - 1), ErrCorrupt},
		{"1 GiB declared, two compressed blocks", compressedBlock(compressedBlock(frameWith(false, 0x50, 2, 1<<30, false),
			rleLiterals(1000, 'a'), false), rleLiterals(1000, 'b'), true), ErrCorrupt},
		{"256 KiB + 1 declared, two compressed blocks", compressedBlock(compressedBlock(frameWith(false, 0x50, 2, 256<<10+1, false),
			rleLiterals(128<<10, 'a'), false), rleLiterals(128<<10, 'b'), true), ErrCorrupt},
		{"10 declared, a raw block of 20", rawBlock(frameWith(true, 0, 0, 10, false), make([]byte, 20), true), ErrCorrupt},
		{"256 KiB declared, two compressed blocks", compressedBlock(compressedBlock(frameWith(false, 0x50, 2, 256<<10, false),
			rleLiterals(128<<10, 'a'), false), rleLiterals(128<<10, 'b'), true), nil},
		{"1 MiB declared, RLE blocks", func() []byte {
			b := frameWith(false, 0x50, 2, 1<<20, false)
			for i := range 8 {
				b = rleBlock(b, 128<<10, 'x', i == 7)
			}
			return b
		}(), nil},
	} {
		for _, limit := range []int64{-1, math.MaxInt64, 1 << 30} {
			var out []byte
			var err error
			grew := allocated(func() { out, err = AppendDecompress([]byte("pfx"), tc.z, limit) })
			if tc.want != nil {
				if !errors.Is(err, tc.want) && !(limit < 1<<40 && limit >= 0 && errors.Is(err, ErrLimit)) {
					t.Errorf("%s, limit %d: %v, want %v", tc.name, limit, err, tc.want)
				}
				if string(out) != "pfx" {
					t.Errorf("%s, limit %d: dst changed to %d bytes on error", tc.name, limit, len(out))
				}
			} else if want := oracle(t, tc.z); err != nil || !bytes.Equal(out[3:], want) {
				t.Errorf("%s, limit %d: %v, %d bytes; klauspost reads %d", tc.name, limit, err, len(out)-3, len(want))
			}
			if countAllocs && grew > 4<<20 {
				t.Errorf("%s, limit %d: allocated %d bytes", tc.name, limit, grew)
			}
		}
	}
}

// FuzzDeclaredSize builds a frame from a fuzzed header (content size,
// field width, single segment, window) and blocks of fuzzed types, sizes
// and contents, and decodes it with no limit: AppendDecompress must not
// panic, must allocate at most what the blocks can hold (128 KiB a
// compressed block, the size of a raw or RLE one), and a little more, or
// a window of at most MaxWindow for a frame that declares no size,
// whatever the header declares, and what it reads must be what
// klauspost's decoder reads.
func FuzzDeclaredSize(f *testing.F) {
	f.Add(uint64(1<<62), byte(3), false, byte(0x50), []byte{0, 0, 0})
	f.Add(uint64(1<<46), byte(3), true, byte(0), []byte{1, 200, 0, 'x'})
	f.Add(uint64(5000), byte(1), true, byte(0), []byte{2, 5, 0, 0x1d, 0x38, 0x4e, 'z', 0})
	f.Add(uint64(3), byte(0), true, byte(0), []byte{0, 3, 0, 'a', 'b', 'c'})
	f.Fuzz(func(t *testing.T, fcs uint64, fcsFlag byte, single bool, wd byte, blocks []byte) {
		fcsFlag &= 3
		z := frameWith(single, wd, fcsFlag, fcs, false)
		// blocks: per block, a type (low 2 bits; bit 7 ends the
		// frame), a 16-bit size, then that many bytes (1 for RLE).
		backed := uint64(0)
		for len(blocks) >= 3 {
			typ, size := blocks[0]&3, uint32(binary.LittleEndian.Uint16(blocks[1:]))
			last := blocks[0]&0x80 != 0 || len(blocks) < 6
			blocks = blocks[3:]
			in := int(size)
			switch typ {
			case blockRLE:
				in = 1
			case blockCompressed:
				backed += 128 << 10
			}
			backed += uint64(size)
			in = min(in, len(blocks))
			h := size<<3 | uint32(typ)<<1
			if last {
				h |= 1
			}
			z = append(append(z, byte(h), byte(h>>8), byte(h>>16)), blocks[:in]...)
			blocks = blocks[in:]
			if last {
				break
			}
		}
		var out []byte
		var err error
		grew := allocated(func() { out, err = AppendDecompress(nil, z, -1) })
		if fcsFlag == 0 && !single {
			// No content size: a stream decoder, which holds a
			// window of at most MaxWindow, decodes it.
			backed += MaxWindow + 2*maxBlockSize
		}
		if countAllocs && grew > backed+4<<20 {
			t.Fatalf("allocated %d bytes for a frame whose blocks hold at most %d (declared %d): %v", grew, backed, fcs, err)
		}
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrLimit) && !errors.Is(err, ErrWindow) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if want, kerr := klauspostDecode(z); kerr == nil && !bytes.Equal(out, want) {
			t.Fatalf("read %d bytes; klauspost's decoder reads %d", len(out), len(want))
		}
	})
}
