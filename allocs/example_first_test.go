//go:build !race

// Under the race detector sync.Pool drops Puts at random, so the warm
// figure is not zero there.

package allocs_test

import (
	"fmt"
	"sync"

	"github.com/poolkit/poolkit/allocs"
)

func ExampleFirst() {
	var p sync.Pool
	getPut := func() {
		b, _ := p.Get().(*[64]byte)
		if b == nil {
			b = new([64]byte)
		}
		p.Put(b)
	}
	warm := allocs.PerRun(100, getPut)
	cold := allocs.First(getPut) >= 1
	fmt.Println("warm:", warm, "cold call allocates:", cold)
	// Output: warm: 0 cold call allocates: true
}
