package zstdblock

import "slices"

// weightsLog is the accuracy of the FSE table that codes Huffman weights:
// RFC 8878, section 4.2.1.2, allows at most 6.
const weightsLog = 6

// weightCoder writes Huffman weights FSE-coded (RFC 8878, section
// 4.2.1.2): a table description, then a bitstream of two interleaved
// states sharing the table.
type weightCoder struct {
	count [maxCodeBits + 1]int
	norm  [maxCodeBits + 1]int16
	enc   fseEncoder
}

// appendWeights appends the FSE-coded description of weights (one per
// symbol before the last) to out and returns it with ok; ok is false, and out unchanged, when the weights
// cannot be coded so (a single distinct weight) or take 128 bytes or
// more, which the header byte cannot say.
func (c *weightCoder) appendWeights(out []byte, weights []byte) ([]byte, bool) {
	n := len(weights)
	if n < 2 {
		return out, false
	}
	c.count = [maxCodeBits + 1]int{}
	for _, w := range weights {
		c.count[w]++
	}
	last := 0
	distinct := 0
	for w, k := range c.count {
		if k != 0 {
			last = w
			distinct++
		}
	}
	if distinct < 2 {
		return out, false
	}
	norm := c.norm[:last+1]
	normalize(norm, c.count[:last+1], n, weightsLog)
	c.enc.build(norm, weightsLog)

	// Room: the header byte, at most 127 bytes, and flush's store.
	out = slices.Grow(out, 1+127+room)
	start := len(out)
	w := bitWriter{buf: appendDistribution(out[start+1:start+1], norm, weightsLog)}
	// The decoder's first state gives the even weights, its second the
	// odd ones, taking turns from the first; it stops after a state
	// update would read past the stream. So the last two weights set the
	// initial states, each at its cell that reads at least one bit, and
	// the rest are coded from the third-last back.
	e := &c.enc
	var t [2]uint32
	t[(n-1)&1] = uint32(e.init[weights[n-1]])
	t[(n-2)&1] = uint32(e.init[weights[n-2]])
	for k := n - 3; k >= 0; k-- {
		s := weights[k]
		i := k & 1
		nb := (t[i] + e.delta[s]) >> 16
		w.add(uint64(t[i]&(1<<nb-1)), uint(nb))
		t[i] = uint32(e.state[int32(t[i]>>nb)+e.first[s]])
		if k&3 == 0 {
			w.flush()
			if len(w.buf) > 120 {
				return out, false // too long, before flush runs out of room
			}
		}
	}
	w.flush()
	w.add(uint64(t[1]-1<<weightsLog), weightsLog)
	w.add(uint64(t[0]-1<<weightsLog), weightsLog)
	size := len(w.close())
	if size >= 128 {
		return out, false
	}
	out = out[:start+1+size] // w wrote within out's room
	out[start] = byte(size)
	return out, true
}

// normalize scales count, summing to total, to norm, summing to 1<<log,
// every present symbol at least 1: each gets its share rounded, and the
// commonest absorbs the difference, or, when it cannot, the largest
// shares give up one at a time.
func normalize(norm []int16, count []int, total int, log uint) {
	sum := 0
	big := 0
	for s, k := range count {
		if k == 0 {
			norm[s] = 0
			continue
		}
		v := max((k<<log+total/2)/total, 1)
		norm[s] = int16(v)
		sum += v
		if k > count[big] {
			big = s
		}
	}
	if diff := 1<<log - sum; int(norm[big])+diff > int(norm[big])/2 {
		norm[big] += int16(diff)
		return
	}
	for ; sum > 1<<log; sum-- {
		top := 0
		for s := range norm {
			if norm[s] > norm[top] {
				top = s
			}
		}
		norm[top]--
	}
}

// appendDistribution appends the table description of norm, which ends
// on a byte, to out, which has room for it and flush's store.
func appendDistribution(out []byte, norm []int16, log uint) []byte {
	w := bitWriter{buf: out}
	writeDistribution(&w, norm, log)
	w.flush()
	if w.nbits > 0 {
		w.buf = w.buf[:len(w.buf)+1]
	}
	return w.buf
}

// writeDistribution writes the table description of norm (RFC 8878,
// section 4.1.1): the accuracy log less 5 in 4 bits, then each symbol's
// count plus 1 in as few bits as the counts left allow, with 2-bit
// repeat flags after a zero.
func writeDistribution(w *bitWriter, norm []int16, log uint) {
	w.add(uint64(log-5), 4)
	remaining := 1<<log + 1
	threshold := 1 << log
	nb := log + 1
	for s := 0; s < len(norm); {
		v := int(norm[s]) + 1
		maxShort := 2*threshold - 1 - remaining
		if v < maxShort {
			w.add(uint64(v), nb-1)
		} else if v < threshold {
			w.add(uint64(v), nb)
		} else {
			w.add(uint64(v+maxShort), nb)
		}
		w.flush()
		remaining -= max(int(norm[s]), -int(norm[s]))
		s++
		if norm[s-1] == 0 {
			zeros := 0
			for s < len(norm) && norm[s] == 0 {
				zeros++
				s++
			}
			for ; zeros >= 3; zeros -= 3 {
				w.add(3, 2)
				w.flush()
			}
			w.add(uint64(zeros), 2)
		}
		for remaining < threshold {
			nb--
			threshold >>= 1
		}
	}
}
