package zstdblock

import (
	"encoding/binary"
	"math/bits"
)

// sequence is one of a block's sequences (RFC 8878, section 3.1.1.3.2):
// litLen literals, then a match of matchLen bytes whose offset is coded
// as offValue: 1 to 3 for a repeated offset, the distance plus 3
// otherwise.
type sequence struct {
	litLen   uint32
	matchLen uint32
	offValue uint32
}

// Matcher parameters.
const (
	tableBits = 14 // the largest hash table: 16 Ki entries, 64 KiB
	minTable  = 9  // the smallest, for inputs of a few hundred bytes
	hashBytes = 6  // bytes hashed to find a candidate
	minMatch  = 4  // bytes a candidate must match
	skipLog   = 5  // after 32 bytes without a match, step 2 bytes, and so on
)

// matcher finds matches with a hash table of positions. An entry holds a
// position plus base; base grows by each input's length, so entries
// written for an earlier input fall below base and are ignored, and the
// table is cleared only when base would overflow.
type matcher struct {
	table [1 << tableBits]uint32
	base  int
}

// parse splits src into sequences, appending the literals to lits and the
// sequences to seqs; literals after the last sequence end lits.
func (m *matcher) parse(src, lits []byte, seqs []sequence) ([]byte, []sequence) {
	n := len(src)
	if m.base > 1<<31 {
		m.table = [1 << tableBits]uint32{}
		m.base = 0
	}
	base := m.base
	m.base += n
	shift := uint(64 - max(min(bits.Len(uint(n)), tableBits), minTable))
	table := m.table[:]

	// Repeated offsets, as the decoder will track them (section
	// 3.1.1.5): the matcher codes a match at one of them as a repeat.
	rep := [3]int{1, 4, 8}
	emit := func(litStart, start, length, off int) {
		lits = append(lits, src[litStart:start]...)
		ll := start - litStart
		var ov int
		switch {
		case ll > 0 && off == rep[0]:
			ov = 1
		case ll > 0 && off == rep[1]:
			ov = 2
			rep[0], rep[1] = rep[1], rep[0]
		case ll > 0 && off == rep[2]:
			ov = 3
			rep[0], rep[1], rep[2] = rep[2], rep[0], rep[1]
		case ll == 0 && off == rep[1]:
			ov = 1
			rep[0], rep[1] = rep[1], rep[0]
		case ll == 0 && off == rep[2]:
			ov = 2
			rep[0], rep[1], rep[2] = rep[2], rep[0], rep[1]
		case ll == 0 && off == rep[0]-1:
			ov = 3
			rep[0], rep[1], rep[2] = off, rep[0], rep[1]
		default:
			ov = off + 3
			rep[0], rep[1], rep[2] = off, rep[0], rep[1]
		}
		seqs = append(seqs, sequence{litLen: uint32(ll), matchLen: uint32(length), offValue: uint32(ov)})
	}

	const prime = 227718039650203 // a 48-bit multiplier: the hash mixes all 6 bytes
	hash := func(u uint64) int { return int(((u << (64 - 8*hashBytes)) * prime) >> shift) }

	litStart := 0
	last := 1 // the offset of the last match
	s := 1
	sLimit := n - 8 // a load of 8 bytes at s stays within src
	for s < sLimit {
		cv := binary.LittleEndian.Uint64(src[s:])
		h := hash(cv)
		cand := int(table[h]) - base
		table[h] = uint32(s + base)
		// The last offset, one byte ahead: JSON repeats its keys at a
		// fixed distance.
		if r := s + 1 - last; r >= 0 && binary.LittleEndian.Uint32(src[r:]) == uint32(cv>>8) {
			start := s + 1
			length := minMatch + matchLen(src[start+minMatch:], src[r+minMatch:])
			for start > litStart && r > 0 && src[start-1] == src[r-1] {
				start, r, length = start-1, r-1, length+1
			}
			emit(litStart, start, length, last)
			s = start + length
			litStart = s
			continue
		}
		if cand >= 0 && binary.LittleEndian.Uint32(src[cand:]) == uint32(cv) {
			start := s
			length := minMatch + matchLen(src[start+minMatch:], src[cand+minMatch:])
			for start > litStart && cand > 0 && src[start-1] == src[cand-1] {
				start, cand, length = start-1, cand-1, length+1
			}
			last = start - cand
			emit(litStart, start, length, last)
			s = start + length
			litStart = s
			if s < sLimit {
				// Index a position inside the match, for the
				// next repeat of this text.
				table[hash(binary.LittleEndian.Uint64(src[s-2:]))] = uint32(s - 2 + base)
			}
			continue
		}
		s += 1 + (s-litStart)>>skipLog
	}
	lits = append(lits, src[litStart:]...)
	return lits, seqs
}

// matchLen returns how many bytes a and b share from their start; b is at
// least as long as a.
func matchLen(a, b []byte) int {
	n := 0
	for len(a) >= 8 {
		x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b[:8])
		if x != 0 {
			return n + bits.TrailingZeros64(x)>>3
		}
		a, b, n = a[8:], b[8:], n+8
	}
	for i := range a {
		if a[i] != b[i] {
			break
		}
		n++
	}
	return n
}
