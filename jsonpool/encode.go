// Package jsonpool encodes and decodes JSON exactly as encoding/json does,
// without the allocations that do not belong to the result.
//
// encoding/json is the compatibility baseline; for common types jsonpool
// has an encoder and a decoder of its own whose results are encoding/json's
// (see Engine). Marshal and AppendEncode append to a slice the caller owns
// instead of returning a copy; Encode (and EncodeN, which also returns the
// byte count) hands its output to an io.Writer in one Write through pooled
// json.Encoders, whose indentation buffers are reused too; Unmarshal and
// Decode fill values taken from a pool.Pool, zeroed first, with pooled
// json.Decoders, reading streams through a pooled buffer.
//
// The output of AppendEncode, Encode and EncodeN is byte for byte that of
// json.NewEncoder(w).Encode(v), and Marshal's too but without its trailing
// newline (so json.Marshal's), HTML escaping included, unless Options says
// otherwise; the errors of every function are encoding/json's own,
// unchanged.
//
// # Ownership
//
// A *T returned by Unmarshal or Decode belongs to the caller until the
// caller puts it back in its pool. After Put the caller must not touch it
// again: copy out what you need first. Copying the struct is enough, since
// jsonpool zeroes a value before decoding into it instead of reusing the
// slices and maps it held, so a copy made before Put never shares memory
// with what the next decode writes.
//
// UnmarshalReuse and DecodeReuse are the opt-in exception: they decode
// into a value the caller holds (a field of a pooled per-request scratch
// value, say) after clearing it with Clear, which keeps the capacity of
// its slices and maps, so that in steady state only the new strings
// allocate. A copy of such a value shares its slices and maps with it: a
// copy taken before the next decode into it loses its elements. For a pool
// of such targets, make it with pool.WithReset(jsonpool.Clear[T]).
//
// # Engine
//
// Encoding has a fast path of jsonpool's own, taken by Marshal,
// AppendEncode, Encode and EncodeN (and the Options methods, indenting
// ones included) when v's type is made only of what it reproduces
// exactly: booleans, integers and floats of every size, strings (named
// string types included), []byte (base64), slices, arrays, pointers,
// time.Time, jsonpool.Time, and structs of those whose fields are
// exported, named by the field name or by a json tag with at most the
// omitempty and omitzero options, untagged embedded structs of exported
// types (directly or through a pointer) included. For such a type it
// builds, once, a plan that reads each field at its offset and appends its
// text, instead of walking the value with reflect on every call, and it
// allocates nothing (time.Time fields included, which encoding/json
// allocates for). Its output is byte for byte json.Encoder's: HTML
// escaping, the float format, invalid UTF-8, omitempty's and omitzero's
// rules, indentation, all checked against encoding/json by differential
// fuzz targets (FuzzFastEncode over values of fixed types,
// FuzzFastEncodeTypes over struct types made at run time) on both engines
// of encoding/json: v1 (the default up to Go 1.26; GOEXPERIMENT=nojsonv2
// on Go 1.27) and v2 (the default from Go 1.27; GOEXPERIMENT=jsonv2 on Go
// 1.26), which writes invalid UTF-8 as U+FFFD rather than \ufffd, as the
// fast path then does too.
//
// Every other type is encoding/json's: maps, interfaces, other embedded
// fields (tagged, of unexported types, or not structs), the ,string
// option, types with a MarshalJSON, MarshalText or AppendText method (or
// v2's MarshalJSONTo) other than the two times, json.Number, recursive
// types, omitzero on a type with an IsZero method (the two times aside),
// tag names holding quotes, backslashes or <, > and &, and field names
// equal but for case at any depth of embedding; so is a struct or array of
// one pointer's size passed by value rather than through a pointer. When
// the fast path meets a value encoding/json refuses (a NaN or infinite
// float, a time whose year is outside 0-9999), it drops what it wrote and
// encoding/json encodes v again and returns its own error.
//
// Decoding has a fast path of jsonpool's own as well, taken by Unmarshal,
// Decode, UnmarshalReuse and DecodeReuse for a document of up to 1 MiB,
// checking its syntax as it decodes, when T is made only of what it decodes
// exactly as json.Unmarshal does: bools, integers of every size (not
// uintptr), float32 and float64, strings, time.Time (through its
// UnmarshalJSON, as encoding/json calls it), pointers to these (not to
// pointers), slices of these (not []byte, which is base64), arrays of these
// ([N]byte included, which encoding/json decodes from a JSON array of
// numbers, filling the array from the front, skipping extra elements and
// leaving missing ones zero), and structs of those whose fields are
// exported and not embedded, named by the field name or by a json tag of
// ASCII letters, digits, '_' and '-' with at most the omitempty and
// omitzero options. For such a type it builds, once, a plan of offsets, and
// decodes in one pass over the bytes, where encoding/json scans a value
// twice and walks the type with reflect; the elements of an array or slice
// of integers are read in one loop over their digits. Every other type is
// encoding/json's: maps, interfaces, []byte, embedded fields, the ,string
// option, json.Number, the other types of package time, types with an
// UnmarshalJSON, UnmarshalText or (v2's) UnmarshalJSONFrom method, and
// field names equal but for case, '_' and '-'. So is a document in which
// the fast path meets a case it leaves to encoding/json: a syntax error
// (the target then keeps nothing of it: see UnmarshalReuse), a value of the
// wrong JSON type for its field or element, an integer that is out of
// range, not an integer or more than 19 digits long, a float out of range,
// a key that matches no field exactly and is not ASCII (Unicode case
// folding, where v1 and v2 differ, could match it), a key repeated for a
// struct, slice, array or pointer field (which encoding/json merges into),
// a time that UnmarshalJSON refuses. The target is then zeroed, or cleared,
// again and encoding/json decodes it, so the value and the error are
// encoding/json's own in every case; differential fuzz targets
// (FuzzFastDecode, and FuzzDecodeNumbers for numeric arrays and slices)
// check it against json.Unmarshal on both engines of encoding/json. The
// fast path allocates the result's strings, exactly one per string of two
// bytes or more whether it holds escapes or not (Go keeps strings of one
// byte in a static table), its pointers' values, its slices' growth and
// what time.Time's UnmarshalJSON allocates (nothing for a UTC time or an
// offset of whole hours), and nothing else.
//
// Built with the poolkit_nounsafe tag, jsonpool imports no unsafe: both
// fast paths are left out and encoding/json encodes and decodes every
// value, through the same pooled encoders, decoders and buffers, with the
// same outputs, values and errors, and encoding/json's allocations and
// speed. Clear then works through reflect, which allocates, and zeroes
// unexported fields instead of clearing them (reflect cannot set them),
// so their slices and maps do not keep their room.
//
// Everything else is encoding/json, with no path through
// github.com/go-json-experiment/json (encoding/json/v2), on purpose: its
// output differs from encoding/json's by default (no HTML escaping, invalid
// UTF-8 rejected, nil slices as []), it already pools its encoders, decoders
// and buffers internally, so a wrapper would save it nothing. Where
// encoding/json runs on its v2 engine (the default from Go 1.27, or
// GOEXPERIMENT=jsonv2 on Go 1.26), jsonpool does too, with v1 behaviour
// kept. The measurements are in the repository's benchmarks/README.md.
package jsonpool

