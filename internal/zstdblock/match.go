package zstdblock

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// sequence is one of a block's sequences (RFC 8878, section 3.1.1.3.2):
// literals, then a match, whose offset is coded as a value of 1 to 3 for
// a repeated offset, the distance plus 3 otherwise. Each of the three
// values is kept as its code (section 3.1.1.3.2.1.1) and its extra bits.
// extra holds the extra bits in the order they are written (the decoder
// reads them backwards, offset first): literal length's in the low bits,
// then match length's, then offset's; extraBits counts them, at most 49.
type sequence struct {
	extra                  uint64
	extraBits              uint8
	llCode, mlCode, ofCode uint8
}

// Matcher parameters.
const (
	tableBits = 13 // the hash table: 8 Ki entries, 64 KiB
	hashBytes = 6  // bytes hashed to find a candidate
	minMatch  = 4  // bytes a candidate must match
	skipLog   = 5  // after 32 bytes without a match, step 2 bytes, and so on
)

// matcher finds matches with a hash table of positions. An entry holds a
// position plus base, and the 4 bytes there; base grows by each input's
// length, so entries written for an earlier input, and empty ones, fall
// below base and are ignored: what the matcher finds depends only on the
// frame being coded. When base passes maxBase, rebase lowers it and the
// positions of the frame's entries with it.
type matcher struct {
	table [1 << tableBits]tableEntry
	base  int
}

// maxBase bounds the matcher's base, so that a position plus base, at
// most maxBase plus a stream's window, fits an entry's uint32 and an int
// of 32 bits. Rebasing costs a pass over the table every GiB or so of
// input.
const maxBase = 1 << 30

// rebase lowers m.base to its least, pos+1, m.base standing for position
// pos of the frame's input: entries for the frame's input (positions 0 and
// up) keep their place relative to base, so the next block finds the
// same matches as it would have without rebasing; the others are emptied.
func (m *matcher) rebase(pos int) {
	low := uint32(m.base - pos) // where position 0 of the frame's input is
	delta := low - 1
	for i := range m.table {
		if m.table[i].pos >= low {
			m.table[i].pos -= delta
		} else {
			m.table[i] = tableEntry{}
		}
	}
	m.base = pos + 1
}

// parse splits src[begin:] into sequences, appending the literals to
// lits and the sequences to seqs; literals after the last sequence end
// lits. src[:begin] is history: the input of the same frame just before,
// which matches may reach into; every byte of it went through parse or
// skip. rep holds the decoder's repeated offsets at src[begin]; parse
// returns them as the decoder leaves them after the sequences.
func (m *matcher) parse(src []byte, begin int, lits []byte, seqs []sequence, rep [3]int) ([]byte, []sequence, [3]int) {
	n := len(src)
	switch {
	case m.base == 0:
		// A new matcher's entries hold position 0 and bytes 0: base
		// starts at 1 (src[0] at 1), so that they fall below it and
		// are ignored, not taken for four zero bytes at the input's
		// start.
		m.base = 1 + begin
	case m.base > maxBase:
		m.rebase(begin)
	}
	// An entry holds a position in the frame plus a constant: the
	// history's entries stay valid, and older ones fall below base.
	// m.base is where src[begin] is, at least begin+1.
	base := m.base - begin
	m.base += n - begin
	// Literals are copied 16 bytes at a time into lits, which has room
	// for all of src[begin:] and 16 bytes more.
	lits = slices.Grow(lits[:0], n-begin+16)[:n-begin+16]
	nlits := 0
	var q sequencer
	q.init(seqs, rep)

	litStart := begin
	s := max(begin, 1)
	for {
		start, from := m.find(src, s, litStart, q.rep0, base)
		if start < 0 {
			break
		}
		length := minMatch + matchLen(src, start+minMatch, from+minMatch)
		for start > litStart && from > 0 && src[start-1] == src[from-1] {
			start, from, length = start-1, from-1, length+1
		}
		q.rep0next = start - from
		// Copy the literals before the match.
		ll := start - litStart
		if ll <= 16 && litStart+16 <= n {
			copy(lits[nlits:nlits+16], src[litStart:litStart+16])
		} else {
			copy(lits[nlits:], src[litStart:start])
		}
		nlits += ll
		q.add(ll, length)
		s = start + length
		litStart = s
	}
	nlits += copy(lits[nlits:], src[litStart:])
	return lits[:nlits], q.seqs, [3]int{q.rep0, q.rep1, q.rep2}
}

// skip accounts for n bytes of input that a frame's block holds without
// going through parse (an RLE or short raw block), so that the positions
// of the next block's history stay where parse expects them;
// end is the position in the frame's input just past those n bytes.
func (m *matcher) skip(n, end int) {
	if m.base == 0 {
		m.base = 1 + end - n
	}
	m.base += n
	if m.base > maxBase {
		m.rebase(end)
	}
}

