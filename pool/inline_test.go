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
//
// It holds on amd64, arm64 and s390x. On 386 and arm atomic.LoadUint32
// is no compiler intrinsic, so the inliner charges it as a call: get
// costs 119 and put 125, over the budget of 80 (GOARCH=386 go build
// -gcflags=-m=2 ./testdata/inline), and Get and Put stay calls there.
func TestGetPutInline(t *testing.T) {
	pooltest.NoCallsInto(t, "./testdata/inline", "github.com/poolkit/poolkit/pool", 4, "amd64", "arm64", "s390x")
}
