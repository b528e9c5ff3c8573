package jsonpool

import (
	"encoding/json"
	"io"
)

// Clear empties *v for reuse as a decode target while keeping the capacity
// of its slices and maps, and returns v. After Clear no value of v's
// previous use can be read through v: every field, element and entry that
// held one is zero, deleted or beyond a length of 0. The rule, applied
// from *v down:
//
//   - numbers, bools and strings become zero ("" for strings: a string's
//     bytes cannot be reused);
//   - pointers, interfaces, funcs and channels become nil: what they point
//     to is dropped, not reused, so that a document that leaves the field
//     out decodes to nil as it does into a fresh value;
//   - a slice gets length 0 and keeps its backing array, every element of
//     which, up to its capacity, is cleared by this same rule (so the
//     elements' own slices and maps keep their capacity too), except that
//     a slice of bytes ([]byte, json.RawMessage) becomes nil: encoding/json
//     decodes base64 into a new slice anyway, and an empty json.RawMessage
//     that is not nil would not marshal;
//   - a map is emptied with clear, which keeps the room it had;
//   - struct fields, exported or not, and array elements are cleared by
//     this same rule.
//
// Clear allocates nothing, except once per type to plan the work. It
// panics if v is nil. (Built with the poolkit_nounsafe tag, Clear
// allocates, and zeroes unexported fields: see the package doc.)
//
// What differs from a fresh value: a slice or a map that the next document
// leaves out stays empty but not nil (json.Marshal writes it as [] or {},
// not null), and a copy of a cleared value shares its backing arrays and
// maps with it, so a copy taken before Clear or before the next decode
// into v does not keep its elements. Use Unmarshal with a pool made by
// NewPool when copies must stay intact.
func Clear[T any](v *T) *T {
	if v == nil {
		panic("jsonpool: Clear of a nil pointer")
	}
	clearValue(v)
	return v
}

// UnmarshalReuse clears v with Clear, keeping the capacity of its slices
// and maps, and decodes data into it as Unmarshal does: the same
// validation of the whole input before encoding/json decodes anything, the
// same value, and json.Unmarshal's error. On error v is cleared again, so
// that nothing of a failed decode remains in it. After a syntax error v's
// slices have the capacities they had, and are nil where they were, as
// json.Unmarshal, which checks the whole document before it writes, leaves
// them: where the fast path (see Unmarshal), which checks the syntax as it
// decodes, grew a slice or set it to nil or empty before it found the
// error, it puts the slice back. (On encoding/json's v2 engine, the
// default from Go 1.27, json.Unmarshal decodes before it finds trailing
// data, and may grow them.)
//
// For a T the fast decode path supports (see Unmarshal), a decode that it
// completes into a warmed target, once its slices have grown to the
// largest document, allocates the result's strings, exactly one per string of two bytes or
// more, escaped or not, one value per non-null pointer and what
// time.Time's UnmarshalJSON allocates (nothing for a UTC time or an offset
// of whole hours), and nothing else.
//
// For other types encoding/json decodes into the cleared target: it
// appends a slice's elements into its kept backing array, decodes into the
// cleared elements there (whose own slices and maps have kept their room),
// and adds map entries to the emptied maps; in steady state, once
// capacities have grown to the largest document, a decode allocates only
// the new strings (one per non-empty string value or map key without
// escapes), and, for each JSON object decoded into a Go map, encoding/json
// v1's own holders: one for the object's values and one per key. (On
// encoding/json's v2 engine, the default from Go 1.27, the counts are its
// own: its decoder keeps recent strings in a table, and jsonpool reuses
// decoders, so a string of the previous document may come back without an
// allocation.)
//
// Either way the result equals json.Unmarshal's into a fresh value, except
// that slices and maps the document leaves out are empty rather than nil
// (see Clear).
//
// v is the caller's, for example a field of a per-request scratch value
// taken from a pool.Pool whose reset is Clear (pool.WithReset(Clear[T])),
// with a pool.WithKeep that drops values whose slices grew too large.
func UnmarshalReuse[T any](v *T, data []byte) error {
	Clear(v)
	var err error
	if len(data) > maxDecodeRetained {
		err = json.Unmarshal(data, v)
	} else {
		// The fast path, where T allows it, checks the syntax as it
		// decodes; where it gives up, v is cleared again, and for
		// invalid input its slices are as the first Clear left them.
		switch fastDecode(data, v, true) {
		case fastDone:
			return nil
		case fastValid:
			err = decodeValid(data, Clear(v))
		default:
			err = json.Unmarshal(data, Clear(v))
		}
	}
	if err != nil {
		Clear(v)
	}
	return err
}

// DecodeReuse reads r to the end into a pooled buffer, as Decode does, and
// decodes what it read into v with UnmarshalReuse. A read error is returned
// unchanged, with v cleared.
func DecodeReuse[T any](v *T, r io.Reader) error {
	buf := readBuffers.Get()
	defer readBuffers.Put(buf)
	var err error
	if buf.B, err = readAll(buf.B[:0], r); err != nil {
		Clear(v)
		return err
	}
	return UnmarshalReuse(v, buf.B)
}
