// Package workloads holds the cases that `poolkit bench` measures.
//
// Each workload of a published article on sync.Pool is there as a naive
// version, the article's pooled version and poolkit's, registered by one
// file per workload. The articles:
//
//   - ludwig125, "golangのsync.Poolで速度改善したい": string replication,
//     gzip, gunzip, JSON encode and decode, and the sync.Pool
//     documentation's log line;
//   - "Goでsliceをpoolするときの罠" (Qiita, 2020): four ways to pool a slice;
//   - "使用 Sync Pool 提升程序性能": a bytes.Buffer write and a
//     json.Unmarshal into a struct with a 1 KiB array;
//   - methane, "Goでアロケーションに気をつけたコードを書く方法" (2015): SQL
//     placeholder interpolation (internal/sqlbaseline).
package workloads

import "sync"

// Variant names one column of the bench table.
type Variant string

// The three variants of every workload.
const (
	Naive   Variant = "naive"   // no pooling, as the articles' "before"
	Seed    Variant = "seed"    // the article's own pooled pattern, as published
	Poolkit Variant = "poolkit" // the same work done with poolkit
)

// Figure is a result an article published for one variant of a workload.
type Figure struct {
	NsPerOp     float64
	AllocsPerOp float64
	Source      string // the article, its benchmark and the machine it ran on
}

// Case is one variant of one workload.
type Case struct {
	Workload string  // short name of the workload, the same for its variants
	Variant  Variant //
	// Name tells apart several cases of one variant in one workload, such
	// as the four pooled patterns of the slice article
	// ("SlicePtrPool_2"); empty when the variant has a single case.
	Name string
	// Parallel cases run Op under b.RunParallel and are swept over the
	// -cpu list; the others run Op serially. Op of a parallel case is
	// called from several goroutines at once, so it must be safe for
	// concurrent use: no unsynchronised writes to shared sinks.
	Parallel bool
	// Op performs one operation. It must do the same work, with the same
	// output, in every variant of a workload, take fresh input where the
	// input is consumed, sink its result in a package variable, and return
	// any error it meets.
	Op func() error
	// WantAllocs is the allocations per op that the poolkit package's own
	// tests assert for this operation; negative when there is no such
	// claim (naive and seed rows).
	WantAllocs float64
	// Published is the article's figure for this variant, nil when it has
	// none.
	Published *Figure
	// Footnote explains any change made to the article's code, such as a
	// bug fixed because it would corrupt the result.
	Footnote string
}

var (
	mu    sync.Mutex
	cases []Case
)

// The table's rows, in this order: one register function per workload
// file, called here rather than from each file's init so that the order is
// written down, not the order in which Go runs the files' init functions.
// Within a workload the rows are in the order its file registers them.
func init() {
	registerCore()      // replicate, bytes.Buffer, slice append
	registerGzip()      // gzip, gunzip
	registerJSON()      // json encode, decode, unmarshal
	registerLog()       // log line, serial and parallel
	registerSQLInterp() // interpolate
}

// Register adds cases to the table, after those registered before, in the
// order given.
func Register(cs ...Case) {
	mu.Lock()
	defer mu.Unlock()
	cases = append(cases, cs...)
}

// All returns every registered case, in registration order.
func All() []Case {
	mu.Lock()
	defer mu.Unlock()
	return append([]Case(nil), cases...)
}

// Label returns the case's variant, followed by its Name in parentheses
// when it has one: "seed (SlicePtrPool_2)".
func (c Case) Label() string {
	if c.Name == "" {
		return string(c.Variant)
	}
	return string(c.Variant) + " (" + c.Name + ")"
}

// consumed returns an Op that runs produce and hands its result to
// consume, the workload's checking consumer; an error from either is the
// Op's.
func consumed[T any](produce func() (T, error), consume func(T) error) func() error {
	return func() error {
		v, err := produce()
		if err != nil {
			return err
		}
		return consume(v)
	}
}
