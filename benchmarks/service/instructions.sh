#!/bin/sh
# instructions.sh counts, with valgrind's callgrind, the instructions per
# request of the poolkit and peers variants' handlers in BenchmarkHandler
# (in process, no network), with a browser's Accept-Encoding and with gzip
# alone: a count that does not depend on how loaded the machine is,
# unlike ns/op.
#
# Each figure is the difference between a run of 1100 and one of 100
# iterations, over 1000, so the set-up cancels out. The garbage collector
# is off, so the figures leave out GC work, which favours the variant that
# allocates more (allocs/op, from the benchmark, says how much).
#
# Usage, from the repository root: sh benchmarks/service/instructions.sh
set -eu
cd "$(dirname "$0")"
. ../callgrind.sh
for ae in browser gzip; do
	for v in empty peers poolkit; do
		echo "ae=$ae variant=$v $(per_op "BenchmarkHandler/variant=$v\$/ae=$ae\$") instructions/op"
	done
done
