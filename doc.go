// Package poolkit is the overview of a set of packages that make Go hot paths
// allocation-free, safely; it has no API of its own. Import the packages:
//
//   - pool: Pool[T], a type-safe sync.Pool with reset-on-Put (WithReset),
//     a guard against retaining oversized values (WithKeep) and statistics;
//   - slicepool: pooled slices in power-of-two size classes;
//   - bytebuf: a byte buffer with strconv-style appenders, and a pool that
//     calibrates its sizes;
//   - allocs: exact allocation counts per call, for tests;
//   - gzpool: pooled gzip into a caller's dst, streams, and Handler, an HTTP
//     compression middleware;
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
// logfmt.AccessLog(gzpool.Handler(h), out). Its comments give the ownership
// rules: what must be copied out before Put, and why WithKeep bounds what the
// pool retains. A test of this package checks that one request through that
// stack, compressed or not, allocates exactly the decoded request's own
// strings, one per non-empty string value, and nothing else but for one
// allocation every 64 responses, the slab gzpool.Handler cuts each
// response's header values from.
package poolkit
