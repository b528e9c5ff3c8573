package pool_test

import (
	"fmt"
	"strings"

	"github.com/poolkit/poolkit/pool"
)

// request is the kind of object worth pooling: built for every request,
// dropped at the end of it.
type request struct {
	path   string
	fields []string
}

func Example() {
	requests := pool.New(
		func() *request { return &request{fields: make([]string, 0, 8)} },
		// Reset on Put: nothing of one request reaches the next.
		pool.WithReset(func(r *request) *request {
			clear(r.fields)
			*r = request{fields: r.fields[:0]}
			return r
		}),
		// Do not keep requests that grew unusually large.
		pool.WithKeep(func(r *request) bool { return cap(r.fields) <= 64 }),
	)

	r := requests.Get()
	r.path = "/users"
	r.fields = append(r.fields, "id", "name")
	summary := r.path + "?" + strings.Join(r.fields, ",") // copy out before Put
	requests.Put(r)                                       // r must not be used after this

	fmt.Println(summary)
	// Output: /users?id,name
}

func ExamplePool_zeroValue() {
	// The zero Pool works; with no New function, Get on an empty pool
	// returns the zero value.
	var scratch pool.Pool[*strings.Builder]
	b := scratch.Get()
	if b == nil {
		b = new(strings.Builder)
	}
	b.WriteString("hello")
	fmt.Println(b.String())
	b.Reset()
	scratch.Put(b)
	// Output: hello
}

func ExampleWithStats() {
	p := pool.New(func() []byte { return make([]byte, 0, 512) },
		pool.WithReset(func(b []byte) []byte { return b[:0] }),
		pool.WithKeep(func(b []byte) bool { return cap(b) <= 4096 }),
		pool.WithStats[[]byte](),
	)
	small := p.Get()
	big := append(p.Get(), make([]byte, 10000)...)
	p.Put(small)
	p.Put(big) // dropped: the keep function refuses buffers over 4 KiB

	s := p.Stats()
	fmt.Printf("gets=%d puts=%d news=%d drops=%d\n", s.Gets, s.Puts, s.News, s.Drops)
	// Output: gets=2 puts=2 news=2 drops=1
}

func ExampleStats_HitRatio() {
	// Counts as a pool's Stats method returns them: of 400 Gets, 100
	// found the pool empty and made a new value.
	s := pool.Stats{Gets: 400, Puts: 390, News: 100, Counting: true}
	fmt.Printf("%.0f%% of Gets reused a value\n", 100*s.HitRatio())
	// Output: 75% of Gets reused a value
}
