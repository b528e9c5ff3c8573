package jsonpool

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
)

// NewPool returns a pool of decode targets for Unmarshal and Decode. Its New
// makes a zero T, and its Put zeroes each value it keeps, so that a value
// waiting in the pool pins none of the strings, slices and maps of its last
// use.
//
// Any *pool.Pool[*T] works with Unmarshal and Decode, including the zero
// Pool: they zero the value they take before decoding into it whatever the
// pool's reset does.
func NewPool[T any]() *pool.Pool[*T] {
	return pool.New(func() *T { return new(T) }, pool.WithReset(zero[T]))
}

// zero sets *v to the zero T and returns v.
func zero[T any](v *T) *T {
	var z T
	*v = z
	return v
}

// getTarget takes a value from p and zeroes it, so that no field, map entry
// or slice element of an earlier use survives into this one. Zeroing drops
// the value's slices and maps instead of letting encoding/json decode into
// them in place: the result then never shares memory with a result handed
// out earlier, which a caller may still hold a copy of.
func getTarget[T any](p *pool.Pool[*T]) *T {
	if v := p.Get(); v != nil {
		return zero(v)
	}
	return new(T)
}

// Unmarshal decodes data into a *T taken from p and zeroed first, and
// returns it. The result belongs to the caller, who puts it back into p
// when done with it and must not use it, nor anything it points to that
// was not copied out, after that.
//
// Unmarshal accepts exactly what json.Unmarshal accepts, one JSON value
// with optional white space around it, and produces the same value. Like
// json.Unmarshal it checks that the whole of data is valid JSON before
// encoding/json decodes anything, so an input with trailing data
// ({"a":1} x, {"a":1}{}) runs no UnmarshalJSON method of the caller's
// types (the fast path below, for types that have none, checks the syntax
// as it decodes, and drops what it decoded when it finds an error); and it
// decodes valid input once, so every UnmarshalJSON method runs exactly as
// often as under json.Unmarshal, type errors included. (On encoding/json's
// v2 engine, the default from Go 1.27, json.Unmarshal itself decodes
// before it finds trailing data; Unmarshal then does what json.Unmarshal
// does.) On error it returns json.Unmarshal's error, unchanged, and a nil
// *T; the value it took goes back into p zeroed, with nothing of the
// failed decode in it.
//
// When T is made only of the types jsonpool's fast decode path supports
// (see Engine in the package doc: numbers, bools, strings, time.Time,
// structs, slices, arrays and pointers of those), Unmarshal decodes valid input in
// one pass of its own that also checks the syntax, with the value
// json.Unmarshal produces; where that path meets anything it leaves to
// encoding/json (a syntax error, a value of the wrong JSON type, a number
// out of range, a key that only Unicode case folding could match), it
// zeroes the value again and decodes as below, so that the value, and the
// error, are encoding/json's. On the fast path Unmarshal
// allocates exactly one string per non-empty string in the result (none
// for a string of one byte, which Go keeps in a static table), escaped or
// not (encoding/json allocates two for a string with an escape), one value
// per non-null pointer, the growth of its slices, and what time.Time's
// UnmarshalJSON allocates (nothing for a UTC time or an offset of whole
// hours).
//
// Otherwise Unmarshal decodes with a pooled json.Decoder, whose decoder
// state and read buffer are reused from call to call, so in steady state
// it allocates only what the result itself holds: its strings, and its
// slices and maps as they grow. (encoding/json's Unmarshal adds four
// allocations of decoder state per call.) The result shares no memory with
// data.
func Unmarshal[T any](p *pool.Pool[*T], data []byte) (*T, error) {
	v := getTarget(p)
	var err error
	if len(data) > maxDecodeRetained {
		// Too large for a pooled decoder.
		err = json.Unmarshal(data, v)
	} else {
		// The fast path goes first, and checks the syntax as it
		// decodes; where it gives up, it says whether isValid (json.Valid's
		// check, made faster) accepts data.
		switch fastDecode(data, v, false) {
		case fastDone:
			return v, nil
		case fastValid:
			// One valid value and white space: the pooled decoder
			// reads exactly that value, and returns json.Unmarshal's
			// error for it.
			err = decodeValid(data, zero(v))
		default:
			// Invalid input, whose syntax error json.Unmarshal
			// reports before it decodes anything, or a document
			// nested deeper than isValid checks.
			err = json.Unmarshal(data, zero(v))
		}
	}
	if err != nil {
		p.Put(zero(v))
		return nil, err
	}
	return v, nil
}

// fastResult is the outcome of fastDecode.
type fastResult uint8

const (
	fastDone    fastResult = iota // decoded; the document is valid
	fastValid                     // not decoded; isValid accepts the document
	fastInvalid                   // not decoded; isValid refuses the document
)

// validity returns fastValid if isValid accepts data, else fastInvalid.
func validity(data []byte) fastResult {
	if isValid(data) {
		return fastValid
	}
	return fastInvalid
}

