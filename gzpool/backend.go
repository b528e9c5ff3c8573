package gzpool

// The backend is the gzip implementation every pool in this package holds.
// It is chosen in this one file so that the choice can be measured and
// changed in one place: github.com/klauspost/compress/gzip has the same API
// as compress/gzip (NewWriterLevel, Writer.Reset, Reader.Reset) and writes
// standard gzip (RFC 1952) that any gzip reader accepts.
//
// Why klauspost and not compress/gzip: measured on this project's shared
// 2-core build machine (AMD EPYC, heavily loaded, so absolute times are
// slow and noisy; the ratios come from one interleaved run of
// benchmarks/gzpool, ten rounds, compared with benchstat), with both
// backends pooled the same way:
//
//   - the seed's 169-byte text: pooled compress/gzip 206 µs/op, pooled
//     klauspost 45 µs/op (4.5x faster), both 0 allocs/op; a new
//     compress/gzip Writer per call took 3.1 ms and 21 allocs/op;
//   - Isaac.Newton-Opticks.txt (567 KB): pooled compress/gzip 212 ms/op
//     at level 6, pooled klauspost 60 ms/op at its default level 5 (3.6x
//     faster), for an output of 178.3 KiB instead of 169.9 KiB (+5%);
//   - decompressing the same text, compress/gzip allocates 93 objects per
//     stream even from a pooled Reader (its inflater makes Huffman link
//     tables per dynamic block); klauspost's reuses them: 0 allocs/op in
//     steady state.
//
// 5% more bytes for a quarter of the CPU time and no garbage is the right
// trade for the hot paths this package serves (HTTP responses, RPC
// payloads); callers who want smaller output pass BestCompression.

import (
	"errors"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// gzWriter and gzReader are the backend's types.
type (
	gzWriter = gzip.Writer
	gzReader = gzip.Reader
	// byteReader is what the backend reads from without adding its own
	// buffering: an io.Reader that is also an io.ByteReader.
	byteReader = flate.Reader
)

// isFormatError reports whether err is the backend's report of invalid
// gzip or deflate data.
func isFormatError(err error) bool {
	var corrupt flate.CorruptInputError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) ||
		errors.As(err, &corrupt)
}

func newGzWriter(w *sink, level int) (*gzWriter, error) { return gzip.NewWriterLevel(w, level) }
