package zstdblock

import "encoding/binary"

// bitWriter writes a zstd bitstream (RFC 8878, section 4.1): values are
// packed from the least significant bit of each byte up, and the stream
// ends with a 1 bit, from which a decoder reads backwards.
//
// flush stores 8 bytes at once: the caller gives it a buffer with at
// least 8 bytes of room past the stream's end (see room).
type bitWriter struct {
	buf   []byte // the stream so far; len(buf) bytes are final
	acc   uint64 // bits not yet in buf, from bit 0
	nbits uint   // how many bits acc holds, at most 64
}

// room is what a stream of n bytes needs past its last byte: flush's
// 8-byte store.
const room = 8

// add appends the low n bits of v; v has no bits set above them, and acc
// has room for n more.
func (w *bitWriter) add(v uint64, n uint) {
	w.acc |= v << w.nbits
	w.nbits += n
}

// flush moves acc's whole bytes to buf, leaving at most 7 bits in acc.
func (w *bitWriter) flush() {
	b := w.buf
	// The store writes 8 bytes, of which nbits/8 are kept: the caller
	// made cap(b) at least len(b)+8 (the stream's bound plus room).
	binary.LittleEndian.PutUint64(b[len(b):len(b)+8], w.acc)
	k := w.nbits >> 3
	w.buf = b[:len(b)+int(k)]
	w.acc >>= k * 8
	w.nbits &= 7
}

// close writes the end mark and the last bits, and returns the stream.
func (w *bitWriter) close() []byte {
	w.add(1, 1)
	w.flush()
	if w.nbits > 0 {
		w.buf = w.buf[:len(w.buf)+1]
	}
	return w.buf
}
