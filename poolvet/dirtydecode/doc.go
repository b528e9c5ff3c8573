// Package dirtydecode defines an Analyzer that reports decoding into a
// pooled value that was not zeroed first.
//
// # Analyzer dirtydecode
//
// dirtydecode: report json/xml/gob decoding into a pooled struct or map not zeroed after Get
//
// encoding/json, encoding/xml and encoding/gob decode into the value they
// are given: struct fields the input does not mention keep their old
// values, and a map keeps its old entries. With a value from a pool, those
// old values are the previous user's: an optional field missing from this
// request reads as the last request's.
//
// The analyzer follows the variable a Get from a sync.Pool (or from a
// poolkit pool.Pool built without WithReset) is assigned to, and reports
// json.Unmarshal, xml.Unmarshal, (*json.Decoder).Decode,
// (*xml.Decoder).Decode and DecodeElement, (*gob.Decoder).Decode and the
// json v2 Unmarshal functions into it (or into its address) when nothing
// zeroed it first: *p = T{}, p.Reset(), clear(m), or a method of p (which
// may reset it). It stays quiet when every Put of the pool in the package
// zeroes the value first. Decoders that reset their target themselves
// (protobuf's Unmarshal) are not listed; YAML and TOML libraries are left
// out until their merge rules are checked.
//
// Bad: a request without "items" gets the previous request's items.
//
//	func decode(data []byte) (*Request, error) {
//		r := reqPool.Get().(*Request)
//		if err := json.Unmarshal(data, r); err != nil {
//			reqPool.Put(r)
//			return nil, err
//		}
//		return r, nil
//	}
//
// Good: zero right after Get.
//
//	func decode(data []byte) (*Request, error) {
//		r := reqPool.Get().(*Request)
//		*r = Request{}
//		if err := json.Unmarshal(data, r); err != nil {
//			reqPool.Put(r)
//			return nil, err
//		}
//		return r, nil
//	}
//
// A suggested fix inserts *p = T{} (or p.Reset(), or clear(m) for maps)
// right after the Get.
package dirtydecode

import _ "embed"

//go:embed doc.go
var doc string
