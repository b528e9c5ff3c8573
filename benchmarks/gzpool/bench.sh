#!/bin/sh
# bench.sh BENCH_REGEXP OUT: runs the gzpool comparison benchmarks 10 times,
# interleaved (the test binary runs every variant once per round), so that
# load that drifts over the run on a shared machine hits all variants alike.
# Compare with: benchstat -col /impl OUT
# BENCHTIME (default 200ms) sets -test.benchtime.
set -eu
cd "$(dirname "$0")"
bin=$(mktemp)
go test -c -o "$bin" .
: > "$2"
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$bin" -test.run '^$' -test.bench "$1" -test.benchtime "${BENCHTIME:-200ms}" -test.count 1 >> "$2"
done
rm -f "$bin"
