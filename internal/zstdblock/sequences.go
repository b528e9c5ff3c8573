package zstdblock

import (
	"math/bits"
	"slices"
)

// fseEncoder is the encoding side of an FSE table (RFC 8878, section
// 4.1). The decoder's state S, 0 to size-1, gives a symbol and a number
// of bits to read, which added to a baseline give the next state. The
// encoder keeps T = S + size, in [size, 2*size): to encode symbol s it
// writes T's low nb bits, nb being the count that leaves T>>nb within
// [c, 2c) for s's count c, and moves to the state of s's cell number
// (T>>nb) - c, cells numbered in state order.
type fseEncoder struct {
	log   uint
	state [1 << maxLog]uint16 // per symbol, from first[s], the T of each of its cells
	first [maxSymbols]int32   // per symbol: index of its first cell in state, minus c
	delta [maxSymbols]uint32  // per symbol: nb = (T + delta) >> 16
	init  [maxSymbols]uint16  // per symbol: the T of its first cell, which reads at least one bit
}

// Table limits: the largest accuracy log RFC 8878 allows a sequence
// table (match lengths, 9), and the largest alphabet (match length
// codes, 53).
const (
	maxLog     = 9
	maxSymbols = 53
)

// newFSEEncoder returns the encoder of the distribution norm.
func newFSEEncoder(norm []int16, log uint) *fseEncoder {
	e := new(fseEncoder)
	e.build(norm, log)
	return e
}

// build makes e the encoder of the distribution norm (counts summing to
// 1<<log, -1 standing for a count below 1), spreading symbols over the
// table as RFC 8878, section 4.1.1, prescribes.
func (e *fseEncoder) build(norm []int16, log uint) {
	size := 1 << log
	var symbols [1 << maxLog]uint8
	sym := symbols[:size]
	high := size - 1
	for s, c := range norm {
		if c == -1 {
			sym[high] = uint8(s)
			high--
		}
	}
	pos, step, mask := 0, size>>1+size>>3+3, size-1
	for s, c := range norm {
		for range max(c, 0) {
			sym[pos] = uint8(s)
			for pos = (pos + step) & mask; pos > high; pos = (pos + step) & mask {
			}
		}
	}
	if pos != 0 {
		panic("zstdblock: FSE distribution does not sum to its table size")
	}
	e.log = log
	var cumul [maxSymbols]int
	total := 0
	for s, c := range norm {
		if c == 0 {
			continue
		}
		c := max(int(c), 1)
		cumul[s] = total
		e.first[s] = int32(total - c)
		e.init[s] = uint16(total)
		// m is the larger of the two bit counts s's cells read.
		m := int(log) - (bits.Len(uint(c)) - 1)
		e.delta[s] = uint32(m<<16 - c<<m)
		total += c
	}
	for S, s := range sym {
		e.state[cumul[s]] = uint16(S + size)
		cumul[s]++
	}
	for s := range norm {
		e.init[s] = e.state[e.init[s]]
	}
}

// Predefined distributions (RFC 8878, section 3.1.1.3.2.2).
var (
	llPredefined = newFSEEncoder([]int16{
		4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
		-1, -1, -1, -1}, 6)
	mlPredefined = newFSEEncoder([]int16{
		1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1,
		-1, -1, -1, -1, -1}, 6)
	ofPredefined = newFSEEncoder([]int16{
		1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}, 5)
)

