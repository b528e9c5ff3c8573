#!/bin/sh
# instructions.sh counts, with valgrind's callgrind, the instructions per
# operation of the core pools and of what they replace, serially: a count
# that does not depend on how loaded the machine is, unlike ns/op.
#
# Each figure is the difference between a run of 1,100,000 and one of
# 100,000 iterations of the benchmark, over 1,000,000, so the set-up (whose
# count varies by some 100,000 instructions from run to run) cancels out.
# The garbage collector is off, so the figures leave out GC work. The
# runtime is told not to use RDTSCP, which valgrind cannot decode (a run
# that reaches it dies with SIGILL; this script fails rather than print a
# count of a crashed run). The counts depend on the Go release: compare
# figures made with the same one.
#
# Usage, from anywhere: sh benchmarks/core/instructions.sh [substring]
# (only the benchmarks whose name contains it)
set -eu
cd "$(dirname "$0")"
filter=${1:-}
go version
bin=$(mktemp)
trap 'rm -f "$bin" "$bin".out "$bin".log' EXIT
CGO_ENABLED=0 go test -c -o "$bin" .
count() { # bench iterations
	GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
		--callgrind-out-file="$bin".out "$bin" -test.run '^$' -test.bench "$1" -test.benchtime "$2"x >"$bin".log 2>&1
	grep -q '^PASS$' "$bin".log || { cat "$bin".log >&2; exit 1; }
	sed -n 's/.*Collected : //p' "$bin".log
}
per_op() { # bench
	lo=$(count "$1" 100000)
	hi=$(count "$1" 1100000)
	echo $(((hi - lo) / 1000000))
}
for b in 'Pool/impl=sync.Pool' 'Pool/impl=poolkit' \
	'Slice/impl=sync.Pool-writeback' 'Slice/impl=poolkit' 'Slice/impl=pool.Pool' 'Slice/impl=pool.Pool-Get' \
	'Replicate/impl=sync.Pool-writeback' 'Replicate/impl=poolkit' \
	'Buffer/size=64/impl=poolkit' 'Buffer/size=64/impl=bytebufferpool' \
	'Buffer/size=10000/impl=poolkit' 'Buffer/size=10000/impl=bytebufferpool'; do
	case $b in *"$filter"*) ;; *) continue ;; esac
	# Anchor every level of the name: impl=pool.Pool alone would also
	# match impl=pool.Pool-Get.
	echo "$b/mode=serial $(per_op "^Benchmark$(echo "$b" | sed 's|/|$/^|g')\$/^mode=serial\$") instructions/op"
done
