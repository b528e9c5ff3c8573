package poolstats_test

import (
	"fmt"
	"sync/atomic"

	"github.com/poolkit/poolkit/pool"
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

	c := poolstats.Read(&scratch)
	fmt.Printf("%d gets, %d puts, %d new\n", c.Gets, c.Puts, c.News)
	// Output: 1 gets, 1 puts, 1 new
}

// connPool is a pool of the user's own: reporting its counts as a
// pool.Stats makes it a poolstats.Source.
type connPool struct {
	gets, news atomic.Uint64
}

func (p *connPool) Stats() pool.Stats {
	return pool.Stats{Gets: p.gets.Load(), News: p.news.Load(), Counting: true}
}

func ExampleSource() {
	p := new(connPool)
	p.gets.Store(10)
	p.news.Store(2)
	// poolstats.Publish("conns", p) would show it in /debug/vars.
	c := poolstats.Read(p)
	fmt.Printf("%d gets, hit ratio %.1f\n", c.Gets, c.HitRatio)
	// Output: 10 gets, hit ratio 0.8
}
