package pool_test

import (
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// TestGetPutInline checks that the compiler inlines Get and Put of a
// pointer-shaped Pool, and GetPtr and PutPtr of a Pool of slices, with the
// functions they wrap, into their caller: that is what keeps a
// pool.Pool[*T] as cheap as a raw sync.Pool, and GetPtr and PutPtr as
// cheap as a raw sync.Pool of *[]E (benchmarks/core has the figures). What
// remains in testdata/inline's main are the calls to sync.Pool's Get and
// Put, two of each, to the four slow paths and to append's growslice.
//
// It holds on amd64, arm64 and s390x. On 386 and arm atomic.LoadUint32
// is no compiler intrinsic, so the inliner charges it as a call: get
// costs 119 and put 125, over the budget of 80 (GOARCH=386 go build
// -gcflags=-m=2 ./testdata/inline), and Get and Put stay calls there.
func TestGetPutInline(t *testing.T) {
	pooltest.NoCallsInto(t, "./testdata/inline", "github.com/poolkit/poolkit/pool", 8, "amd64", "arm64", "s390x")
}
