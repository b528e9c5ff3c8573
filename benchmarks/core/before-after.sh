#!/usr/bin/env bash
# Compares the core pools' own benchmarks (pool, slicepool, bytebuf) at an
# earlier revision with the working tree, the two test binaries run in
# alternation so both see the same machine, and prints benchstat's table.
# Usage, from anywhere in the repo: benchmarks/core/before-after.sh REV [rounds] [benchtime]
# e.g. benchmarks/core/before-after.sh 1334766 8 50ms
set -euo pipefail
rev=${1:?usage: before-after.sh REV [rounds] [benchtime]}
rounds=${2:-8}
benchtime=${3:-50ms}
top=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'git -C "$top" worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$top" worktree add -q --detach "$work/old" "$rev"
benchstat=${BENCHSTAT:-$(go env GOPATH)/bin/benchstat}
[ -x "$benchstat" ] || go install golang.org/x/perf/cmd/benchstat@latest
pkgs="pool slicepool bytebuf"
for p in $pkgs; do
	(cd "$work/old" && go test -c -o "$work/old-$p.test" "./$p")
	(cd "$top" && go test -c -o "$work/new-$p.test" "./$p")
done
for i in $(seq 1 "$rounds"); do
	for v in old new; do
		for p in $pkgs; do
			"$work/$v-$p.test" -test.run '^$' -test.bench 'BenchmarkGetPut|BenchmarkGetWritePut' \
				-test.benchtime "$benchtime" -test.benchmem >>"$work/$v.txt"
		done
	done
done
"$benchstat" -filter '.unit:(sec/op OR allocs/op)' "$rev=$work/old.txt" "HEAD=$work/new.txt"
