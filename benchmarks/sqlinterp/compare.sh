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
# Set RAW=file to keep the raw benchmark output.
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

for i in $(seq "$count"); do
	echo "run $i/$count" >&2
	"$tmp/driver.test" -test.run '^$' -test.bench '^BenchmarkInterpolation$' -test.benchtime "$benchtime" |
		sed -e 's|^BenchmarkInterpolation-|BenchmarkInterpolation/impl=go-sql-driver-|' >>"$tmp/raw.txt"
	"$tmp/poolkit.test" -test.run '^$' -test.bench '^BenchmarkInterpolation$' -test.benchtime "$benchtime" >>"$tmp/raw.txt"
done
if [ -n "${RAW:-}" ]; then
	cp "$tmp/raw.txt" "$RAW"
fi
grep -v '^pkg:' "$tmp/raw.txt" >"$tmp/all.txt"
"$benchstat" -col /impl "$tmp/all.txt"
