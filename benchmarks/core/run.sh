#!/usr/bin/env bash
# Runs the core comparison (pool, slicepool, bytebuf against sync.Pool
# patterns and peer libraries) and prints the benchstat tables quoted in
# ../README.md. Usage, from anywhere: benchmarks/core/run.sh [count] [benchtime]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10}
benchtime=${2:-100ms}
out=${OUT:-/tmp/poolkit-core-bench.txt}
benchstat=${BENCHSTAT:-$(go env GOPATH)/bin/benchstat}
[ -x "$benchstat" ] || go install golang.org/x/perf/cmd/benchstat@latest

# -count repeats every top-level benchmark, running its variants one after
# the other each time, so the variants compared in a table are interleaved.
go test -run '^$' -bench . -benchtime "$benchtime" -count "$count" ./core | tee "$out" >/dev/null

units='.unit:(sec/op OR cpu-sec/op OR allocs/op)'
"$benchstat" -filter ".name:Pool $units" -col /impl "$out"
echo
"$benchstat" -filter ".name:Slice $units" -col '/impl@(sync.Pool-writeback pool.Pool poolkit pool.Pool-Get sync.Pool-value)' "$out"
echo
"$benchstat" -filter ".name:Replicate $units" -col '/impl@(sync.Pool-writeback poolkit)' "$out"
echo
"$benchstat" -filter ".name:Buffer $units" -col '/impl@(poolkit bytebufferpool go-buffer-pool sync.Pool-bytes.Buffer)' "$out"
