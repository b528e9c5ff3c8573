package jsonpool

// FastEncodes reports whether the fast encode path encodes v by itself,
// with html escaping or not, and what it appends to nil: tests use it to
// check that a case they hold to encoding/json's output is the fast
// path's, not the fallback's.
func FastEncodes(v any, html bool) ([]byte, bool) {
	return appendFast(nil, v, html)
}

// AppendEncodeJSON is o.AppendEncode without the fast path: what
// AppendEncode did before it, for benchmarks to compare.
func AppendEncodeJSON(o Options, dst []byte, v any) ([]byte, error) {
	return getEncoder(o).appendEncodeJSON(dst, v, true)
}

// FastEncodesWith is FastEncodes with o's settings, indentation included,
// and the newline json.Encoder adds.
func FastEncodesWith(o Options, v any) ([]byte, bool) {
	e := getEncoder(o)
	defer putEncoder(e)
	ok := e.encodeFast(o, v)
	return append([]byte(nil), e.buf...), ok
}

// FastAppend is FastEncodes appending to dst, whose spare capacity it may
// write, as the encoder's own buffer, but nothing past it.
func FastAppend(dst []byte, v any, html bool) ([]byte, bool) {
	return appendFast(dst, v, html)
}

// FastPaths reports whether the fast encode and decode paths are built
// in: false under the poolkit_nounsafe tag, where tests of what only the
// fast paths do (their allocation counts, which types they take) skip.
const FastPaths = fastPaths
