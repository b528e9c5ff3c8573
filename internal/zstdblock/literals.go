package zstdblock

import (
	"encoding/binary"
	"slices"
)

// Literals block types (RFC 8878, section 3.1.1.3.1.1).
const (
	litRaw        = 0
	litRLE        = 1
	litCompressed = 2
)

// Huffman limits (RFC 8878, section 4.2.1): codes of at most maxCodeBits
// bits; direct 4-bit weights describe at most maxDirect symbols before
// the last one, whose weight is implied.
const (
	maxCodeBits = 11
	maxDirect   = 128
	// minHuffman is the fewest literals worth a code: the code's
	// description alone costs about a byte per two symbols.
	minHuffman = 32
	// maxSingle is the most literals, and compressed bytes, one stream
	// can hold: its header has 10-bit sizes.
	maxSingle = 1023
)

// huffman holds the scratch state of one literals section's code.
type huffman struct {
	count   [256]uint32
	length  [256]uint8  // code length in bits, 0 for absent symbols
	enc     [256]uint32 // code | length<<16
	sorted  [256]uint32 // count<<8 | symbol, ascending
	weights [255]byte
	// The last code built, kept for the next literals while it fits
	// them: desc is its tree description, covering symbols up to
	// descMaxSym (nil when there is none), and bitsPerLit, in 1/256
	// bits, what it spent a literal on those it was built for.
	desc       []byte
	descMaxSym int
	bitsPerLit uint64
	wc         weightCoder
	// Two-queue Huffman construction over up to 256 leaves.
	weight [256]uint32
	parent [512]uint16
	depth  [256]uint8
}

// appendLiterals appends the literals section of lits to out, which has
// room for len(lits)+3 more bytes, the raw form's size.
func (h *huffman) appendLiterals(out, lits []byte) []byte {
	n := len(lits)
	if n < minHuffman {
		return appendRawLiterals(out, lits)
	}
	h.count = [256]uint32{}
	for _, c := range lits {
		h.count[c]++
	}
	nsym := 0
	maxSym := 0
	for s, c := range h.count {
		if c != 0 {
			nsym++
			maxSym = s
		}
	}
	if nsym == 1 {
		return appendHeader(out, litRLE, n, 0, lits[:1])
	}
	cost, ok := h.reuse(maxSym, n)
	if !ok {
		// The new code also covers the symbols the last one did, as
		// if each had been seen once, so that the next body of the
		// same kind, which may hold a rare symbol this one lacks, can
		// reuse it; unless they are many (the last code was built for
		// another kind of input), so that codes do not only grow.
		union := h.desc != nil
		if union {
			extra := 0
			for s, l := range h.length[:h.descMaxSym+1] {
				if l != 0 && h.count[s] == 0 {
					extra++
				}
			}
			union = extra <= nsym/4
		}
		if union {
			maxSym = max(maxSym, h.descMaxSym)
		}
		nsym = 0
		for s, c := range h.count[:maxSym+1] {
			if c == 0 && union && h.length[s] != 0 {
				c = 1
			}
			if c != 0 {
				h.sorted[nsym] = c<<8 | uint32(s)
				nsym++
			}
		}
		var maxBits int
		maxBits, cost = h.build(nsym)
		h.assignCodes(maxBits, maxSym)
		h.desc = h.appendWeights(h.desc[:0], maxBits, maxSym)
		if h.desc == nil {
			return appendRawLiterals(out, lits)
		}
		h.descMaxSym = maxSym
		h.bitsPerLit = cost * 256 / uint64(n)
	}
	streams := 4
	if n <= maxSingle {
		streams = 1
	}
	// Estimated size: tree description, jump table, and the streams,
	// each rounded up to its end mark.
	treeSize := len(h.desc)
	est := treeSize + int(cost/8) + streams
	if streams == 4 {
		est += 6
	}
	if est+5 >= n+3 || streams == 1 && est > maxSingle {
		return appendRawLiterals(out, lits)
	}
	// Header size: 3 bytes (10-bit sizes) for one stream; for four, 4
	// bytes (14-bit sizes) or 5 (18-bit). The compressed size is below
	// n, or the literals go raw.
	hdrSize := 3
	switch {
	case streams == 1:
	case n <= 16383:
		hdrSize = 4
	default:
		hdrSize = 5
	}
	// The section's content goes after its header, whose size fields
	// are filled in once known. Its bound: weights, jump table, and
	// each stream's codes, end mark and store room.
	start := len(out)
	bound := hdrSize + treeSize + 6 + (n*maxCodeBits)/8 + 4*(2+room)
	out = slices.Grow(out, bound)
	body := append(out[start+hdrSize:start+hdrSize], h.desc...)
	if streams == 1 {
		body = h.appendStream(body, lits)
	} else {
		seg := (n + 3) / 4
		jump := len(body)
		body = append(body, 0, 0, 0, 0, 0, 0)
		for i := range 3 {
			before := len(body)
			body = h.appendStream(body, lits[i*seg:(i+1)*seg])
			binary.LittleEndian.PutUint16(body[jump+2*i:], uint16(len(body)-before))
		}
		body = h.appendStream(body, lits[3*seg:])
	}
	size := len(body)
	if size+hdrSize >= n+rawHeaderSize(n) {
		// The estimate was on the wrong side: raw is smaller. A
		// size below n fits the header chosen.
		return appendRawLiterals(out, lits)
	}
	sf := hdrSize - 2 // size format 2 or 3: four streams
	if streams == 1 {
		sf = 0
	}
	// body is out's next bytes, unless a stream outgrew the bound and
	// moved it; append copies it in place either way.
	out = append(out[:start+hdrSize], body...)
	v := uint64(litCompressed) | uint64(sf)<<2
	switch hdrSize {
	case 3:
		v |= uint64(n)<<4 | uint64(size)<<14
	case 4:
		v |= uint64(n)<<4 | uint64(size)<<18
	default:
		v |= uint64(n)<<4 | uint64(size)<<22
	}
	for i := range hdrSize {
		out[start+i] = byte(v >> (8 * i))
	}
	return out
}

