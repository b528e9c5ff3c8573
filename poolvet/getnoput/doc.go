// Package getnoput defines an Analyzer that reports return paths on which a
// value taken from a pool is dropped instead of put back.
//
// # Analyzer getnoput
//
// getnoput: report pooled values dropped on some return path without Put
//
// A value taken from a pool and not put back is not a leak: the garbage
// collector frees it. But the pool has to allocate a new one for the next
// Get, which is the cost pooling was meant to avoid; on a hot error path
// the pool stops paying for itself.
//
// The analyzer looks at functions that take a value with Get and put it
// back with a plain (not deferred) Put, and follows the control-flow graph
// from the Get. It reports each return (or the end of the function) that is
// reachable without the value being put back, returned, passed to another
// function, stored, or tested in a condition (a capacity guard that drops
// large buffers on purpose is fine). Paths ending in panic, os.Exit or
// log.Fatal are not reported, nor are functions that defer the Put or
// refer to the value from a closure. A pool without New is followed
// through the usual fallback (r, ok := pool.Get().(*gzip.Reader); if !ok {
// r, err = gzip.NewReader(src) }): both branches hold a reader to put
// back. Calling Reset, Len, Cap, Bytes or String on the value, even for a
// type of another module, does not hand it on; other methods of other
// modules may.
//
// In a loop, a continue (or a break, when the value is declared in the
// loop) that leaves the iteration holding the value before it is put back
// or handed on is reported at the continue or break. And a Get from a
// pool nothing in the package puts back into (an unexported variable or
// field, named only by its Gets and its set-up) is reported at the Get:
// such a pool allocates on every Get. A Put that never runs counts as
// none: one after an early return on a flag that is always true, a
// constant or an unexported package variable nothing assigns (func
// release(b *T) { if !reuse { return }; pool.Put(b) }). A value of interface type (h :=
// pool.Get().(hash.Hash)) that a function gets and never puts back nor
// hands on, only calling its methods, is reported at the Get too. Test
// files are left out of these two rules.
//
// A function that puts back a buffer it is given owns it: the check
// follows a parameter that the function puts back whenever it gets that
// far (a Put outside loops, switches and closures, and inside ifs only
// when they test the buffer itself, as if cap(m) == size { pool.Put(m) }
// does), and reports a return on the failure of something done with the
// buffer (n, err := parse(m); if err != nil { return }) that neither puts
// it back nor hands it on. On the way, calls of the package's functions
// that only read the buffer, standard library functions that take it as
// a slice or pointer and return no memory, and a function value that the
// same function calls elsewhere before putting the buffer back do not
// hand it on. A return on anything else (a flag, if !reuse { return }) is
// not reported: the caller may keep the buffer then.
//
// Bad: the error path drops the buffer.
//
//	func encode(w io.Writer, v any) error {
//		b := bufPool.Get().(*bytes.Buffer)
//		b.Reset()
//		if err := json.NewEncoder(b).Encode(v); err != nil {
//			return err
//		}
//		_, err := w.Write(b.Bytes())
//		bufPool.Put(b)
//		return err
//	}
//
// Good: put back on every path, most simply with defer.
//
//	func encode(w io.Writer, v any) error {
//		b := bufPool.Get().(*bytes.Buffer)
//		defer bufPool.Put(b)
//		b.Reset()
//		if err := json.NewEncoder(b).Encode(v); err != nil {
//			return err
//		}
//		_, err := w.Write(b.Bytes())
//		return err
//	}
package getnoput

import _ "embed"

//go:embed doc.go
var doc string
