// Package httpcompress is an HTTP middleware that compresses responses
// with zstd or gzip, as the client prefers, using pooled compressors.
//
// Handler(h) serves h with its responses compressed.
//
// # Negotiation
//
// Handler reads the request's Accept-Encoding by RFC 9110's q-values:
// coding names are case-insensitive; q=0 refuses a coding; "*" stands for
// every coding the field does not name; identity named with a higher q
// than every coding keeps the response uncompressed. Of zstd (RFC 8878)
// and gzip (also spelled x-gzip), the one with the higher q wins, zstd at
// equal q: browsers send "gzip, deflate, br, zstd" (Chrome and Edge since
// 123, Firefox since 126), and zstd at its fastest level is both cheaper
// and smaller than gzip. WithoutZstd answers with gzip only.
//
// # What it compresses
//
// A response is compressed when the method is not HEAD, the status is not
// 1xx, 204, 206 or 304, the handler set no Content-Encoding or
// Content-Range of its own, its Content-Type (set, or sniffed from the
// first 512 bytes as net/http would) is not compressed already (images
// other than SVG, BMP and icons; audio; video; WOFF fonts; zip, gzip,
// zstd, brotli, bzip2, xz, 7z and rar archives; WithContentTypes or
// WithContentTypeFilter replaces this list), and the body reaches the
// minimum size (DefaultMinSize unless WithMinSize): Handler buffers the
// first bytes to decide, or goes by the Content-Length the handler set. A
// compressed response carries Content-Encoding and no Content-Length.
// Handler adds "Vary: Accept-Encoding" to every response it might have
// compressed, whether it did or not, keeping any Vary the handler sets
// and adding nothing when that already names Accept-Encoding (or is "*").
//
// WithContentTypes("application/json", "text/*") compresses only the
// media types listed, whatever their parameters ("application/json;
// charset=utf-8" matches "application/json"); WithContentTypeFilter takes
// any predicate of the Content-Type value.
//
// # Headers
//
// Handler decides whether to compress, and sends the status and header,
// at one moment, when the response starts: when the body reaches the
// minimum size, or, for a response that cannot be compressed as its header
// stands (a request for HEAD or with no coding, a 204, an excluded type, a
// Content-Encoding of h's own), at its first byte; at the first Flush or
// Hijack; or when h returns. WriteHeader only records the status, except
// for an informational one (1xx other than 101), which goes out at once
// with the header as it stands, as net/http sends it. Until the response
// starts, the header map is h's to change, and what it holds then is both
// what decides and what is sent: a Content-Type set after WriteHeader(200)
// counts, as gzhttp lets it. Once the response has started, changes are
// not sent (but trailers), as net/http documents, and cannot contradict
// the body. net/http alone takes its copy of the header at WriteHeader, or
// at the first Write: a handler that follows its rule and sets the header
// first sees no difference; one that sets fields after WriteHeader, or
// after its first bytes, but before the response starts here, has them
// sent, where net/http would drop them. An empty Write starts nothing.
//
// Handler never sets a Content-Type h did not, but one net/http would
// have: when h sets none (not even an empty one, which tells net/http not
// to sniff), a compressed response carries the type net/http sniffs from
// the first 512 bytes of the uncompressed body, since net/http sniffs no
// type for a body with a Content-Encoding. A response started with no
// body (WriteHeader then Flush) gets no type, compressed or not, as with
// net/http.
//
// # BREACH padding
//
// A compressed response's length tells how well its parts compressed
// together: when a body holds both a secret (a CSRF token) and text an
// attacker chose (a reflected query parameter), an attacker who sees the
// lengths of many responses, though not their bytes, can guess the secret
// a character at a time (BREACH; CVE-2013-3587). WithPadding(n) adds
// 1 to n bytes to every compressed response, a length drawn afresh for
// each from a ChaCha8 generator seeded from crypto/rand: in gzip, a
// comment in the header (RFC 1952), which decoders skip; in zstd, a
// skippable frame after the compressed one (RFC 8878, section 3.1.2), 8
// bytes of header and the padding. Debian's gzip and zstd commands, curl
// (zlib and libzstd), compress/gzip and klauspost's zstd decoder read
// both, and the tests check them all. MaxPadding, 256, is the most:
// compress/gzip refuses a gzip comment over 511 bytes.
//
// Padding makes the attack cost more requests, not fail: the lengths of a
// correct and a wrong guess differ by a byte or so, and an attacker who
// repeats each guess can average the padding out (its spread, uniform
// over 1 to n, shrinks with the square root of the repetitions), so
// larger n buys more. What stops BREACH is keeping secrets out of
// compressed bodies that reflect input (or masking them anew per
// response, or not compressing those responses), and SameSite cookies
// against the cross-site requests the attack needs. Padding costs no
// allocation; gzhttp's RandomJitter is the same idea, with lengths drawn
// from a hash of the body's first bytes by default.
//
// # Ranges and validators
//
// Byte ranges and entity tags describe one representation. A compressed
// response therefore has no Accept-Ranges field, and its entity tags name
// their coding, as weak tags: "v1" and W/"v1" become W/"v1-zstd" or
// W/"v1-gzip", so the identity, gzip and zstd representations never share
// a tag, and If-Range, which never matches a weak tag, cannot splice
// ranges of two representations (a value that is not an entity tag is
// dropped). When a client revalidates a compressed copy, If-None-Match
// reaches h with each weak tag that ends in a coding's suffix followed by
// the same tag without it (W/"v1-zstd", W/"v1"), so h finds its own tag,
// and a 304 carries the compressed copy's tag back where the client sent
// it. Strong tags reach h as the client sent them, and so does every weak
// one: a handler that serves its own compressed copy under its own tag
// ("asset-gzip", as Apache's mod_deflate makes them) gets its 304s. A request that accepts a coding
// and carries Range reaches h without Range and If-Range, so it is
// answered with the whole body, compressed, never with a 206. Clients that
// want ranges ask for identity, as browsers do for media and Go's
// Transport does for a request with a Range. These changes are made on a
// copy of the request; h's own request is never modified.
//
// # Streams, hijacking, upgrades
//
// The ResponseWriter Handler passes to h implements io.StringWriter,
// without copying the string to a byte slice, and io.ReaderFrom, which
// hands a response sent as it is to the server's own ReadFrom (net/http's
// uses sendfile), and the deprecated http.CloseNotifier, with the
// server's channel. It implements http.Flusher: Flush
// sends everything written so far through the compressor to the client, so
// an event stream's events reach the client as they are flushed. It also
// unwraps for http.ResponseController, which reaches the server's
// deadlines through it. Requests that switch protocols (an Upgrade field
// with a Connection field naming "upgrade", as a websocket handshake has,
// or the CONNECT method) reach h untouched, with the server's own
// ResponseWriter. For other requests, the ResponseWriter is an
// http.Hijacker whenever the server's is (directly or through Unwrap):
// Hijack first sends what h has written, and after it Write returns
// http.ErrHijacked and Handler writes nothing more.
//
// # zstd parameters
//
// zstd responses are written at zstdpool.SpeedFastest (WithZstdLevel
// changes it) with a window of at most ZstdWindow, 256 KiB, well within the
// 8 MiB RFC 9659 lets an HTTP client require. A body of up to 128 KiB that
// reaches Handler before it finishes (most JSON and HTML responses) is one
// block in one single-segment frame, whose window is its own size. At
// SpeedFastest, Handler holds such a body until h returns, without a
// Flush, and compresses it whole with poolkit's own one-block encoder: on
// the service benchmark's 5 KB JSON receipts it spends 0.95x the
// instructions of klauspost's EncodeAll for the same bytes, building its
// entropy tables from each body alone, so that no response's bytes
// depend on another's. A
// Flush, or a body that outgrows the block, starts a stream at once, with
// what is held: at SpeedFastest, poolkit's own stream encoder, one frame
// of blocks of up to 128 KiB, each compressed like a whole body but with
// matches reaching back into the 64 to 128 KiB of the body before it,
// within ZstdWindow; a Flush sends what is held as a block at once, so an
// event stream still compresses across events. Above SpeedFastest,
// klauspost's stream encoder.
// No content checksum is written: HTTP runs over TCP and usually TLS, and
// a truncated body is still caught by zstd's last-block flag.
//
// # Cost and memory
//
// Once its pools are warm, Handler makes no allocation per response,
// compressed or not, with either coding, beyond what h allocates, but one
// for every 64 responses: the Vary and Content-Encoding values it sets are
// each response's own, never pooled nor shared, because the header map
// outlives the request, and they are cut 64 at a time from a slab that is
// never reused. Three cases cost more: sniffing a Content-Type h did not
// set, rewriting an ETag, and copying a request that carries Range or a
// revalidated compressed tag.
//
// A response being compressed holds a pooled compressor until it ends. A
// zstd one at SpeedFastest holds at most StreamMemory (1.625 MiB): the
// block being filled and the history its matches reach into (256 KiB), a
// 64 KiB match table and 10 KiB of entropy tables, the encoder's buffers
// for one block: literals (136 KiB), sequences (16 bytes each, up to one
// per 4 bytes of input: 656 KiB at worst, 136 KiB on JSON) and output (up
// to 3 times the block), and the response writer's first-bytes buffer (at
// most one block, kept so that the next response does not allocate it).
// So 64 concurrent streaming zstd responses hold at most 104 MiB; on text,
// about 615 KiB each (klauspost's stream encoder, which these responses
// used before, held about 820 KiB), and on input made of the shortest
// matches about 1.4 MiB; TestStreamMemory checks both. (A gzip one holds about 1
// MiB, the same order; a zstd one above SpeedFastest, klauspost's, holds
// match tables, a history of ZstdWindow plus one block, and more.) Compressors
// go back to their pools, which, as sync.Pools, drop them at garbage
// collections; the first-bytes buffer a pooled response writer keeps is
// capped at one block, 128 KiB. A response collecting a whole body for
// the one-block encoder holds that body, in a buffer grown to at most one
// block, within WholeBodyMemory (256 KiB), and no compressor until h
// returns;
// TestWholeBodyMemory checks it. With WithPadding, a pooled response writer also keeps
// the 320-byte generator it draws padding lengths from, seeded from
// crypto/rand when the writer first pads.
//
// If h panics, Handler neither finishes the response nor returns the
// half-used compressor to its pool; the panic goes on to the server.
package httpcompress

// StreamMemory bounds what one zstd response at SpeedFastest holds while
// it streams, the compressor's state included: see "Cost and memory".
const StreamMemory = 1664 << 10

// WholeBodyMemory bounds what one zstd response holds while it collects a
// body of up to one block to compress whole: see "Cost and memory".
const WholeBodyMemory = 256 << 10
