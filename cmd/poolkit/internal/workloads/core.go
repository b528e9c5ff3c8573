package workloads

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

// The core workloads: the articles' exercises on bare slices and buffers, with
// nothing between the pool and the work. Every variant hands its result to
// a consumer reached through a package-level function variable: the
// compiler cannot see through the call, so it can neither drop the work nor
// keep the naive version's memory on the stack (which it would otherwise
// do for the small slices here, since Go 1.25), and the consumer checks the
// result, so a variant that computes the wrong thing fails the run instead
// of looking fast.

// Sources of the published figures.
const (
	srcReplicate = "ludwig125, golangのsync.Poolで速度改善したい, " +
		"go test -bench, 8 threads, linux/amd64"
	srcBuffer = "使用 Sync Pool 提升程序性能, Intel i7-8559U, darwin/amd64"
	srcSlices = "Goでsliceをpoolするときの罠 (Qiita 2020), b.RunParallel, " +
		"go1.15.1, 6-core Xeon E5 (12 threads)"
)

// consumeStrings, consumeInts and consumeBytes receive each operation's
// result. They are variables so that calls through them are opaque to the
// compiler; they only read their argument, so concurrent calls are safe.
var (
	consumeStrings = func(ss []string, s string, n int) error {
		if len(ss) != n {
			return fmt.Errorf("replicate: got %d strings, want %d", len(ss), n)
		}
		for i, v := range ss {
			if v != s {
				return fmt.Errorf("replicate: element %d is %q, want %q", i, v, s)
			}
		}
		return nil
	}
	consumeInts = func(s []int) error {
		if len(s) != 1 || s[0] != 42 {
			return fmt.Errorf("slice append: got %v, want [42]", s)
		}
		return nil
	}
	consumeBytes = func(b []byte) error {
		if len(b) != len(bufferData) {
			return fmt.Errorf("buffer write: buffer holds %d bytes, want %d", len(b), len(bufferData))
		}
		return nil
	}
)

// ---- replicate a string n times (ludwig125's "文字列結合") ----

const replicateInput = "12345"

// replicateNaive is the article's ReplicateStrNTimes: a fresh slice each
// call, owned by the caller.
func replicateNaive(s string, n int) []string {
	ss := make([]string, n)
	for i := range n {
		ss[i] = s
	}
	return ss
}

// replicateSeedPool is the article's pool: a *[]string starting empty.
var replicateSeedPool = sync.Pool{New: func() any { return &[]string{} }}

// replicateSeed is the article's ReplicateStrNTimesWithPool (append
// version), as published: it returns the slice after its deferred Put, so
// the caller reads memory the pool already owns.
func replicateSeed(s string, n int) []string {
	ss := replicateSeedPool.Get().(*[]string)
	*ss = (*ss)[:0]
	//poolvet:ignore retention the article's pattern, measured as published: it puts the buffer back with no size check
	defer replicateSeedPool.Put(ss)
	for range n {
		*ss = append(*ss, s)
	}
	//poolvet:ignore useafterput the article's bug, measured as published (see replicateSeedNote)
	return *ss
}

var replicatePool slicepool.Pool[string]

func replicateOps(n int) (naive, seed, kit func() error) {
	naive = func() error {
		return consumeStrings(replicateNaive(replicateInput, n), replicateInput, n)
	}
	seed = func() error {
		return consumeStrings(replicateSeed(replicateInput, n), replicateInput, n)
	}
	kit = func() error {
		ss := replicatePool.Get(n)
		for range n {
			ss = append(ss, replicateInput)
		}
		err := consumeStrings(ss, replicateInput, n)
		replicatePool.Put(ss) // the result is consumed before it goes back
		return err
	}
	return naive, seed, kit
}

const replicateSeedNote = "The article's function returns the slice after its deferred Put, a use after Put: " +
	"harmless here only because the benchmark is serial, so it is kept as published."

func registerReplicate(n int, naivePub, seedPub *Figure) {
	naive, seed, kit := replicateOps(n)
	w := fmt.Sprintf("replicate n=%d", n)
	Register(
		Case{Workload: w, Variant: Naive, Op: naive, WantAllocs: -1, Published: naivePub},
		Case{Workload: w, Variant: Seed, Op: seed, WantAllocs: -1, Published: seedPub, Footnote: replicateSeedNote},
		Case{Workload: w, Variant: Poolkit, Name: "slicepool", Op: kit, WantAllocs: 0},
	)
}

