#!/bin/sh
# instructions.sh counts, with valgrind's callgrind, the instructions per
# call of sqlinterp and of go-sql-driver/mysql's own interpolation, a
# count that does not depend on how loaded the machine is, unlike ns/op:
#
#   - go-sql-driver/mysql's BenchmarkInterpolation query (the methane
#     benchmark): sqlinterp's Append into a reused dst (methane/reuse),
#     AppendArgs from typed and boxed arguments, and the driver's
#     interpolateParams (driver/methane), which returns a string;
#   - the service benchmark's two INSERTs, one request's worth: filling an
#     Args and AppendArgs (ServiceInserts), the same with the queries
#     parsed once by sqlinterp.Parse (ServiceInsertsParsed), and the
#     driver boxing the same values into []driver.Value and interpolating
#     (driver/ServiceInserts) or interpolating values boxed once
#     (driver/ServiceInsertsBoxed). The driver's interpolateParams is
#     unexported: driverbench/service_bench_test.go is copied into a copy
#     of the driver's source, at the version benchmarks/go.mod requires,
#     and built there with the driver's own benchmark_test.go.
#
# Each figure is the difference between a run of 5300 and one of 300
# iterations of the benchmark, over 5000, so the set-up cancels out. The
# binaries are built with the go command on PATH (set GOTOOLCHAIN to pick
# another release); the garbage collector is off, so the figures leave
# out GC work (the driver allocates its result string, sqlinterp into a
# reused dst does not). cpu.rdtscp=off keeps the runtime off RDTSCP,
# which valgrind does not emulate. The counts depend on the Go release,
# and vary by a few tens between runs: compare figures made with the same
# release, or run more iterations.
#
# Usage, from the repository root: sh benchmarks/sqlinterp/instructions.sh
set -eu
root=$(pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go test -c -o "$tmp/poolkit.test" ./sqlinterp
driver=$(cd benchmarks && go list -m -f '{{.Dir}}' github.com/go-sql-driver/mysql)
cp -R "$driver" "$tmp/driver"
chmod -R u+w "$tmp/driver"
sed '/^\/\/go:build ignore$/d' benchmarks/sqlinterp/driverbench/service_bench_test.go >"$tmp/driver/poolkit_service_bench_test.go"
(cd "$tmp/driver" && GOFLAGS=-mod=mod CGO_ENABLED=0 go test -c -o "$tmp/driver.test" .)
cd "$root"
count() { # binary bench iterations
	GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/callgrind.out" "$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3"x 2>&1 |
		sed -n 's/.*Collected : //p'
}
per_op() { # name binary bench
	lo=$(count "$2" "$3" 300)
	hi=$(count "$2" "$3" 5300)
	echo "$1 $(((hi - lo) / 5000)) instructions/op"
}
per_op methane/reuse "$tmp/poolkit.test" '^BenchmarkAppend$/^methane/reuse$'
per_op methane/typed "$tmp/poolkit.test" '^BenchmarkAppendArgs$/^methane/typed$'
per_op methane/boxed "$tmp/poolkit.test" '^BenchmarkAppendArgs$/^methane/boxed$'
per_op driver/methane "$tmp/driver.test" '^BenchmarkInterpolation$'
per_op ServiceInserts "$tmp/poolkit.test" '^BenchmarkServiceInserts$'
per_op ServiceInsertsParsed "$tmp/poolkit.test" '^BenchmarkServiceInsertsParsed$'
per_op driver/ServiceInserts "$tmp/driver.test" '^BenchmarkServiceInserts$'
per_op driver/ServiceInsertsBoxed "$tmp/driver.test" '^BenchmarkServiceInsertsBoxed$'
