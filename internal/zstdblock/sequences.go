package zstdblock

import (
	"encoding/binary"
	"math"
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
	// Per symbol, indexed by a byte so that a code needs no bounds
	// check: first, the index of its first cell in state, minus its
	// count c; delta, with which nb = (T + delta) >> 16; init, the T of
	// its first cell, which reads at least one bit.
	first [256]int32
	delta [256]uint32
	init  [256]uint16
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
	const cells = 1<<maxLog - 1 // masks indexes known to be in range
	size := 1 << log
	var sym [1 << maxLog]uint8
	high := size - 1
	for s, c := range norm {
		if c == -1 {
			sym[high&cells] = uint8(s)
			high--
		}
	}
	pos, step, mask := 0, size>>1+size>>3+3, size-1
	if high == size-1 {
		// No count below 1 (the tables built for an input have none):
		// no cell to skip.
		for s, c := range norm {
			for range c {
				sym[pos&cells] = uint8(s)
				pos = (pos + step) & mask
			}
		}
	} else {
		for s, c := range norm {
			for range max(c, 0) {
				sym[pos&cells] = uint8(s)
				for pos = (pos + step) & mask; pos > high; pos = (pos + step) & mask {
				}
			}
		}
	}
	if pos != 0 {
		panic("zstdblock: FSE distribution does not sum to its table size")
	}
	e.log = log
	var cumul [256]uint16 // indexed by a byte: no bounds check
	total := 0
	for s, c := range norm {
		if c == 0 {
			continue
		}
		c := max(int(c), 1)
		cumul[uint8(s)] = uint16(total)
		e.first[s] = int32(total - c)
		e.init[s] = uint16(total)
		// m is the larger of the two bit counts s's cells read.
		m := int(log) - (bits.Len(uint(c)) - 1)
		e.delta[s] = uint32(m<<16 - c<<m)
		total += c
	}
	for S, s := range sym[:size] {
		e.state[cumul[s]&cells] = uint16(S + size)
		cumul[s]++
	}
	for s, c := range norm {
		if c != 0 {
			e.init[s] = e.state[e.init[s]&cells]
		}
	}
}

// Predefined distributions (RFC 8878, section 3.1.1.3.2.2).
var (
	llNorm = []int16{
		4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
		-1, -1, -1, -1}
	mlNorm = []int16{
		1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1,
		-1, -1, -1, -1, -1}
	ofNorm = []int16{
		1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}
	llPredefined = newFSEEncoder(llNorm, 6)
	mlPredefined = newFSEEncoder(mlNorm, 6)
	ofPredefined = newFSEEncoder(ofNorm, 5)
)

