#!/usr/bin/env bash
# Counts CPU cycles and instructions per operation with perf stat, for each
# variant of the core benchmarks, in interleaved rounds, and prints them as
# benchstat tables. On a machine shared with other work this is steadier
# than ns/op: cycles are counted only while the benchmark runs on a core.
# Each figure is the difference between a run of ops operations and a run
# of one, divided by ops-1, so the test binary's start-up is not counted.
# Usage: benchmarks/core/cycles.sh [rounds] [ops]   (needs perf)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
ops=${2:-20000000}
out=${OUT:-/tmp/poolkit-core-cycles.txt}
benchstat=${BENCHSTAT:-$(go env GOPATH)/bin/benchstat}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
go test -c -o "$bin" ./core
names=$("$bin" -test.run '^$' -test.bench . -test.benchtime 1x | awk '/^Benchmark/{sub(/-[0-9]+$/, "", $1); print $1}')
: > "$out"
# count NAME N prints the cycles and instructions of one run of N operations.
count() {
	perf stat -x, -e cycles,instructions "$bin" -test.run '^$' \
		-test.bench "^$1\$" -test.benchtime "$2x" 2>&1 >/dev/null |
		awk -F, '$3 == "cycles" { c = $1 } $3 == "instructions" { i = $1 } END { print c, i }'
}
for _ in $(seq "$rounds"); do
	for name in $names; do
		read -r c1 i1 < <(count "$name" 1)
		read -r cn iN < <(count "$name" "$ops")
		awk -v name="$name" -v ops="$ops" -v c1="$c1" -v i1="$i1" -v cn="$cn" -v iN="$iN" 'BEGIN {
			printf "%s %d %.2f cycles/op %.2f insn/op\n", name, ops, (cn - c1) / (ops - 1), (iN - i1) / (ops - 1) }' >> "$out"
	done
done
"$benchstat" -filter '.name:Pool' -col /impl "$out"
echo
"$benchstat" -filter '.name:Slice' -col '/impl@(sync.Pool-writeback pool.Pool poolkit pool.Pool-Get sync.Pool-value)' "$out"
echo
"$benchstat" -filter '.name:Replicate' -col '/impl@(sync.Pool-writeback poolkit)' "$out"
echo
"$benchstat" -filter '.name:Buffer' -col '/impl@(poolkit bytebufferpool go-buffer-pool sync.Pool-bytes.Buffer)' "$out"
