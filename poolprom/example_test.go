package poolprom_test

import (
	"fmt"

	"github.com/poolkit/poolkit/poolprom"
	"github.com/poolkit/poolkit/slicepool"
	"github.com/prometheus/client_golang/prometheus"
)

func ExampleCollector() {
	var ids slicepool.Pool[int64]
	c := poolprom.NewCollector()
	if err := c.Add("ids", &ids); err != nil { // turns counting on
		panic(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)

	var held [][]int64
	for range 3 {
		held = append(held, ids.Get(100)) // an empty pool: each Get makes one
	}
	for _, s := range held {
		ids.Put(s)
	}
	ids.Put(make([]int64, 0, 1<<20)) // over MaxCap: dropped

	mfs, err := reg.Gather()
	if err != nil {
		panic(err)
	}
	for _, mf := range mfs {
		m := mf.GetMetric()[0]
		fmt.Printf("%s{pool=%q} %v\n", mf.GetName(), m.GetLabel()[0].GetValue(), m.GetCounter().GetValue())
	}
	// Output:
	// poolkit_pool_drops_total{pool="ids"} 1
	// poolkit_pool_gets_total{pool="ids"} 3
	// poolkit_pool_news_total{pool="ids"} 3
	// poolkit_pool_puts_total{pool="ids"} 4
}
