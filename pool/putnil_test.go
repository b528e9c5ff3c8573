package pool_test

import (
	"io"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
)

// TestPutNilSliceOrInterfaceIsNoOp checks that Put of a nil slice or a nil
// interface, like Put of a nil pointer, keeps nothing: the next Get calls
// New instead of handing out the nil. A nil returned by reset is dropped
// the same way. Without the check a nil slice put into a pool with New
// came back from the next Get.
func TestPutNilSliceOrInterfaceIsNoOp(t *testing.T) {
	pooltest.PinGC(t)
	ps := pool.New(func() []byte { return make([]byte, 0, 64) }, pool.WithStats[[]byte]())
	ps.Put(nil)
	if got := ps.Get(); got == nil || cap(got) != 64 {
		t.Fatalf("Pool[[]byte].Get after Put(nil) = %#v, want New's slice of capacity 64", got)
	}
	if got := ps.Stats(); got.Puts != 0 || got.News != 1 {
		t.Fatalf("Stats after Put(nil) and Get = %+v, want Puts 0, News 1", got)
	}

	pr := pool.New(func() []int { return make([]int, 0, 8) },
		pool.WithReset(func(s []int) []int { return nil })) // a reset that drops the storage
	pr.Put(make([]int, 3, 8))
	if got := pr.Get(); got == nil {
		t.Fatal("Get after a Put whose reset returned a nil slice = nil, want New's slice")
	}

	pi := pool.New(func() io.Reader { return strings.NewReader("new") })
	pi.Put(nil)
	got := pi.Get()
	if got == nil {
		t.Fatal("Pool[io.Reader].Get after Put(nil) = nil, want New's reader")
	}
	pa := pool.New(func() any { return 1 })
	pa.Put(nil)
	if got := pa.Get(); got != 1 {
		t.Fatalf("Pool[any].Get after Put(nil) = %v, want 1 from New", got)
	}

	// A zero struct or number is a value, not a nil: it is kept.
	pooltest.SkipIfRace(t)
	pn := pool.New(func() int { return 42 })
	pn.Put(0)
	if got := pn.Get(); got != 0 {
		t.Fatalf("Pool[int].Get after Put(0) = %d, want the 0 that was put", got)
	}
}
