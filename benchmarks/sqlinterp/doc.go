// Package sqlinterp compares poolkit's sqlinterp.Append with
// go-sql-driver/mysql's own client-side interpolation on the benchmark of
// methane's article on allocation-aware Go (2015), with the article's
// naive and final versions (internal/sqlbaseline) beside them.
//
// The driver's interpolateParams is unexported, and the only honest way to
// time it alone is the driver's own BenchmarkInterpolation: going through
// database/sql with InterpolateParams set would add packet writing, result
// reading and a fake connection to every operation. So compare.sh builds the
// driver's test binary (go test -c github.com/go-sql-driver/mysql, at the
// version this module requires) and this package's, runs them alternately
// in one script, renames the driver's rows into this package's naming and
// hands everything to benchstat. See compare.sh.
package sqlinterp