// Literal and match length codes (RFC 8878, section 3.1.1.3.2.1.1):
// baselines and extra bits. Lengths below 16 (literals) and 35 (matches)
// are their own codes, less 3 for matches.
var (
	llBase = [36]uint32{
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	llExtra = [36]uint8{
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16}
	mlBase = [53]uint32{
		3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	mlExtra = [53]uint8{
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16}
)

// llSmall and mlSmall map short lengths to codes: literal lengths below
// 64, match lengths below 128+3. Longer ones take their top bit's code.
var llSmall, mlSmall = func() (ll [64]uint8, ml [128]uint8) {
	c := 0
	for v := range ll {
		for c+1 < len(llBase) && llBase[c+1] <= uint32(v) {
			c++
		}
		ll[v] = uint8(c)
	}
	c = 0
	for v := range ml {
		for c+1 < len(mlBase) && mlBase[c+1] <= uint32(v+3) {
			c++
		}
		ml[v] = uint8(c)
	}
	return ll, ml
}()

func llCode(ll uint32) uint8 {
	if ll < 64 {
		return llSmall[ll]
	}
	return uint8(bits.Len32(ll) - 1 + 19)
}

func mlCode(ml uint32) uint8 {
	if v := ml - 3; v < 128 {
		return mlSmall[v]
	}
	return uint8(bits.Len32(ml-3) - 1 + 36)
}

// appendSequences appends the sequences section of seqs to out.
func appendSequences(out []byte, seqs []sequence) []byte {
	n := len(seqs)
	// Room: 4 bytes of header; with the predefined tables, a sequence
	// is at most 17 bits of states and 49 of extra bits, under 9
	// bytes; then the end mark and flush's store.
	out = slices.Grow(out, 4+9*n+1+room)
	switch {
	case n < 128:
		out = append(out, byte(n))
	case n < 0x7f00:
		out = append(out, byte(n>>8+128), byte(n))
	default:
		out = append(out, 0xff, byte(n-0x7f00), byte((n-0x7f00)>>8))
	}
	if n == 0 {
		return out
	}
	out = append(out, 0) // all three predefined
	ll, ml, of := llPredefined, mlPredefined, ofPredefined
	w := bitWriter{buf: out}
	// The decoder reads the sequences first to last, so they are
	// written last to first; the last sequence's codes set the
	// initial states, and each earlier one moves them.
	last := seqs[n-1]
	llc, mlc, ofc := llCode(last.litLen), mlCode(last.matchLen), uint8(bits.Len32(last.offValue)-1)
	llT, mlT, ofT := uint32(ll.init[llc]), uint32(ml.init[mlc]), uint32(of.init[ofc])
	w.add(uint64(last.litLen-llBase[llc]), uint(llExtra[llc]))
	w.add(uint64(last.matchLen-mlBase[mlc]), uint(mlExtra[mlc]))
	w.flush()
	w.add(uint64(last.offValue)&(1<<ofc-1), uint(ofc))
	w.flush()
	for i := n - 2; i >= 0; i-- {
		s := seqs[i]
		llc, mlc, ofc := llCode(s.litLen), mlCode(s.matchLen), uint8(bits.Len32(s.offValue)-1)
		// The decoder updates its states in the order literal
		// length, match length, offset: written in reverse.
		nb := (ofT + of.delta[ofc]) >> 16
		w.add(uint64(ofT&(1<<nb-1)), uint(nb))
		ofT = uint32(of.state[int32(ofT>>nb)+of.first[ofc]])
		nb = (mlT + ml.delta[mlc]) >> 16
		w.add(uint64(mlT&(1<<nb-1)), uint(nb))
		mlT = uint32(ml.state[int32(mlT>>nb)+ml.first[mlc]])
		nb = (llT + ll.delta[llc]) >> 16
		w.add(uint64(llT&(1<<nb-1)), uint(nb))
		llT = uint32(ll.state[int32(llT>>nb)+ll.first[llc]])
		// Then it reads offset, match and literal length bits.
		w.add(uint64(s.litLen-llBase[llc]), uint(llExtra[llc]))
		w.flush()
		w.add(uint64(s.matchLen-mlBase[mlc]), uint(mlExtra[mlc]))
		w.add(uint64(s.offValue)&(1<<ofc-1), uint(ofc))
		w.flush()
	}
	// Initial states, read first: literal length, offset, match length.
	w.add(uint64(mlT-1<<ml.log), ml.log)
	w.add(uint64(ofT-1<<of.log), of.log)
	w.add(uint64(llT-1<<ll.log), ll.log)
	return w.close()
}
