// Package getreset defines an Analyzer that reports pooled values written
// to before they are reset.
//
// # Analyzer getreset
//
// getreset: report pooled buffers, slices and structs written before reset
//
// sync.Pool hands back whatever was Put, as it was: a *bytes.Buffer still
// holds the previous user's bytes, a *[]T its elements, a *bufio.Writer its
// old destination and buffered data. Writing to such a value before
// resetting it mixes the previous user's content into this one's.
//
// The analyzer follows the variable a Get is assigned to through the
// statements after it, and reports the first write that no earlier reset
// covers. Writes are Write, WriteString, WriteByte, WriteRune, ReadFrom,
// fmt.Fprintf, io.Copy, json.NewEncoder, template Execute and
// ExecuteTemplate, append to the slice or to a slice field, append(*bp,
// ...) into another variable, reads of a *bufio.Reader, a function of the
// package that writes to the value it is given (a helper calling
// fmt.Fprintf on its io.Writer, or appending to a field of the struct it
// is given, a write of that field), and a Write, Read, Flush or Close, not
// deferred, of a stream wrapper with a Reset(io.Writer) or Reset(io.Reader)
// method, such as gzip.Writer, which still points at the previous user's
// stream. Resets are Reset, Truncate(0), clear, *p = (*p)[:0], any
// assignment to the value or to the field written but the write-back of an
// append to it, a helper that resets what it is given, and a method of
// another package whose name starts with Reset, whatever its arguments
// (ResetDict(r, dict), ResetReader(r)): its body is out of sight, and by
// Go's convention such a method returns the value to a fresh state. A
// method of the package itself counts only if its body resets what the
// write touches, whatever its name. It stays quiet
// when every Put of the same pool in the package resets the value first on
// every path to it (a reset in one branch of an if, or in a loop, does not
// count), when the pool is poolkit's bytebuf or slicepool (they reset on
// their own) or a pool.Pool built WithReset, and as soon as the value is
// handed to code it cannot see.
//
// Bad: the second caller's line starts with the first caller's.
//
//	func logLine(w io.Writer, msg string) {
//		b := bufPool.Get().(*bytes.Buffer)
//		b.WriteString(msg)
//		w.Write(b.Bytes())
//		bufPool.Put(b)
//	}
//
// Good: reset right after Get (or before every Put).
//
//	func logLine(w io.Writer, msg string) {
//		b := bufPool.Get().(*bytes.Buffer)
//		b.Reset()
//		b.WriteString(msg)
//		w.Write(b.Bytes())
//		bufPool.Put(b)
//	}
//
// A suggested fix inserts x.Reset() (for types with a Reset() method) or
// *x = (*x)[:0] (for pooled slices) right after the Get.
package getreset

import _ "embed"

//go:embed doc.go
var doc string
