package gzpool

// The backend is the gzip implementation every pool in this package holds:
// the readers here, the writers in internal/encpool, which the
// httpcompress middleware shares. github.com/klauspost/compress/gzip has
// the same API as compress/gzip (NewWriterLevel, Writer.Reset,
// Reader.Reset) and writes standard gzip (RFC 1952) that any gzip reader
// accepts.
//
// Why klauspost and not compress/gzip, with figures: see "Choice of
// backend" in the package documentation (gzpool.go).

import (
	"errors"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// gzReader is the backend's reader type.
type (
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