// reuse reports whether the last code built, in h.length and h.enc, can
// code the literals counted in h.count, n of them up to maxSym, and
// returns their size in bits under it. It can when it has a code for
// every symbol present and spends at most 1/32 more bits a literal than
// on the literals it was built for: building a code (sorting, the
// tree, the weights and their description) costs about as much as
// coding a few thousand literals, and literals of one kind of body (the
// answers of one handler) keep their statistics.
func (h *huffman) reuse(maxSym, n int) (uint64, bool) {
	if h.desc == nil || maxSym > h.descMaxSym {
		return 0, false
	}
	var cost uint64
	for s, c := range h.count[:maxSym+1] {
		if c != 0 {
			l := h.length[s]
			if l == 0 {
				return 0, false
			}
			cost += uint64(c) * uint64(l)
		}
	}
	if cost*256 > (h.bitsPerLit+h.bitsPerLit/reuseSlack)*uint64(n) {
		return 0, false
	}
	return cost, true
}

// rawHeaderSize is the header size of n raw literals.
func rawHeaderSize(n int) int {
	switch {
	case n < 32:
		return 1
	case n < 4096:
		return 2
	}
	return 3
}

// appendRawLiterals appends lits as a raw literals section.
func appendRawLiterals(out, lits []byte) []byte {
	return appendHeader(out, litRaw, len(lits), rawHeaderSize(len(lits)), lits)
}

// appendHeader appends a raw or RLE literals section: a header for n
// regenerated bytes, then content. A size of 0 means the smallest
// header that holds n.
func appendHeader(out []byte, typ, n, size int, content []byte) []byte {
	if size == 0 {
		size = rawHeaderSize(n)
	}
	switch size {
	case 1:
		out = append(out, byte(typ|n<<3))
	case 2:
		v := typ | 1<<2 | n<<4
		out = append(out, byte(v), byte(v>>8))
	default:
		v := typ | 3<<2 | n<<4
		out = append(out, byte(v), byte(v>>8), byte(v>>16))
	}
	return append(out, content...)
}

// appendWeights appends the Huffman tree description (RFC 8878, section
// 4.2.1.1) to out, which has room for it: the weights of the symbols
// before maxSym, FSE-coded or, when shorter, 4 bits each. It returns nil
// when neither form can hold them.
func (h *huffman) appendWeights(out []byte, maxBits, maxSym int) []byte {
	weights := h.weights[:maxSym]
	for s := range weights {
		weights[s] = h.weightOf(s, maxBits)
	}
	start := len(out)
	out, ok := h.wc.appendWeights(out, weights)
	direct := 1 + (maxSym+1)/2
	if ok && len(out)-start <= direct {
		return out
	}
	if maxSym > maxDirect {
		if ok {
			return out
		}
		return nil
	}
	out = append(out[:start], byte(127+maxSym))
	for s := 0; s < maxSym; s += 2 {
		b := weights[s] << 4
		if s+1 < maxSym {
			b |= weights[s+1]
		}
		out = append(out, b)
	}
	return out
}

// weightOf is symbol s's weight (RFC 8878, section 4.2.1.1): 0 when
// absent, otherwise maxBits+1 minus its code length.
func (h *huffman) weightOf(s int, maxBits int) byte {
	if h.length[s] == 0 {
		return 0
	}
	return byte(maxBits + 1 - int(h.length[s]))
}

