package slicepool_test

import (
	"fmt"
	"strings"

	"github.com/poolkit/poolkit/slicepool"
)

var words slicepool.Pool[string]

// longWords returns the words of s longer than three letters, joined by
// spaces. The scratch slice comes from a pool and goes back before return;
// only the joined copy leaves the function.
func longWords(s string) string {
	fields := strings.Fields(s)
	out := words.Get(len(fields)) // len 0, cap >= len(fields): append never grows it
	for _, f := range fields {
		if len(f) > 3 {
			out = append(out, f)
		}
	}
	joined := strings.Join(out, " ") // copy out before Put
	words.Put(out)                   // clears the strings so the pool pins none of them
	return joined
}

func Example() {
	fmt.Println(longWords("the quick brown fox jumps over the lazy dog"))
	// Output: quick brown jumps over lazy
}

func ExamplePool_Get() {
	var p slicepool.Pool[float64]
	s := p.Get(100)
	fmt.Println(len(s), cap(s)) // rounded up to the size class
	p.Put(s)
	// Output: 0 128
}

func ExamplePool_EnableStats() {
	var p slicepool.Pool[int]
	p.EnableStats() // before first use, so the counts start together

	a, b := p.Get(10), p.Get(10) // an empty pool: both are new
	p.Put(a)
	p.Put(b)
	p.Put(make([]int, 0, 1<<20)) // over MaxCap: dropped

	s := p.Stats()
	fmt.Printf("gets %d, puts %d, news %d, drops %d\n", s.Gets, s.Puts, s.News, s.Drops)
	// Output: gets 2, puts 3, news 2, drops 1
}
