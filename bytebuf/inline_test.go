package bytebuf_test

import (
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// TestGetPutInline checks that Pool's Get and Put, and the package-level Get
// and Put, are inlined into their caller, so that a Get and Put cycle costs
// what a raw sync.Pool's does plus the sampling count (benchmarks/core has
// the figures). What remains in testdata/inline's main are, for each pool,
// the calls to sync.Pool's Get and Put, the slow paths of Get and Put, and
// WriteByte.
//
// It holds on amd64, arm64 and s390x; on 386 and arm the inliner's costs
// leave Get and Put as calls.
func TestGetPutInline(t *testing.T) {
	pooltest.NoCallsInto(t, "./testdata/inline", "github.com/poolkit/poolkit/bytebuf", 8, "amd64", "arm64", "s390x")
}
