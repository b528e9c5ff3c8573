// Command inline calls Get and Put on a bytebuf.Pool and on the package's
// default pool so that TestGetPutInline can check, from the compiler's
// assembly, that all four are inlined into their caller.
package main

import "github.com/poolkit/poolkit/bytebuf"

var buffers bytebuf.Pool

func main() {
	b := buffers.Get()
	b.WriteByte('x')
	buffers.Put(b)

	d := bytebuf.Get()
	d.WriteByte('y')
	bytebuf.Put(d)
}
