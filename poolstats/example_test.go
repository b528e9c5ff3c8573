package poolstats_test

import (
	"fmt"

	"github.com/poolkit/poolkit/poolstats"
	"github.com/poolkit/poolkit/slicepool"
)

func ExampleRead() {
	var scratch slicepool.Pool[byte]
	if err := poolstats.Enable(&scratch); err != nil { // what Publish does first
		panic(err)
	}
	s := scratch.Get(100)
	scratch.Put(s)

	c, _ := poolstats.Read(&scratch)
	fmt.Printf("%s: %d gets, %d puts, %d new\n", c.Kind, c.Gets, c.Puts, c.News)
	// Output: slicepool: 1 gets, 1 puts, 1 new
}
