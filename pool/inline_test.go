package pool_test

import (
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// TestGetPutInline checks that the compiler inlines Get and Put of a
// pointer-shaped Pool, with the get and put they wrap, into their caller:
// that is what keeps a pool.Pool[*T] as cheap as a raw sync.Pool
// (benchmarks/core has the figures). What remains in testdata/inline's main
// are the calls to sync.Pool's Get and Put and to the two slow paths.
func TestGetPutInline(t *testing.T) {
	pooltest.NoCallsInto(t, "./testdata/inline", "github.com/poolkit/poolkit/pool", 4)
}
