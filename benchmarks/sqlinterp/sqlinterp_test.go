package sqlinterp

import (
	"testing"

	"github.com/poolkit/poolkit/internal/sqlbaseline"
	"github.com/poolkit/poolkit/sqlinterp"
)

var (
	sinkString string
	sinkBytes  []byte
)

// query and args are the benchmark of methane's article on interpolation
// (2015), the same as go-sql-driver/mysql's BenchmarkInterpolation.
var (
	query = sqlbaseline.InterpolateQuery
	args  = sqlbaseline.InterpolateArgs
)

// TestSameOutput checks that every implementation benchmarked below writes
// the same query, so that they are timed doing the same work.
func TestSameOutput(t *testing.T) {
	want := sqlbaseline.InterpolateWant
	if s, err := sqlbaseline.InterpolateNaive(query, args); err != nil || s != want {
		t.Errorf("naive: %q, %v", s, err)
	}
	if s, err := sqlbaseline.InterpolateSeed(query, args); err != nil || s != want {
		t.Errorf("seed: %q, %v", s, err)
	}
	if b, err := sqlinterp.Append(nil, query, args, sqlinterp.Options{}); err != nil || string(b) != want {
		t.Errorf("poolkit: %q, %v", b, err)
	}
}

// BenchmarkInterpolation has one sub-benchmark per implementation; the
// name matches go-sql-driver/mysql's benchmark so that compare.sh can put
// the driver's figures in the same table as impl=go-sql-driver.
func BenchmarkInterpolation(b *testing.B) {
	b.Run("impl=naive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := sqlbaseline.InterpolateNaive(query, args)
			if err != nil {
				b.Fatal(err)
			}
			sinkString = s
		}
	})
	b.Run("impl=seed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := sqlbaseline.InterpolateSeed(query, args)
			if err != nil {
				b.Fatal(err)
			}
			sinkString = s
		}
	})
	// The driver's interpolateParams returns a string made from its reused
	// send buffer: the like-for-like use of Append is the same.
	b.Run("impl=poolkit-string", func(b *testing.B) {
		b.ReportAllocs()
		dst := make([]byte, 0, 4096)
		for b.Loop() {
			var err error
			dst, err = sqlinterp.Append(dst[:0], query, args, sqlinterp.Options{})
			if err != nil {
				b.Fatal(err)
			}
			sinkString = string(dst)
		}
	})
	// What a driver that fills its packet buffer directly pays.
	b.Run("impl=poolkit-reuse", func(b *testing.B) {
		b.ReportAllocs()
		var dst []byte
		for b.Loop() {
			var err error
			dst, err = sqlinterp.Append(dst[:0], query, args, sqlinterp.Options{})
			if err != nil {
				b.Fatal(err)
			}
		}
		sinkBytes = dst
	})
	// A fresh buffer every time: the size estimate makes it one allocation.
	b.Run("impl=poolkit-nil", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dst, err := sqlinterp.Append(nil, query, args, sqlinterp.Options{})
			if err != nil {
				b.Fatal(err)
			}
			sinkBytes = dst
		}
	})
}

// BenchmarkInterpolationParallel runs Append from every P, each goroutine
// with its own buffer as each connection would have.
func BenchmarkInterpolationParallel(b *testing.B) {
	b.Run("impl=poolkit-reuse", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var dst []byte // one per goroutine, as one per connection
			for pb.Next() {
				var err error
				dst, err = sqlinterp.Append(dst[:0], query, args, sqlinterp.Options{})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
