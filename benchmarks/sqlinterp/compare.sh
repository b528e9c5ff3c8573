#!/usr/bin/env bash
# Compares sqlinterp.Append with go-sql-driver/mysql's interpolateParams on
# the methane article's benchmark, in one run on this machine:
#
#   benchmarks/sqlinterp/compare.sh [count] [benchtime]   (defaults: 10 200ms)
#
# It builds two test binaries, the driver's own tests at the version the
# benchmarks module requires (its BenchmarkInterpolation times the
# unexported interpolateParams alone) and this package's, runs them in
# alternation count times so that load from elsewhere hits both alike,
# renames the driver's row BenchmarkInterpolation to
# BenchmarkInterpolation/impl=go-sql-driver, drops the pkg: lines so that
# benchstat puts all rows in one table, and prints
# benchstat -col /impl (deltas against the driver, the first column).
#
# On a machine shared with other work, wall time (sec/op) swings with the
# load. So each round also measures CPU time per operation (cpu-ns/op):
# the user+system CPU seconds of a run of N iterations minus those of a
# run of 1, divided by N-1, from bash's time. It counts the process's own
# work, GC included, and not the time it waits for a core. benchstat shows
# it as a second table. Set RAW=file to keep the raw benchmark output.
set -euo pipefail
cd "$(dirname "$0")/.." # the benchmarks module
count="${1:-10}"
benchtime="${2:-200ms}"
benchstat="$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")"
if [ ! -x "$benchstat" ]; then
	go install golang.org/x/perf/cmd/benchstat@latest
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

go test -c -o "$tmp/driver.test" github.com/go-sql-driver/mysql
go test -c -o "$tmp/poolkit.test" ./sqlinterp
echo "go-sql-driver/mysql $(go list -m -f '{{.Version}}' github.com/go-sql-driver/mysql), $(go version)" >&2

# cpu_seconds BINARY BENCH ITERATIONS prints the user+system CPU seconds
# of one run of the benchmark.
cpu_seconds() {
	local TIMEFORMAT='%3U %3S' t
	t="$({ time "$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3x" >/dev/null; } 2>&1)"
	echo "$t" | awk '{ print $1 + $2 }'
}

# cpu_line NAME BINARY BENCH prints a benchmark line in cpu-ns/op.
cpu_line() {
	local n=200000 full one
	full="$(cpu_seconds "$2" "$3" "$n")"
	one="$(cpu_seconds "$2" "$3" 1)"
	awk -v name="$1" -v n="$n" -v full="$full" -v one="$one" \
		'BEGIN { printf "%s %d %.1f cpu-ns/op\n", name, n, (full - one) * 1e9 / (n - 1) }'
}

impls="naive seed poolkit-string poolkit-reuse poolkit-nil"
for i in $(seq "$count"); do
	echo "run $i/$count" >&2
	"$tmp/driver.test" -test.run '^$' -test.bench '^BenchmarkInterpolation$' -test.benchtime "$benchtime" |
		sed -e 's|^BenchmarkInterpolation-|BenchmarkInterpolation/impl=go-sql-driver-|' >>"$tmp/raw.txt"
	"$tmp/poolkit.test" -test.run '^$' -test.bench '^BenchmarkInterpolation$' -test.benchtime "$benchtime" >>"$tmp/raw.txt"
	# The -N suffix (GOMAXPROCS) as the runs above print it.
	procs="$(sed -n 's|^BenchmarkInterpolation/impl=go-sql-driver\(-[0-9]*\).*|\1|p' "$tmp/raw.txt" | head -n 1)"
	cpu_line "BenchmarkInterpolation/impl=go-sql-driver$procs" "$tmp/driver.test" '^BenchmarkInterpolation$' >>"$tmp/cpu.txt"
	for impl in $impls; do
		cpu_line "BenchmarkInterpolation/impl=$impl$procs" "$tmp/poolkit.test" "^BenchmarkInterpolation\$/^impl=$impl\$" >>"$tmp/cpu.txt"
	done
done
cat "$tmp/cpu.txt" >>"$tmp/raw.txt"
if [ -n "${RAW:-}" ]; then
	cp "$tmp/raw.txt" "$RAW"
fi
grep -v '^pkg:' "$tmp/raw.txt" >"$tmp/all.txt"
"$benchstat" -col /impl "$tmp/all.txt"