import (
	"encoding/json"
	"io"

	"github.com/poolkit/poolkit/pool"
)

// Options changes how Marshal and Encode format their output. The zero
// Options produces exactly what json.NewEncoder(w).Encode(v) produces.
type Options struct {
	// NoHTMLEscape leaves <, > and & as they are inside strings instead of
	// escaping them as \u003c, \u003e and \u0026, as
	// (*json.Encoder).SetEscapeHTML(false) does.
	NoHTMLEscape bool
	// Prefix and Indent, when either is not empty, indent the output as
	// (*json.Encoder).SetIndent(Prefix, Indent) does; Marshal's output is
	// then that of json.MarshalIndent.
	Prefix, Indent string
}

// maxIndentRetained is the largest indented output, in bytes, after which a
// pooled encoder is dropped rather than kept: a json.Encoder keeps the
// buffer it indents into, and one huge document would otherwise pin that
// memory in the pool for every later small one (the limit encoding/json/v2
// and fmt use, go.dev/issue/23199).
const maxIndentRetained = 64 << 10

// maxFastRetained is the largest buffer of the fast path a pooled encoder
// keeps, for the same reason.
const maxFastRetained = 64 << 10

// encoder is a json.Encoder bound, once, to a sink that can be pointed at a
// caller's slice or io.Writer for the length of one call. Pooling the pair
// is what makes Encode free of the json.Encoder allocation and lets the
// encoder's indentation buffer be reused.
type encoder struct {
	sink sink
	enc  *json.Encoder
	buf  []byte // the fast path's output
	ibuf []byte // the fast path's output before indentation
}

