#!/bin/sh
# instructions.sh counts, with valgrind's callgrind, the instructions per
# call of sqlinterp on the service benchmark's SQL (BenchmarkServiceInserts:
# filling an Args and AppendArgs for its two INSERTs, one request's worth;
# ServiceInsertsParsed does the same with the queries parsed once by
# sqlinterp.Parse), and on the methane article's query with typed and boxed arguments: a
# count that does not depend on how loaded the machine is, unlike ns/op.
#
# Each figure is the difference between a run of 1300 and one of 300
# iterations of the benchmark, over 1000, so the set-up cancels out. The
# binary is built with go1.24.0 (fetched by GOTOOLCHAIN) because valgrind
# stops on the RDTSCP instruction that newer Go runtimes use; the garbage
# collector is off, so the figures leave out GC work.
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
