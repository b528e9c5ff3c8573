// Package poolkit is the overview of a set of packages that make Go hot paths
// allocation-free, safely; it has no API of its own. Import the packages:
//
//   - pool: Pool[T], a type-safe sync.Pool with reset-on-Put (WithReset),
//     a guard against retaining oversized values (WithKeep) and statistics;
//   - slicepool: pooled slices in power-of-two size classes;
//   - bytebuf: a byte buffer with strconv-style appenders, and a pool that
//     calibrates its sizes;
//   - allocs: exact allocation counts per call, for tests;
//   - gzpool and zstdpool: pooled gzip and zstd into a caller's dst, with
//     decompression limits, and streams;
//   - httpcompress: an HTTP middleware answering zstd or gzip as the client
//     prefers;
//   - jsonpool: encoding/json into a caller's dst (Marshal, AppendEncode),
//     and decoding into pooled or reused values (Unmarshal, UnmarshalReuse);
//   - logfmt: logfmt lines, a log/slog handler, and AccessLog, an HTTP
//     access-log middleware;
//   - sqlinterp: client-side interpolation of MySQL and MariaDB queries
//     into a caller's dst, with typed arguments (Args) that are never boxed;
//   - poolstats: named pools' counts published to expvar (and, through
//     the nested module poolprom, to Prometheus);
//   - poolvet: analyzers that catch sync.Pool misuse.
//
// # A whole request: the recipe
//
// Example (Handler) in this package is an HTTP handler built from them as
// a service would be: it takes one per-request scratch value from a pool.Pool
// (made with pool.New, pool.WithReset and pool.WithKeep) holding every buffer
// the request needs, decodes the request body into it with
// jsonpool.UnmarshalReuse, interpolates INSERTs parsed once
// (sqlinterp.MustParse) into a MySQL packet buffer with Query.AppendArgs,
// encodes the response with jsonpool.AppendEncode, writes it once, and
// puts the scratch value back; it is served behind
// logfmt.AccessLog(httpcompress.Handler(h), out). Its comments give the ownership
// rules: what must be copied out before Put, and why WithKeep bounds what the
// pool retains. A test of this package checks that one request through that
// stack, compressed or not, allocates exactly the decoded request's own
// strings, one per non-empty string value, and nothing else but for one
// allocation every 64 responses, the slab httpcompress.Handler cuts each
// response's header values from.
//
// # Checked mode
//
// poolvet sees what it can prove from the source; the rest (aliases through
// interfaces, channels, goroutines) shows at run time. Run the tests, or a
// canary build, with one tag:
//
//	go test -tags poolkitcheck ./...
//
// Without the tag nothing changes: the checks sit behind a constant, so the
// compiler drops them and Get and Put inline as before. With it, for
// pool.Pool (every shape of T, with or without options), slicepool.Pool,
// bytebuf.Pool and bytebuf.Get/Put, and so for the pools inside the other
// packages:
//
//   - The same value Put twice panics at the second Put, naming the first:
//     "poolkit: bytebuf.Buffer Put again after Put (first Put at main.go:82)".
//   - A read or write after Put of a bytebuf.Buffer's bytes, or of a slicepool
//     slice of pointer-free elements, faults: that memory is its own mmap'd
//     pages, protected PROT_NONE while pooled, so the trace's first frame
//     after runtime.sigpanic is the offending line.
//   - A bytebuf.Buffer method called after Put panics at once.
//   - A write after Put to Go-heap memory (pool.Pool values, slices of
//     pointers) is found by a checksum of the memory the value owns, taken
//     after the reset at Put and verified when the value leaves the pool and
//     every 128 Gets and Puts.
//
// A pool holds the last 256 values Put (128 buffers; fewer when they are
// large, up to 16 MiB) in a quarantine before reusing them, as
// AddressSanitizer does, so a stale alias keeps faulting, or keeps being
// checked, for that long. Buffers grown by appending to Buffer.B directly
// land on the Go heap; the next method call or Put moves them back into
// checked pages.
//
// What it cannot catch: a read after Put of memory on the Go heap (values
// from your New, slices of pointer types, the heap array a direct append to
// Buffer.B made); memory the pool never allocated (only checksummed);
// writes behind a pooled value's nested pointers; a write after Put to a
// value the pool's keep function dropped; and a use after the value left the
// quarantine. Page protection is Linux's; elsewhere the bytes are poisoned
// with 0xDB at Put and checked at reuse. Checked mode costs an mprotect call
// per Put and Get of checked memory and holds more memory; allocation
// assertions skip under the tag as under -race.
package poolkit
