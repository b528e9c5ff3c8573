// Package poolcopy defines an Analyzer that reports copies of pools that
// vet's copylocks check does not see.
//
// # Analyzer poolcopy
//
// poolcopy: report pools copied by copy, append, channel sends, dereferences and the slices and maps packages
//
// A sync.Pool, and poolkit's pool.Pool, slicepool.Pool and bytebuf.Pool,
// must not be copied after first use: the copy shares the original's
// per-processor caches, so the two race on them and values Put into one
// come out of the other. vet's copylocks reports assignments, calls and
// returns that copy a struct holding a pool, but not copies made element by
// element or through a channel:
//
//   - the builtin copy(dst, src) and append(dst, src...) on slices whose
//     elements hold a pool by value;
//   - a channel send of such a value;
//   - functions of the slices, maps and sort packages that copy or move
//     the elements of such a slice or map (slices.Clone, slices.Insert,
//     slices.SortFunc, maps.Clone, sort.Slice, ...);
//   - a dereference *p of a struct holding a pool (directly or nested)
//     used as a value: assigned, declared, returned, passed or put in a
//     literal, including *f() (e := *Default()), which copylocks takes
//     for a fresh value. *new(T) and *f() of a function returning only
//     &T{...} or new(T), or a local variable only ever assigned one of
//     those (app := &App{...}; ...; return app), in this package or
//     another (p = *lib.NewPool()), are fresh, and not reported.
//
// Bad:
//
//	type shard struct {
//		mu   sync.Mutex
//		bufs sync.Pool
//	}
//
//	grown := append([]shard(nil), shards...) // copies every pool
//
// Good:
//
//	type shard struct {
//		mu   sync.Mutex
//		bufs sync.Pool
//	}
//
//	shards := make([]*shard, n) // hold pointers, copy the pointers
//	grown := append([]*shard(nil), shards...)
//
// append(s, v) that grows s also moves the elements already in s; that form
// is not reported, since a slice of such structs is usually built before
// any pool in it is used.
package poolcopy

import _ "embed"

//go:embed doc.go
var doc string
