#!/bin/sh
# instructions.sh counts, with valgrind's callgrind, the instructions per
# call of sqlinterp on the service benchmark's SQL (BenchmarkServiceInserts:
# filling an Args and AppendArgs for its two INSERTs, one request's worth;
# ServiceInsertsParsed does the same with the queries parsed once by
# sqlinterp.Parse), and on go-sql-driver/mysql's BenchmarkInterpolation
# query (the methane benchmarks) with typed and boxed arguments: a
# count that does not depend on how loaded the machine is, unlike ns/op.
#
# Each figure is the difference between a run of 1300 and one of 300
# iterations of the benchmark, over 1000, so the set-up cancels out. The
# binary is built with the go command on PATH (the release go.mod asks for
# or newer; set GOTOOLCHAIN to pick another); the garbage collector is
# off, so the figures leave out GC work. The counts depend on the Go
# release, and vary by a few tens between runs: compare figures made with
# the same release, or run more iterations.
#
# Usage, from the repository root: sh benchmarks/sqlinterp/instructions.sh
set -eu
bin=$(mktemp)
trap 'rm -f "$bin" "$bin".out' EXIT
CGO_ENABLED=0 go test -c -o "$bin" ./sqlinterp
count() { # bench iterations
	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
		--callgrind-out-file="$bin".out "$bin" -test.run '^$' -test.bench "$1" -test.benchtime "$2"x 2>&1 |
		sed -n 's/.*Collected : //p'
}
for b in 'ServiceInserts$' 'ServiceInsertsParsed$' 'AppendArgs/methane/typed$' 'AppendArgs/methane/boxed$'; do
	lo=$(count "$b" 300)
	hi=$(count "$b" 1300)
	echo "$b $(((hi - lo) / 1000)) instructions/op"
done