// ---- bytes.Buffer write of 10,000 bytes (使用 Sync Pool 提升程序性能) ----

var bufferData = make([]byte, 10000)

var bufferSeedPool = sync.Pool{New: func() any { return &bytes.Buffer{} }}

func bufferNaive() error {
	var buf bytes.Buffer
	buf.Write(bufferData)
	return consumeBytes(buf.Bytes())
}

// bufferSeed is the article's BenchmarkBufferWithPool body.
func bufferSeed() error {
	buf := bufferSeedPool.Get().(*bytes.Buffer)
	buf.Write(bufferData)
	err := consumeBytes(buf.Bytes())
	buf.Reset()
	bufferSeedPool.Put(buf)
	return err
}

var bufferPool bytebuf.Pool

func bufferKit() error {
	buf := bufferPool.Get()
	buf.Write(bufferData)
	err := consumeBytes(buf.Bytes())
	bufferPool.Put(buf)
	return err
}

// ---- the four slice-pooling patterns of Goでsliceをpoolするときの罠, under RunParallel ----

// Each pool starts, as in the article, with an empty []int of capacity 0,
// so every pattern that fails to keep the grown slice pays for growing it
// again on every operation.

var slicePoolValue = sync.Pool{New: func() any { return make([]int, 0) }}

// sliceTrap1 is BenchmarkSlicePool: Put of a slice value boxes its header
// into a new interface.
func sliceTrap1() error {
	arr := slicePoolValue.Get().([]int)[:0]
	arr = append(arr, 42)
	err := consumeInts(arr)
	//lint:ignore SA6002 the boxing allocation is the trap the article measures
	slicePoolValue.Put(arr)
	return err
}

func newIntSlicePtr() any {
	s := make([]int, 0)
	return &s
}

var (
	slicePoolPtr1 = sync.Pool{New: newIntSlicePtr}
	slicePoolPtr2 = sync.Pool{New: newIntSlicePtr}
	slicePoolPtr3 = sync.Pool{New: newIntSlicePtr}
)

// sliceTrap2 is BenchmarkSlicePtrPool_1: Put(&arr) moves arr to the heap.
func sliceTrap2() error {
	arr := (*slicePoolPtr1.Get().(*[]int))[:0]
	arr = append(arr, 42)
	err := consumeInts(arr)
	//poolvet:ignore nonptrput the article's trap, measured as published: &arr moves arr to the heap
	slicePoolPtr1.Put(&arr)
	return err
}

// sliceTrap3 is BenchmarkSlicePtrPool_2: the pointer goes back, but the
// grown slice is not written back through it.
func sliceTrap3() error {
	ptr := slicePoolPtr2.Get().(*[]int)
	arr := *ptr
	arr = arr[:0]
	arr = append(arr, 42)
	err := consumeInts(arr)
	slicePoolPtr2.Put(ptr)
	return err
}

// sliceWriteBack is BenchmarkSlicePtrPool_3: the header is written back
// before Put.
func sliceWriteBack() error {
	ptr := slicePoolPtr3.Get().(*[]int)
	arr := *ptr
	arr = arr[:0]
	arr = append(arr, 42)
	err := consumeInts(arr)
	*ptr = arr
	slicePoolPtr3.Put(ptr)
	return err
}

func sliceNaive() error {
	arr := make([]int, 0)
	arr = append(arr, 42)
	return consumeInts(arr)
}

var sliceKitSlicepool slicepool.Pool[int]

func sliceKit1() error {
	arr := sliceKitSlicepool.Get(1)
	arr = append(arr, 42)
	err := consumeInts(arr)
	sliceKitSlicepool.Put(arr)
	return err
}

// sliceKitPool holds []int values: GetPtr hands out the box the pool
// keeps each slice in, and the grown slice is written back into it
// before PutPtr, the article's best pattern with a typed pool.
var sliceKitPool = pool.New(func() []int { return nil })