// Literal and match length codes (RFC 8878, section 3.1.1.3.2.1.1):
// baselines and extra bits. Lengths below 16 (literals) and 35 (matches)
// are their own codes, less 3 for matches.
// The tables are indexed by a byte, so that a code needs no bounds check.
var (
	llBase = [256]uint32{
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	llExtra = [256]uint8{
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16}
	mlBase = [256]uint32{
		3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	mlExtra = [256]uint8{
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
		for c+1 < 36 && llBase[c+1] <= uint32(v) {
			c++
		}
		ll[v] = uint8(c)
	}
	c = 0
	for v := range ml {
		for c+1 < 53 && mlBase[c+1] <= uint32(v+3) {
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

// Sequence table modes (RFC 8878, section 3.1.1.3.2.1).
const (
	modePredefined = 0
	modeFSE        = 2
)

// seqCoder holds the scratch state of one sequences section: per code
// kind, a histogram and a table built for it. What a section reads was
// written from its own sequences: nothing of an earlier section shapes
// the next.
type seqCoder struct {
	hist   [3][maxSymbols]int
	norm   [maxSymbols]int16 // a distribution being weighed
	custom [3]fseEncoder
}

// Code kinds, in the order of the section's mode byte and descriptions.
const (
	kindLL = iota
	kindOF
	kindML
)

// kinds: the predefined table and largest accuracy log of each kind.
var kinds = [3]struct {
	predefined *fseEncoder
	predNorm   []int16
	predLog    int
	maxLog     int
}{
	{llPredefined, llNorm, 6, 9},
	{ofPredefined, ofNorm, 5, 8},
	{mlPredefined, mlNorm, 6, 9},
}

// appendSequences appends the sequences section of seqs to out.
func (c *seqCoder) appendSequences(out []byte, seqs []sequence) []byte {
	n := len(seqs)
	// Room: 4 bytes of header, three table descriptions of at most 53
	// symbols of 12 bits; a sequence is at most 26 bits of states and
	// 49 of extra bits, under 10 bytes; then the end mark and flush's
	// store.
	out = slices.Grow(out, 4+3*(2+53*12/8+room)+10*n+1+room)
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
	c.hist = [3][maxSymbols]int{}
	for _, s := range seqs {
		c.hist[kindLL][s.llCode]++
		c.hist[kindOF][s.ofCode]++
		c.hist[kindML][s.mlCode]++
	}
	modePos := len(out)
	out = append(out, 0)
	var enc [3]*fseEncoder
	modes := byte(0)
	for k := range 3 {
		enc[k] = kinds[k].predefined
		var mode int
		out, mode = c.appendTable(out, k, n)
		if mode == modeFSE {
			enc[k] = &c.custom[k]
		}
		modes |= byte(mode) << (6 - 2*k)
	}
	out[modePos] = modes
	ll, of, ml := enc[kindLL], enc[kindOF], enc[kindML]
	// The bitstream, with its writer's state in locals: buf spans
	// out's capacity, which the Grow above made room for.
	buf := out[:cap(out)]
	pos := len(out)
	var acc uint64
	var nb uint
	// flush, written out where it is used (a closure would keep acc,
	// nb and pos in memory): store acc's 8 bytes, keep its whole bytes,
	// and leave at most 7 bits. nb stays below 64 (see the bounds at
	// each use), so the shifts need no wider count.
	// The decoder reads the sequences first to last, so they are
	// written last to first; the last sequence's codes set the
	// initial states, and each earlier one moves them.
	last := seqs[n-1]
	llc, mlc, ofc := last.llCode, last.mlCode, last.ofCode
	llT, mlT, ofT := uint32(ll.init[llc]), uint32(ml.init[mlc]), uint32(of.init[ofc])
	// Its extra bits, at most 49, in two parts.
	acc = last.extra & (1<<32 - 1)
	nb = uint(min(last.extraBits, 32))
	binary.LittleEndian.PutUint64(buf[pos:], acc)
	pos += int(nb >> 3)
	acc >>= (nb &^ 7) & 63
	nb &= 7
	acc |= (last.extra >> 32) << (nb & 63)
	nb += uint(last.extraBits - min(last.extraBits, 32))
	binary.LittleEndian.PutUint64(buf[pos:], acc)
	pos += int(nb >> 3)
	acc >>= (nb &^ 7) & 63
	nb &= 7
	for i := n - 2; i >= 0; i-- {
		s := &seqs[i]
		llc, mlc, ofc := s.llCode, s.mlCode, s.ofCode
		// The decoder updates its states in the order literal
		// length, match length, offset: written in reverse.
		k := (ofT + of.delta[ofc]) >> 16
		acc |= uint64(ofT&(1<<(k&31)-1)) << (nb & 63)
		nb += uint(k)
		ofT = uint32(of.state[int32(ofT>>(k&31))+of.first[ofc]])
		k = (mlT + ml.delta[mlc]) >> 16
		acc |= uint64(mlT&(1<<(k&31)-1)) << (nb & 63)
		nb += uint(k)
		mlT = uint32(ml.state[int32(mlT>>(k&31))+ml.first[mlc]])
		k = (llT + ll.delta[llc]) >> 16
		acc |= uint64(llT&(1<<(k&31)-1)) << (nb & 63)
		nb += uint(k)
		llT = uint32(ll.state[int32(llT>>(k&31))+ll.first[llc]])
		binary.LittleEndian.PutUint64(buf[pos:], acc)
		pos += int(nb >> 3)
		acc >>= (nb &^ 7) & 63
		nb &= 7
		// Then it reads offset, match and literal length bits: at
		// most 49, after at most 7 left over.
		acc |= s.extra << (nb & 63)
		nb += uint(s.extraBits)
		binary.LittleEndian.PutUint64(buf[pos:], acc)
		pos += int(nb >> 3)
		acc >>= (nb &^ 7) & 63
		nb &= 7
	}
	// Initial states, read first: literal length, offset, match length.
	w := bitWriter{buf: buf[:pos], acc: acc, nbits: nb}
	w.add(uint64(mlT-1<<ml.log), ml.log)
	w.add(uint64(ofT-1<<of.log), of.log)
	w.add(uint64(llT-1<<ll.log), ll.log)
	return w.close()
}

// appendTable chooses the table of code kind k for n sequences: the
// predefined one, or one built from the histogram when its estimated cost
// with its description is lower. A table built is described after out.
func (c *seqCoder) appendTable(out []byte, k, n int) ([]byte, int) {
	hist := c.hist[k][:]
	last, distinct := 0, 0
	for s, h := range hist {
		if h != 0 {
			last = s
			distinct++
		}
	}
	if distinct < 2 {
		return out, modePredefined
	}
	hist = hist[:last+1]
	// As zstd's reference encoder: about a quarter of the sequences'
	// bits, enough for the alphabet, within the kind's limit.
	log := max(bits.Len(uint(n-1))-2, bits.Len(uint(last))+1, 5)
	log = min(log, kinds[k].maxLog)
	norm := c.norm[:last+1]
	normalize(norm, hist, n, uint(log))
	predCost := cost(hist, kinds[k].predNorm, kinds[k].predLog)
	customCost := cost(hist, norm, log)
	start := len(out)
	out = appendDistribution(out, norm, uint(log))
	if customCost+(len(out)-start)*8*256 >= predCost {
		return out[:start], modePredefined
	}
	c.custom[k].build(norm, uint(log))
	return out, modeFSE
}

// cost estimates, in 1/256 bits, the bits a table of norm (accuracy log)
// spends on symbols counted in hist: log2(size/norm) a symbol. It
// returns -1 when the table has no cell for a symbol present.
func cost(hist []int, norm []int16, log int) int {
	total := 0
	for s, h := range hist {
		if h != 0 {
			if norm[s] == 0 {
				return -1
			}
			p := max(int(norm[s]), 1)
			total += h * (log<<8 - log2x256[p])
		}
	}
	return total
}

// log2x256 holds 256 × log2(i) for i up to 512, rounded.
var log2x256 = func() (t [513]int) {
	for i := 1; i < len(t); i++ {
		t[i] = int(math.Round(256 * math.Log2(float64(i))))
	}
	return t
}()