// maxDecodeRetained is the largest document, in bytes, that Unmarshal
// decodes with a pooled decoder. A json.Decoder keeps a copy of what it
// read in a buffer that grows to about twice the largest document; sync.Pool
// keeps a decoder per P and more, so a decoder that served a huge document
// would pin that memory for every later small one. Larger documents go
// straight to json.Unmarshal: its four allocations of decoder state are
// nothing next to decoding that many bytes, and it reads data in place
// where a decoder would copy it.
const maxDecodeRetained = 1 << 20

// decoder is a json.Decoder bound, once, to a source that is pointed at
// the caller's bytes for the length of one call.
type decoder struct {
	src source
	dec *json.Decoder
}

// source is the io.Reader a pooled json.Decoder reads: the bytes of the
// current call, then io.EOF.
type source struct {
	data []byte
}

func (s *source) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.data)
	s.data = s.data[n:]
	return n, nil
}

// decoders holds *decoder, a pointer, which sync.Pool stores without an
// interface allocation.
var decoders = pool.New(func() *decoder {
	d := new(decoder)
	d.dec = json.NewDecoder(&d.src)
	return d
})

// decodeValid decodes data, which isValid accepted, into v with a pooled
// json.Decoder, and returns the decoder's error. For one valid value the
// decoder does what json.Unmarshal does after its validity check: it
// decodes the value once and returns the same error, its offset corrected
// for the white space before the value.
//
// The decoder goes back into its pool only when it is exactly as a fresh
// one would be but for its reused buffers: it read all of data and stopped
// at the end of the value, so it holds nothing unread, and it met no
// error, which a json.Decoder may keep and return from every later call.
func decodeValid(data []byte, v any) error {
	body := trimRightSpace(data)
	// The decoder reads from the value's first byte: encoding/json v1
	// counts the offsets of its errors from the start of what it read,
	// and v2 (GOEXPERIMENT=jsonv2) from the value's start in either case.
	// Adding the white space cut here gives json.Unmarshal's offsets in
	// both.
	lead := len(body) - len(trimLeftSpace(body))
	body = body[lead:]
	d := decoders.Get()
	d.src.data = body
	start := d.dec.InputOffset()
	err := d.dec.Decode(v)
	ok := err == nil && d.dec.InputOffset()-start == int64(len(body))
	d.src.data = nil // pin nothing of the caller's
	if ok {
		decoders.Put(d)
	}
	if te, isType := err.(*json.UnmarshalTypeError); isType {
		te.Offset += int64(lead)
	}
	return err
}

// trimLeftSpace returns b without the JSON white space at its start.
func trimLeftSpace(b []byte) []byte {
	return b[skipSpace(b, 0):]
}

// trimRightSpace returns b without the JSON white space at its end.
func trimRightSpace(b []byte) []byte {
	for len(b) > 0 {
		switch b[len(b)-1] {
		case ' ', '\t', '\n', '\r':
			b = b[:len(b)-1]
		default:
			return b
		}
	}
	return b
}

// readBuffers holds the buffers Decode reads its input into. A pool of its
// own calibrates to the sizes of the documents decoded, apart from the
// sizes of other buffers in the program, and drops the buffers of rare huge
// documents instead of keeping them.
var readBuffers bytebuf.Pool

// Decode reads r to the end into a pooled buffer and decodes what it read,
// as Unmarshal does, into a *T taken from p and zeroed first. It suits a
// body that holds one JSON document, such as an HTTP request's: wrap r in
// http.MaxBytesReader or io.LimitReader to bound how much it reads.
//
// Unlike json.Decoder, which reads one value and leaves the rest of the
// stream unread, Decode reads to io.EOF and, like json.Unmarshal, reports
// anything but white space after the value as an error. A read error from r
// is returned unchanged; so is json.Unmarshal's error for the bytes read. On
// any error the result is nil and the value taken from p goes back zeroed.
//
// The read buffer returns to its pool before Decode does: the result shares
// no memory with it. In steady state Decode allocates only what Unmarshal
// does: what the result holds.
func Decode[T any](p *pool.Pool[*T], r io.Reader) (*T, error) {
	buf := readBuffers.Get()
	defer readBuffers.Put(buf)
	var err error
	if buf.B, err = readAll(buf.B[:0], r); err != nil {
		return nil, err
	}
	return Unmarshal(p, buf.B)
}

// readAll appends what r yields until io.EOF to b. Unlike
// bytebuf.Buffer.ReadFrom, which makes room for 512 bytes before every
// Read, it grows b only when b is full, so that a pooled buffer calibrated
// to the size of the documents read (64 bytes for the sample struct) serves
// them as it is, instead of growing past what its pool keeps and being
// dropped on every call.
func readAll(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow as append does
		}
		n, err := r.Read(b[len(b):cap(b)])
		if n < 0 || n > cap(b)-len(b) {
			return b, errBadRead
		}
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

var errBadRead = errors.New("jsonpool: reader returned an invalid count from Read")
