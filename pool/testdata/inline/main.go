// Command inline calls Get and Put on a pointer-shaped Pool, and GetPtr
// and PutPtr on a Pool of slices, so that TestGetPutInline can check, from
// the compiler's -m output, that all four are inlined into their caller.
package main

import "github.com/poolkit/poolkit/pool"

type object struct{ id int }

var (
	objects = pool.New(func() *object { return new(object) })
	ints    = pool.New(func() []int { return make([]int, 0, 16) })
)

func main() {
	o := objects.Get()
	o.id++
	objects.Put(o)

	b := ints.GetPtr()
	*b = append((*b)[:0], o.id)
	ints.PutPtr(b)
}
