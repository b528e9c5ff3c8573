// Command inline calls Get and Put on a pointer-shaped Pool so that
// TestGetPutInline can check, from the compiler's -m output, that both are
// inlined into their caller.
package main

import "github.com/poolkit/poolkit/pool"

type object struct{ id int }

var objects = pool.New(func() *object { return new(object) })

func main() {
	o := objects.Get()
	o.id++
	objects.Put(o)
}
