package workloads

import (
	"fmt"

	"github.com/poolkit/poolkit/internal/sqlbaseline"
	"github.com/poolkit/poolkit/sqlinterp"
)

// The SQL interpolation workload: go-sql-driver/mysql's
// BenchmarkInterpolation query through the naive and the article's
// interpolators of internal/sqlbaseline, and through sqlinterp.Append.

const srcInterp = "methane, Goでアロケーションに気をつけたコードを書く方法 (2015), " +
	"go-sql-driver/mysql BenchmarkInterpolation, go1.4.1 darwin/amd64"

var (
	consumeSQLString = func(s string) error {
		if s != sqlbaseline.InterpolateWant {
			return fmt.Errorf("interpolate: got %q, want %q", s, sqlbaseline.InterpolateWant)
		}
		return nil
	}
	consumeSQLBytes = func(b []byte) error {
		if string(b) != sqlbaseline.InterpolateWant {
			return fmt.Errorf("interpolate: got %q, want %q", b, sqlbaseline.InterpolateWant)
		}
		return nil
	}
)

// interpDst is the poolkit case's reused buffer, as a driver would keep
// one per connection.
var interpDst []byte

func registerSQLInterp() {
	const w = "interpolate"
	naive := func() error {
		s, err := sqlbaseline.InterpolateNaive(sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs)
		if err != nil {
			return err
		}
		return consumeSQLString(s)
	}
	seed := func() error {
		s, err := sqlbaseline.InterpolateSeed(sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs)
		if err != nil {
			return err
		}
		return consumeSQLString(s)
	}
	kit := func() error {
		var err error
		interpDst, err = sqlinterp.Append(interpDst[:0], sqlbaseline.InterpolateQuery, sqlbaseline.InterpolateArgs, sqlinterp.Options{})
		if err != nil {
			return err
		}
		return consumeSQLBytes(interpDst)
	}
	Register(
		Case{Workload: w, Variant: Naive, Op: naive, WantAllocs: -1,
			Published: &Figure{NsPerOp: 3887, AllocsPerOp: 15, Source: srcInterp + ", before tuning"},
			Footnote:  "strings.Split on ?, one string per argument (escaped with a strings.Replacer), strings.Join"},
		Case{Workload: w, Variant: Seed, Op: seed, WantAllocs: -1,
			Published: &Figure{NsPerOp: 1403, AllocsPerOp: 1, Source: srcInterp + ", after tuning"},
			Footnote: "the article's final design, rewritten; a package-level buffer stands for the driver's send buffer " +
				"and string(buf) is its one allocation. Like the article it counts every ?, so a ? inside a string " +
				"literal breaks the query (go-sql-driver/mysql's TestInterpolateParamsPlaceholderInString)"},
		Case{Workload: w, Variant: Poolkit, Name: "sqlinterp.Append", Op: kit, WantAllocs: 0,
			Footnote: "appends into a reused []byte, as a driver filling its packet buffer would; " +
				"? in quotes and comments are left alone; sqlinterp's TestAllocs asserts 0 allocs/op"},
	)
}
