//go:build poolkit_nounsafe

package jsonpool

import "reflect"

// Built with the poolkit_nounsafe tag, jsonpool imports no unsafe: its
// fast encode and decode paths, which read and write values through
// unsafe.Pointer at planned offsets, are left out, and encoding/json
// encodes and decodes every value, through the same pooled encoders,
// decoders and buffers. Outputs, results and errors are the same as
// without the tag; what changes is the cost (the allocations and time of
// encoding/json) and, for Clear, unexported fields: reflect can read but
// not write them, so Clear zeroes a struct's unexported fields instead of
// clearing them in place, and their slices and maps lose their room.

// fastPaths says the fast paths are left out.
const fastPaths = false

// appendFast reports that it encoded nothing: encoding/json encodes v.
func appendFast(b []byte, _ any, _ bool) ([]byte, bool) { return b, false }

// fastDecode decodes nothing and says whether isValid accepts data, as
// the fast path does for a type it does not support.
func fastDecode[T any](data []byte, _ *T, _ bool) fastResult { return validity(data) }

// clearValue clears *v as Clear documents, through reflect.
func clearValue[T any](v *T) {
	clearReflect(reflect.ValueOf(v).Elem())
}

// clearReflect clears v, which is settable, by Clear's rule.
func clearReflect(v reflect.Value) {
	switch v.Kind() {
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetZero() // byte slices become nil: see Clear
			return
		}
		if v.Cap() == 0 {
			return
		}
		all := v.Slice3(0, v.Cap(), v.Cap())
		for i := 0; i < all.Len(); i++ {
			clearReflect(all.Index(i))
		}
		v.SetLen(0)
	case reflect.Map:
		if !v.IsNil() {
			v.Clear()
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			clearReflect(v.Index(i))
		}
	case reflect.Struct:
		t := v.Type()
		dirty := false // an unexported field, which reflect cannot set, is not zero
		for i := 0; i < t.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				clearReflect(f)
			} else if !f.IsZero() {
				dirty = true
			}
		}
		if dirty {
			// Rewrite the whole struct: the exported fields, cleared
			// above, as they are, the unexported ones zero.
			z := reflect.New(t).Elem()
			for i := 0; i < t.NumField(); i++ {
				if f := v.Field(i); f.CanSet() {
					z.Field(i).Set(f)
				}
			}
			v.Set(z)
		}
	default:
		v.SetZero()
	}
}
