package check_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

// TestStressCorrectUse runs correct owners of all three pool kinds from 8
// goroutines at once, each holding up to three values, filling them with a
// pattern of its own and checking it before Put. Under -tags poolkitcheck
// (CI runs both) this is the check that checked mode's quarantines, page
// protection and growth into new pages never hand one value to two owners,
// never fault on a correct program and never report a write that did not
// happen after Put.
func TestStressCorrectUse(t *testing.T) {
	var (
		buffers bytebuf.Pool
		slices  slicepool.Pool[byte]
		records = pool.New(func() *[]int { s := make([]int, 0, 16); return &s },
			pool.WithReset(func(s *[]int) *[]int { *s = (*s)[:0]; return s }))
	)
	iters := 300
	if testing.Short() {
		iters = 50
	}
	pooltest.Stress(t, 8, iters, func(g int, holders *sync.Map) (func() error, error) {
		b := buffers.Get()
		s := slices.Get(g * 100)
		r := records.Get()
		for _, key := range []any{b, unsafe.Pointer(unsafe.SliceData(s[:1])), r} {
			if err := pooltest.Claim(holders, key, g); err != nil {
				return nil, err
			}
		}
		if b.Len() != 0 || len(s) != 0 || len(*r) != 0 {
			return nil, fmt.Errorf("goroutine %d got a value that was not empty", g)
		}
		pattern := bytes.Repeat([]byte{byte(g)}, g*700) // grows b past its first pages
		b.Write(pattern)
		b.B = append(b.B, pattern...) // and directly
		s = append(s, pattern[:g*100]...)
		for i := range g {
			*r = append(*r, g*i)
		}
		return func() error {
			if !bytes.Equal(b.B, append(pattern, pattern...)) || !bytes.Equal(s, pattern[:g*100]) || len(*r) != g {
				return fmt.Errorf("goroutine %d's values were changed by someone else", g)
			}
			out := make([]byte, b.Len())
			copy(out, b.Bytes()) // copy out before Put
			var w bytes.Buffer
			b.WriteTo(&w) // and WriteTo before Put
			holders.Delete(b)
			holders.Delete(unsafe.Pointer(unsafe.SliceData(s[:1])))
			holders.Delete(r)
			buffers.Put(b)
			slices.Put(s)
			records.Put(r)
			if !bytes.Equal(out, w.Bytes()) {
				return fmt.Errorf("goroutine %d: the copy and WriteTo differ", g)
			}
			return nil
		}, nil
	})
}
