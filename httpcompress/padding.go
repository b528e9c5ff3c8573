package httpcompress

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// MaxPadding is the most padding WithPadding accepts, in bytes: more than
// BREACH mitigation needs, and within what decoders read. Go's
// compress/gzip (Go's HTTP client among its users) refuses a gzip header
// whose comment exceeds 511 bytes.
const MaxPadding = 256

// WithPadding pads each compressed response with between 1 and n bytes,
// a length drawn afresh for every response from a cryptographically
// strong generator, so that its compressed length does not tell how well
// a secret in the body compressed against text an attacker placed
// beside it (the BREACH attack). The padding is a comment in the gzip
// header (RFC 1952's FCOMMENT, which decoders skip) or, in zstd, a
// skippable frame after the compressed frame (RFC 8878, section 3.1.2),
// 8 bytes of frame header plus the padding. Zero turns padding off;
// Handler panics when n is negative or above MaxPadding. See "BREACH
// padding" in the package documentation for what it does and does not
// protect.
func WithPadding(n int) Option {
	return func(h *handler) {
		if n < 0 || n > MaxPadding {
			panic(fmt.Sprintf("httpcompress.WithPadding: %d bytes, want 0 to %d", n, MaxPadding))
		}
		h.padding = paddingText[:n]
	}
}

// paddingText is what a padding is cut from: printable Latin-1, as a gzip
// comment must be, with no zero byte.
var paddingText = strings.Repeat("Padding-", MaxPadding/8)

// skippableMagic is the magic number of the skippable frame Handler pads
// zstd responses with: the first of the sixteen RFC 8878 reserves.
const skippableMagic = 0x184D2A50

// padLen returns the length of this response's padding, 1 to
// len(rw.h.padding), drawn from rw's own generator. The generator is made,
// seeded from crypto/rand, the first time a pooled response writer pads,
// and stays with it: drawing allocates nothing, and no two goroutines
// share a generator's state.
func (rw *responseWriter) padLen() int {
	if rw.rng == nil {
		var seed [32]byte
		_, _ = crand.Read(seed[:]) // crypto/rand.Read never fails
		rw.rng = rand.NewChaCha8(seed)
	}
	// Lemire's multiply-shift maps 64 random bits onto 0..n-1 with a
	// bias below n/2⁶⁴.
	hi, _ := bits.Mul64(rw.rng.Uint64(), uint64(len(rw.h.padding)))
	return 1 + int(hi)
}

// writeZstdPadding writes a skippable frame of padLen bytes after the
// compressed frame, through the first-bytes buffer, which is empty once
// compression has started.
func (rw *responseWriter) writeZstdPadding() error {
	buf := rw.appendZstdPadding(rw.buf[:0])
	rw.buf = buf[:0]
	_, err := rw.w.Write(buf)
	return err
}

// appendZstdPadding appends a skippable frame of padLen bytes to buf.
func (rw *responseWriter) appendZstdPadding(buf []byte) []byte {
	n := rw.padLen()
	buf = binary.LittleEndian.AppendUint32(buf, skippableMagic)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(n))
	return append(buf, rw.h.padding[:n]...)
}
