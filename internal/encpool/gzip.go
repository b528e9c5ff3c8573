package encpool

import (
	"github.com/klauspost/compress/gzip"

	"github.com/poolkit/poolkit/pool"
)

// Gzip levels accepted by GetGzip, as in compress/gzip: HuffmanOnly (-2)
// to BestCompression (9).
const (
	GzipMinLevel = gzip.HuffmanOnly
	GzipMaxLevel = gzip.BestCompression
)

// Gzip is a pooled github.com/klauspost/compress/gzip writer with the sink
// it writes to. It belongs to the caller of GetGzip until PutGzip.
type Gzip struct {
	W     *gzip.Writer
	Sink  Sink
	level int
}

// gzipPools holds one pool per level: a writer's tables depend on its
// level. The pools hold pointers, so Get and Put allocate nothing.
var gzipPools [GzipMaxLevel - GzipMinLevel + 1]pool.Pool[*Gzip]

// GetGzip returns a gzip writer at level, which the caller has checked to
// be within GzipMinLevel..GzipMaxLevel, with an empty sink, at the start of
// a stream.
func GetGzip(level int) *Gzip {
	g := gzipPools[level-GzipMinLevel].Get()
	if g == nil {
		g = &Gzip{level: level}
		w, err := gzip.NewWriterLevel(&g.Sink, level)
		if err != nil {
			panic("encpool: gzip refused a checked level: " + err.Error())
		}
		g.W = w
	}
	return g
}

// PutGzip clears g's sink, resets its writer to a fresh stream and returns
// it to its pool. After PutGzip the caller must not use g, nor anything
// written through it.
func PutGzip(g *Gzip) {
	g.Sink = Sink{}
	g.W.Reset(&g.Sink)
	gzipPools[g.level-GzipMinLevel].Put(g)
}