// tableEntry is a position, plus the matcher's base, and the 4 bytes
// there, so that a candidate is checked without a load from the input.
type tableEntry struct {
	pos, val uint32
}

// find returns where the next match at or after s starts and where it
// copies from, or -1 when none starts before the last 8 bytes of src. It
// takes two positions a step: it tries the last offset at the second
// position after s (JSON repeats its keys at a fixed distance), then the
// candidates the hash table holds for s and s+1, and indexes both.
func (m *matcher) find(src []byte, s, litStart, rep0, base int) (start, from int) {
	table := &m.table
	for s < len(src)-8 {
		cv := binary.LittleEndian.Uint64(src[s : s+8])
		h0, h1 := hash6(cv), hash6(cv>>8)
		c0, c1 := table[h0], table[h1]
		table[h0] = tableEntry{uint32(s + base), uint32(cv)}
		table[h1] = tableEntry{uint32(s + 1 + base), uint32(cv >> 8)}
		if r := s + 2 - rep0; r >= 0 && binary.LittleEndian.Uint32(src[r:r+4]) == uint32(cv>>16) {
			return s + 2, r
		}
		if cand := int(c0.pos) - base; cand >= 0 && c0.val == uint32(cv) {
			return s, cand
		}
		if cand := int(c1.pos) - base; cand >= 0 && c1.val == uint32(cv>>8) {
			return s + 1, cand
		}
		s += 2 + (s-litStart)>>skipLog
	}
	return -1, 0
}

// sequencer codes sequences' offsets against the repeated offsets the
// decoder will track (RFC 8878, section 3.1.1.5).
type sequencer struct {
	seqs             []sequence
	rep0, rep1, rep2 int
	rep0next         int // the next match's offset
}

func (q *sequencer) init(seqs []sequence, rep [3]int) {
	q.seqs = seqs[:0]
	q.rep0, q.rep1, q.rep2 = rep[0], rep[1], rep[2]
	q.rep0next = 0
}

// add appends a sequence of ll literals and a match of length bytes at
// offset q.rep0next.
func (q *sequencer) add(ll, length int) {
	off := q.rep0next
	var ov int
	switch {
	case off == q.rep0:
		off = q.rep0
		if ll > 0 {
			ov = 1
		} else {
			// With no literals, code 1 means rep1: code the
			// offset anew.
			ov = off + 3
			q.rep1, q.rep2 = q.rep0, q.rep1
		}
	case ll > 0 && off == q.rep1:
		ov = 2
		q.rep0, q.rep1 = q.rep1, q.rep0
	case ll > 0 && off == q.rep2:
		ov = 3
		q.rep0, q.rep1, q.rep2 = q.rep2, q.rep0, q.rep1
	case ll == 0 && off == q.rep1:
		ov = 1
		q.rep0, q.rep1 = q.rep1, q.rep0
	case ll == 0 && off == q.rep2:
		ov = 2
		q.rep0, q.rep1, q.rep2 = q.rep2, q.rep0, q.rep1
	case ll == 0 && off == q.rep0-1:
		ov = 3
		q.rep0, q.rep1, q.rep2 = off, q.rep0, q.rep1
	default:
		ov = off + 3
		q.rep0, q.rep1, q.rep2 = off, q.rep0, q.rep1
	}
	llc, mlc, ofc := llCode(uint32(ll)), mlCode(uint32(length)), uint8(bits.Len32(uint32(ov))-1)
	lb, mb := uint(llExtra[llc]), uint(mlExtra[mlc])
	extra := uint64(uint32(ll)-llBase[llc]) |
		uint64(uint32(length)-mlBase[mlc])<<(lb&63) |
		uint64(uint32(ov)&(1<<(ofc&31)-1))<<((lb+mb)&63)
	q.seqs = append(q.seqs, sequence{
		extra: extra, extraBits: uint8(lb + mb + uint(ofc)),
		llCode: llc, mlCode: mlc, ofCode: ofc,
	})
}

// hash6 hashes the low 6 bytes of u to a table index.
func hash6(u uint64) int {
	const prime = 227718039650203 // a 48-bit multiplier: the hash mixes all 6 bytes
	return int(((u << (64 - 8*hashBytes)) * prime) >> (64 - tableBits))
}

// matchLen returns how many bytes src[a:] and src[b:] share from their
// start, b being below a.
func matchLen(src []byte, a, b int) int {
	n := 0
	for a+n+8 <= len(src) {
		x := binary.LittleEndian.Uint64(src[a+n:a+n+8]) ^ binary.LittleEndian.Uint64(src[b+n:b+n+8])
		if x != 0 {
			return n + bits.TrailingZeros64(x)>>3
		}
		n += 8
	}
	for a+n < len(src) && src[a+n] == src[b+n] {
		n++
	}
	return n
}