func sliceKit2() error {
	box := sliceKitPool.GetPtr()
	arr := append((*box)[:0], 42)
	err := consumeInts(arr)
	*box = arr
	sliceKitPool.PutPtr(box)
	return err
}

// sliceKitPoolGet holds []int values too, through Get and Put: the pool
// moves each slice in and out of a box and recycles the box, without
// allocating, so none of the article's traps applies, at the cost of a
// second sync.Pool operation in Get and in Put.
var sliceKitPoolGet = pool.New(func() []int { return nil },
	pool.WithReset(func(s []int) []int { return s[:0] }))

func sliceKit3() error {
	arr := sliceKitPoolGet.Get()
	arr = append(arr, 42)
	err := consumeInts(arr)
	sliceKitPoolGet.Put(arr)
	return err
}

func registerCore() {
	registerReplicate(5,
		&Figure{NsPerOp: 76.7, AllocsPerOp: 1, Source: srcReplicate + "; summary table, BenchmarkReplicateStrNTimes"},
		&Figure{NsPerOp: 30.6, AllocsPerOp: 0, Source: srcReplicate + "; summary table, BenchmarkReplicateStrNTimesWithPool"},
	)
	registerReplicate(100,
		&Figure{NsPerOp: 613, AllocsPerOp: 1, Source: srcReplicate + "; n=100 run, median of the 4 printed (610-615 ns)"},
		&Figure{NsPerOp: 250.5, AllocsPerOp: 0, Source: srcReplicate + "; n=100 run, median of the 4 printed (249-253 ns)"},
	)

	const wb = "bytes.Buffer 10 KB"
	Register(
		Case{Workload: wb, Variant: Naive, Op: bufferNaive, WantAllocs: -1,
			Published: &Figure{NsPerOp: 1025, AllocsPerOp: 1, Source: srcBuffer + "; BenchmarkBuffer-8"}},
		Case{Workload: wb, Variant: Seed, Op: bufferSeed, WantAllocs: -1,
			Published: &Figure{NsPerOp: 101.3, AllocsPerOp: 0, Source: srcBuffer + "; BenchmarkBufferWithPool-8"}},
		Case{Workload: wb, Variant: Poolkit, Name: "bytebuf", Op: bufferKit, WantAllocs: 0},
	)

	const ws = "slice append (parallel)"
	Register(
		Case{Workload: ws, Variant: Naive, Parallel: true, Op: sliceNaive, WantAllocs: -1,
			Footnote: "The article has no unpooled version; this one makes a fresh slice per operation."},
		Case{Workload: ws, Variant: Seed, Name: "SlicePool", Parallel: true, Op: sliceTrap1, WantAllocs: -1,
			Published: &Figure{NsPerOp: 28.2, AllocsPerOp: 1, Source: srcSlices + "; BenchmarkSlicePool"}},
		Case{Workload: ws, Variant: Seed, Name: "SlicePtrPool_1", Parallel: true, Op: sliceTrap2, WantAllocs: -1,
			Published: &Figure{NsPerOp: 27.0, AllocsPerOp: 1, Source: srcSlices + "; BenchmarkSlicePtrPool_1"}},
		Case{Workload: ws, Variant: Seed, Name: "SlicePtrPool_2", Parallel: true, Op: sliceTrap3, WantAllocs: -1,
			Published: &Figure{NsPerOp: 12.4, AllocsPerOp: 1, Source: srcSlices + "; BenchmarkSlicePtrPool_2"}},
		Case{Workload: ws, Variant: Seed, Name: "SlicePtrPool_3", Parallel: true, Op: sliceWriteBack, WantAllocs: -1,
			Published: &Figure{NsPerOp: 3.39, AllocsPerOp: 0, Source: srcSlices + "; BenchmarkSlicePtrPool_3"}},
		Case{Workload: ws, Variant: Poolkit, Name: "slicepool", Parallel: true, Op: sliceKit1, WantAllocs: 0},
		Case{Workload: ws, Variant: Poolkit, Name: "pool", Parallel: true, Op: sliceKit2, WantAllocs: 0},
		Case{Workload: ws, Variant: Poolkit, Name: "pool Get+Put", Parallel: true, Op: sliceKit3, WantAllocs: 0},
	)
}
