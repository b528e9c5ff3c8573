// Package jsonpool encodes and decodes JSON with encoding/json, the
// compatibility baseline, without the allocations that do not belong to the
// result: Marshal and AppendEncode append to a slice the caller owns
// instead of returning a copy, Encode (and EncodeN, which also returns the
// byte count) hands its output to an io.Writer in one Write through pooled
// json.Encoders (whose indentation buffers are reused too), and Unmarshal and
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
// jsonpool uses encoding/json and offers no path through
// github.com/go-json-experiment/json (encoding/json/v2), on purpose: its
// output differs from encoding/json's by default (no HTML escaping, invalid
// UTF-8 rejected, nil slices as []), it already pools its encoders, decoders
// and buffers internally, so a wrapper would save it nothing, and the module
// requires Go 1.26 while poolkit supports Go 1.24. Programs built with
// GOEXPERIMENT=jsonv2 get the v2 engine under encoding/json, and so under
// jsonpool, with v1 behaviour kept. See the README for the measurements.
//
// Decoding has a fast path of jsonpool's own as well, taken by Unmarshal,
// Decode, UnmarshalReuse and DecodeReuse for a document of up to 1 MiB
// that the validity check accepted, when T is made only of what it decodes
// exactly as
// json.Unmarshal does: bools, integers of every size (not uintptr),
// float32 and float64, strings, time.Time (through its UnmarshalJSON, as
// encoding/json calls it), pointers to these (not to pointers), slices of
// these (not []byte, which is base64), and structs of those whose fields
// are exported and not embedded, named by the field name or by a json tag
// of ASCII letters, digits, '_' and '-' with at most the omitempty and
// omitzero options. For such a type it builds, once, a plan of offsets,
// and decodes in one pass over the bytes, where encoding/json scans a
// value twice and walks the type with reflect. Every other type is
// encoding/json's: maps, interfaces, arrays, []byte, embedded fields, the
// ,string option, json.Number, the other types of package time, types
// with an UnmarshalJSON, UnmarshalText or (v2's) UnmarshalJSONFrom method,
// and field names equal but for case, '_' and '-'. So is a document in
// which the fast path meets a case it leaves to encoding/json: a value of
// the wrong JSON type for its field, an integer field's number that is out
// of range or not an integer, a float out of range, a key that matches no
// field exactly and is not ASCII (Unicode case folding, where v1 and v2
// differ, could match it), a key repeated for a struct, slice or pointer
// field (which encoding/json merges into), a time that UnmarshalJSON
// refuses. The target is then zeroed, or cleared, again and encoding/json
// decodes it, so the value and the error are encoding/json's own in every
// case; a differential fuzz target (FuzzFastDecode) checks it against
// json.Unmarshal in the default build and with GOEXPERIMENT=jsonv2. The
// fast path allocates the result's strings, exactly one per string of two
// bytes or more whether it holds escapes or not (Go keeps strings of one
// byte in a static table), its pointers' values, its
// slices' growth and what time.Time's UnmarshalJSON allocates (nothing for
// a UTC time or an offset of whole hours), and nothing else.
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

// encoder is a json.Encoder bound, once, to a sink that can be pointed at a
// caller's slice or io.Writer for the length of one call. Pooling the pair
// is what makes Encode free of the json.Encoder allocation and lets the
// encoder's indentation buffer be reused.
type encoder struct {
	sink sink
	enc  *json.Encoder
}

// sink is the io.Writer a pooled json.Encoder writes to. With w set it
// forwards the one Write of each Encode to w; otherwise it appends to dst.
type sink struct {
	w         io.Writer
	dst       []byte
	n         int  // bytes w.Write reported written
	indenting bool // the encoder indents into a buffer of its own
	failed    bool // w.Write returned an error, which json.Encoder keeps
	large     bool // the encoder indented more than maxIndentRetained bytes
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
	s.dst = append(s.dst, p...)
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
	if failed || large {
		return
	}
	encoders.Put(e)
}

// Marshal appends the JSON encoding of v to dst and returns the extended
// slice. The bytes appended are those json.Marshal(v) returns. On error dst
// is returned as it was, and the error is encoding/json's.
//
// Marshal allocates nothing of its own: when dst has room for the output,
// the call makes no allocation beyond those encoding/json makes for v's
// types (none for structs of strings, numbers and slices of them). Pass v
// as a pointer: a struct passed by value is copied into an interface,
// which allocates.
//
// v may share memory with dst, its spare capacity included (a []byte or
// json.RawMessage field that is a slice of dst's array, a string made over
// it with unsafe.String, a MarshalJSON method returning such bytes): the
// result is still right, because encoding/json encodes all of v into a
// buffer of its own before Marshal appends a byte to dst.
func Marshal(dst []byte, v any) ([]byte, error) {
	return Options{}.Marshal(dst, v)
}

// AppendEncode appends to dst exactly what json.NewEncoder(w).Encode(v)
// writes to w: the JSON encoding of v, HTML-escaped as the Encoder does by
// default, and a newline. It is Marshal with the newline kept, for a
// response body built in a buffer. On error dst is returned as it was, and
// the error is encoding/json's.
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
// single Write call, exactly as json.NewEncoder(w).Encode(v) does, with a
// pooled json.Encoder, so that indented output reuses the encoder's
// indentation buffer instead of growing a new one on every call. The bytes
// come from encoding/json's own pooled buffer and are handed to w without a
// copy; w must not keep them
// after Write returns, as the io.Writer contract says. Nothing is written
// when v cannot be encoded. Errors, from the encoding or from w, are
// returned unchanged.
func Encode(w io.Writer, v any) error {
	return Options{}.Encode(w, v)
}

// Marshal is like the package's Marshal, formatted as o says.
func (o Options) Marshal(dst []byte, v any) ([]byte, error) {
	out, err := o.AppendEncode(dst, v)
	if err != nil {
		return dst, err
	}
	// json.Encoder ends every value with a newline; json.Marshal does not.
	return out[:len(out)-1], nil
}

// AppendEncode is like the package's AppendEncode, formatted as o says.
func (o Options) AppendEncode(dst []byte, v any) ([]byte, error) {
	e := getEncoder(o)
	e.sink.dst = dst
	err := e.enc.Encode(v)
	out := e.sink.dst
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
	e.sink.w = w
	err = e.enc.Encode(v)
	n = e.sink.n
	putEncoder(e)
	return n, err
}
