package a

import (
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

type shard struct {
	n    int
	bufs sync.Pool
}

type nested struct{ s shard }

type kit struct{ p pool.Pool[*[]byte] }

type sp struct{ p slicepool.Pool[int] }

type bb struct{ p bytebuf.Pool }

// Flagged.

func flagged(shards []shard, ch chan shard, pools []sync.Pool, ns []nested, m map[string]shard, ks []kit, sps []sp, bbs []bb) {
	dst := make([]shard, len(shards))
	copy(dst, shards)                                                            // want `^copy\(dst, shards\) copies elements that hold a sync.Pool \(shard.bufs\)$`
	_ = append([]shard(nil), shards...)                                          // want `append\(\[\]shard\(nil\), shards...\) copies elements that hold a sync.Pool \(shard.bufs\)`
	copy(pools, pools[1:])                                                       // want `copy\(pools, pools\[1:\]\) copies elements that hold a sync.Pool$`
	ch <- shards[0]                                                              // want `^sending shards\[0\] on a channel copies a sync.Pool \(shard.bufs\)$`
	_ = slices.Clone(ns)                                                         // want `slices.Clone copies or moves the elements of ns, which hold a sync.Pool \(shard.bufs\)`
	shards = slices.Insert(shards, 0, shard{})                                   // want `slices.Insert copies or moves the elements of shards`
	slices.SortFunc(shards, func(a, b shard) int { return 0 })                   // want `slices.SortFunc`
	_ = maps.Clone(m)                                                            // want `maps.Clone copies or moves the elements of m, which hold a sync.Pool \(shard.bufs\)`
	sort.Slice(shards, func(i, j int) bool { return shards[i].n < shards[j].n }) // want `sort.Slice copies or moves the elements of shards`
	copy(ks, ks[1:])                                                             // want `copy\(ks, ks\[1:\]\) copies elements that hold a pool.Pool \(kit.p\)`
	_ = append(sps[:0], sps[1:]...)                                              // want `hold a slicepool.Pool \(sp.p\)`
	_ = slices.Delete(bbs, 0, 1)                                                 // want `slices.Delete copies or moves the elements of bbs, which hold a bytebuf.Pool \(bb.p\)`
}

// Clean.

func clean(ptrs []*shard, ch chan *shard, pch chan shard, ints []int, m map[string]*shard, shards []shard) {
	dst := make([]*shard, len(ptrs))
	copy(dst, ptrs)                    // pointers
	_ = append([]*shard(nil), ptrs...) // pointers
	ch <- ptrs[0]                      // a pointer
	pch <- shard{}                     // a fresh value, before any use
	pch <- newShard()                  // a fresh value from a call
	_ = slices.Clone(ints)             // no pool
	_ = maps.Clone(m)                  // map of pointers
	sort.Slice(ptrs, func(i, j int) bool { return ptrs[i].n < ptrs[j].n })
	_ = slices.IndexFunc(ptrs, func(s *shard) bool { return s.n == 0 })
	_ = len(shards)
	shards = append(shards, shard{}) // growth not reported (see doc)
	_ = slices.Clone(ptrs)
	var n int
	copy(ints, ints)
	_ = n
}

func newShard() shard { return shard{} }
