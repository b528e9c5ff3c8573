package allocs_test

import (
	"fmt"
	"testing"

	"github.com/poolkit/poolkit/allocs"
)

var lastID *int

func ExamplePerRun() {
	calls := 0
	// Allocates on one call in ten, like a cache that misses now and then.
	f := func() {
		calls++
		if calls%10 == 0 {
			lastID = new(int)
		}
	}
	fmt.Println("allocs.PerRun:", allocs.PerRun(1000, f))
	fmt.Println("testing.AllocsPerRun:", testing.AllocsPerRun(1000, f))
	// Output:
	// allocs.PerRun: 0.1
	// testing.AllocsPerRun: 0
}
