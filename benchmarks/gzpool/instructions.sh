#!/bin/sh
# instructions.sh counts, with valgrind's callgrind, the instructions per
# response of each middleware in BenchmarkHandler on the 3.2 KB JSON body,
# with a browser's Accept-Encoding and with gzip alone: a count that does
# not depend on how loaded the machine is, unlike ns/op.
#
# Each figure is the difference between a run of 1100 and one of 100
# iterations, over 1000, so the set-up cancels out. The garbage collector
# is off, so the figures leave out GC work (allocs/op, from the
# benchmark, says how much of it there would be).
#
# Usage, from the repository root: sh benchmarks/gzpool/instructions.sh
set -eu
cd "$(dirname "$0")"
. ../callgrind.sh
for ae in browser gzip; do
	for impl in none httpcompress gzhttp gziphandler; do
		echo "ae=$ae impl=$impl $(per_op "BenchmarkHandler\$/body=3.2KB/ae=$ae/impl=$impl\$") instructions/op"
	done
done