// sink is the io.Writer a pooled json.Encoder writes to. With w set it
// forwards the one Write of each Encode to w; otherwise it appends to dst,
// all but the last byte written if trim is set.
type sink struct {
	w         io.Writer
	dst       []byte
	n         int  // bytes w.Write reported written
	indenting bool // the encoder indents into a buffer of its own
	failed    bool // w.Write returned an error, which json.Encoder keeps
	large     bool // the encoder indented more than maxIndentRetained bytes
	// trim holds back the last byte written, json.Encoder's newline once
	// the value is written, for Marshal: it never reaches dst, not even
	// dst's spare capacity, which belongs to the caller. held says
	// whether last holds a byte not yet appended.
	trim, held bool
	last       byte
}

func (s *sink) Write(p []byte) (int, error) {
	if s.indenting && len(p) > maxIndentRetained {
		s.large = true
	}
	if s.w != nil {
		n, err := s.w.Write(p)
		s.n += n
		if err != nil {
			s.failed = true
		}
		return n, err
	}
	if !s.trim {
		s.dst = append(s.dst, p...)
		return len(p), nil
	}
	if len(p) == 0 {
		return 0, nil
	}
	if s.held {
		s.dst = append(s.dst, s.last)
	}
	s.dst = append(s.dst, p[:len(p)-1]...)
	s.last, s.held = p[len(p)-1], true
	return len(p), nil
}

// encoders holds *encoder: pointers, so sync.Pool stores them without an
// interface allocation.
var encoders = pool.New(func() *encoder {
	e := new(encoder)
	e.enc = json.NewEncoder(&e.sink)
	return e
})

// getEncoder returns a pooled encoder set up for o.
func getEncoder(o Options) *encoder {
	e := encoders.Get()
	e.enc.SetEscapeHTML(!o.NoHTMLEscape)
	e.enc.SetIndent(o.Prefix, o.Indent)
	e.sink.indenting = o.Prefix != "" || o.Indent != ""
	return e
}

// putEncoder drops e's references to the caller's writer and slice, so the
// pool pins neither, and keeps e unless its json.Encoder is no longer
// usable: after a Write error a json.Encoder returns that error from every
// later Encode, and after a large indented document it holds a large
// buffer.
func putEncoder(e *encoder) {
	failed, large := e.sink.failed, e.sink.large
	e.sink = sink{}
	if cap(e.buf) > maxFastRetained {
		e.buf = nil
	}
	if cap(e.ibuf) > maxFastRetained {
		e.ibuf = nil
	}
	if failed || large {
		return
	}
	encoders.Put(e)
}

// Marshal appends the JSON encoding of v to dst and returns the extended
// slice. The bytes appended are those json.Marshal(v) returns. On error dst
// is returned as it was, and the error is encoding/json's. Nothing of dst's
// spare capacity beyond the returned length is written, on success or
// error, so dst may be a sub-slice of a buffer shared with other data.
//
// Marshal allocates nothing of its own: when dst has room for the output,
// the call makes no allocation beyond those encoding/json makes for v's
// types, and none at all for the types of the fast path (see Engine in the
// package doc). Pass v as a pointer: a struct passed by value is copied
// into an interface, which allocates.
//
// v may share memory with dst, its spare capacity included (a []byte or
// json.RawMessage field that is a slice of dst's array, a string made over
// it with unsafe.String, a MarshalJSON method returning such bytes): the
// result is still right, because all of v is encoded into a buffer of its
// own (encoding/json's, or the fast path's, see Engine in the package doc)
// before Marshal appends a byte to dst.
func Marshal(dst []byte, v any) ([]byte, error) {
	return Options{}.Marshal(dst, v)
}