// build sets the code lengths of the nsym symbols listed in h.sorted
// (which it sorts), limited to maxCodeBits and forming a complete code,
// and returns the longest and the encoded size in bits.
func (h *huffman) build(nsym int) (maxBits int, cost uint64) {
	h.length = [256]uint8{}
	leaves := h.sorted[:nsym]
	slices.Sort(leaves)
	// Two queues: leaves in ascending weight, and internal nodes, made
	// in ascending weight. Node ids: leaves 0..nsym-1, internal
	// nodes nsym and up.
	li, ii, made := 0, 0, 0
	pick := func() (id int, w uint32) {
		if li < nsym && (ii >= made || leaves[li]>>8 <= h.weight[ii]) {
			li++
			return li - 1, leaves[li-1] >> 8
		}
		ii++
		return nsym + ii - 1, h.weight[ii-1]
	}
	for made < nsym-1 {
		a, wa := pick()
		b, wb := pick()
		h.weight[made] = wa + wb
		h.parent[a] = uint16(made)
		h.parent[b] = uint16(made)
		made++
	}
	// Depths: the root, the last node made, is at depth 0; every other
	// node was made before its parent.
	h.depth[made-1] = 0
	for i := made - 2; i >= 0; i-- {
		h.depth[i] = h.depth[h.parent[nsym+i]] + 1
	}
	over := false
	for i, l := range leaves {
		d := int(h.depth[h.parent[i]]) + 1
		if d > maxCodeBits {
			d = maxCodeBits
			over = true
		}
		h.length[l&0xff] = uint8(d)
	}
	if over {
		h.limit(leaves)
	}
	for _, l := range leaves {
		s := l & 0xff
		maxBits = max(maxBits, int(h.length[s]))
		cost += uint64(l>>8) * uint64(h.length[s])
	}
	return maxBits, cost
}

// limit makes the lengths of leaves, clamped to maxCodeBits, a complete
// code again: it lengthens the codes of the rarest symbols until the
// Kraft sum fits, then shortens the commonest while it stays within.
func (h *huffman) limit(leaves []uint32) {
	const one = 1 << maxCodeBits
	kraft := 0
	for _, l := range leaves {
		kraft += one >> h.length[l&0xff]
	}
	for kraft > one {
		for _, l := range leaves { // rarest first
			s := l & 0xff
			if h.length[s] < maxCodeBits {
				h.length[s]++
				kraft -= one >> h.length[s]
				if kraft <= one {
					break
				}
			}
		}
	}
	for kraft < one {
		for i := len(leaves) - 1; i >= 0; i-- { // commonest first
			s := leaves[i] & 0xff
			if gain := one >> h.length[s]; h.length[s] > 1 && kraft+gain <= one {
				h.length[s]--
				kraft += gain
			}
		}
	}
}

// assignCodes gives each symbol up to maxSym its code: the decoder fills
// its table by weight, then by symbol, each symbol taking 2^(weight-1)
// entries, and a code is the symbol's first entry over those.
func (h *huffman) assignCodes(maxBits, maxSym int) {
	var perLen [maxCodeBits + 1]uint32
	for s := 0; s <= maxSym; s++ {
		perLen[h.length[s]]++
	}
	var next [maxCodeBits + 1]uint32
	slot := uint32(0)
	for w := 1; w <= maxBits; w++ {
		l := maxBits + 1 - w
		next[l] = slot >> (w - 1)
		slot += perLen[l] << (w - 1)
	}
	for s := 0; s <= maxSym; s++ {
		if l := h.length[s]; l != 0 {
			h.enc[s] = next[l] | uint32(l)<<16
			next[l]++
		}
	}
}

// appendStream appends the Huffman stream of lits: the codes of the last
// literal first, as the decoder reads the stream from its end.
func (h *huffman) appendStream(out, lits []byte) []byte {
	// Room: at most maxCodeBits bits a literal, the end mark, and the
	// 8-byte store of the last flush.
	if need := len(out) + (len(lits)*maxCodeBits+8)/8 + 1 + room; cap(out) < need {
		out = slices.Grow(out, need-len(out))
	}
	buf := out[:cap(out)]
	pos := len(out)
	enc := &h.enc
	var acc uint64
	var nb uint
	i := len(lits)
	for ; i >= 4; i -= 4 {
		// 4 codes of at most 11 bits join at most 7 bits left over.
		v := binary.LittleEndian.Uint32(lits[i-4 : i])
		a, b, c, d := enc[byte(v>>24)], enc[byte(v>>16)], enc[byte(v>>8)], enc[byte(v)]
		acc |= uint64(a&0xffff) << (nb & 63)
		nb += uint(a >> 16)
		acc |= uint64(b&0xffff) << (nb & 63)
		nb += uint(b >> 16)
		acc |= uint64(c&0xffff) << (nb & 63)
		nb += uint(c >> 16)
		acc |= uint64(d&0xffff) << (nb & 63)
		nb += uint(d >> 16)
		binary.LittleEndian.PutUint64(buf[pos:], acc)
		k := nb >> 3
		pos += int(k)
		acc >>= (k << 3) & 63
		nb &= 7
	}
	for ; i > 0; i-- {
		a := enc[lits[i-1]]
		acc |= uint64(a&0xffff) << (nb & 63)
		nb += uint(a >> 16)
	}
	w := bitWriter{buf: buf[:pos], acc: acc, nbits: nb}
	return w.close()
}

// reuseSlack: a code or table built for earlier input is reused while it
// spends at most 1/reuseSlack more bits a symbol than it did there.
const reuseSlack = 16