// AppendEncode appends to dst exactly what json.NewEncoder(w).Encode(v)
// writes to w: the JSON encoding of v, HTML-escaped as the Encoder does by
// default, and a newline. It is Marshal with the newline kept, for a
// response body built in a buffer. On error dst is returned as it was, and
// the error is encoding/json's; like Marshal, it writes nothing of dst's
// spare capacity beyond the returned length. Structs of numbers, strings,
// slices, pointers and times take the fast path described under Engine in
// the package doc, with the same output; other types go through a pooled
// json.Encoder.
//
// Like Marshal, AppendEncode allocates nothing of its own when dst has
// room for the output, and gives the right result when v shares memory
// with dst.
func AppendEncode(dst []byte, v any) ([]byte, error) {
	return Options{}.AppendEncode(dst, v)
}

// EncodeN is Encode that also returns the number of bytes written to w, as
// w's Write reported it, for an access log or a metric that counts response
// bytes without wrapping w. n is 0 when v cannot be encoded; after a Write
// error it is what Write returned with the error.
func EncodeN(w io.Writer, v any) (n int, err error) {
	return Options{}.EncodeN(w, v)
}

// Encode writes the JSON encoding of v, followed by a newline, to w in a
// single Write call, exactly as json.NewEncoder(w).Encode(v) does: through
// the fast path (see Engine in the package doc) into a pooled buffer for
// the types it takes, otherwise with a pooled json.Encoder, so that
// indented output reuses the encoder's indentation buffer instead of
// growing a new one on every call. The bytes come from a pooled buffer
// (jsonpool's or encoding/json's) and are handed to w without a copy; w
// must not keep them after Write returns, as the io.Writer contract says.
// Nothing is written when v cannot be encoded. Errors, from the encoding
// or from w, are returned unchanged.
func Encode(w io.Writer, v any) error {
	return Options{}.Encode(w, v)
}

// Marshal is like the package's Marshal, formatted as o says.
func (o Options) Marshal(dst []byte, v any) ([]byte, error) {
	// json.Encoder ends every value with a newline; json.Marshal does not.
	return o.appendEncode(dst, v, false)
}

// encodeFast encodes v with the fast path into e.buf,
// newline included, indented as o says, and reports whether it did: false
// when v's type has no plan or encoding/json would return an error for v,
// so that encoding/json must encode v.
func (e *encoder) encodeFast(o Options, v any) bool {
	b, ok := appendFast(e.buf[:0], v, !o.NoHTMLEscape)
	if ok {
		b = append(b, '\n')
	}
	e.buf = b
	if ok && (o.Prefix != "" || o.Indent != "") {
		e.ibuf = appendIndent(e.ibuf[:0], e.buf, o.Prefix, o.Indent)
		e.buf, e.ibuf = e.ibuf, e.buf
	}
	return ok
}

// AppendEncode is like the package's AppendEncode, formatted as o says.
func (o Options) AppendEncode(dst []byte, v any) ([]byte, error) {
	return o.appendEncode(dst, v, true)
}

// appendEncode appends what json.Encoder writes for v to dst, its final
// newline only if newline is set: nothing else of dst is written, its
// spare capacity included.
func (o Options) appendEncode(dst []byte, v any, newline bool) ([]byte, error) {
	e := getEncoder(o)
	if e.encodeFast(o, v) {
		// Encoded into e's buffer and copied, rather than appended to dst
		// directly, so that v's strings and slices may lie in dst's spare
		// capacity, as Marshal's doc allows.
		out := e.buf
		if !newline {
			out = out[:len(out)-1]
		}
		dst = append(dst, out...)
		putEncoder(e)
		return dst, nil
	}
	return e.appendEncodeJSON(dst, v, newline)
}

// appendEncodeJSON is appendEncode through e's json.Encoder, which it
// puts back in the pool.
func (e *encoder) appendEncodeJSON(dst []byte, v any, newline bool) ([]byte, error) {
	e.sink.dst = dst
	e.sink.trim = !newline
	err := e.enc.Encode(v)
	out := e.sink.dst // with trim, all but the newline that ends every value
	putEncoder(e)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// Encode is like the package's Encode, formatted as o says.
func (o Options) Encode(w io.Writer, v any) error {
	_, err := o.EncodeN(w, v)
	return err
}

// EncodeN is like the package's EncodeN, formatted as o says.
func (o Options) EncodeN(w io.Writer, v any) (n int, err error) {
	e := getEncoder(o)
	if e.encodeFast(o, v) {
		n, err = w.Write(e.buf)
		putEncoder(e)
		return n, err
	}
	e.sink.w = w
	err = e.enc.Encode(v)
	n = e.sink.n
	putEncoder(e)
	return n, err
}
