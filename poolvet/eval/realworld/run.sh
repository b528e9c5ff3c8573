#!/bin/sh
# run.sh runs poolvet, every check (-all), over the modules listed in
# modules.txt at their pinned versions, as a new user would: each module
# is copied out of the module cache (go mod download) into a scratch
# directory, its own dependencies are downloaded, and
# go vet -vettool=poolvet -all -json ./... runs in it, test files
# included. It prints one row per module with the number of reports of
# each check, and writes the reports, one a line, to
# $POOLVET_REALWORLD/findings.txt, each with its verdict from
# verdicts.tsv (the triage REAL-WORLD.md records). Then it prints the
# false positive rate of the triaged reports and lists the reports no
# verdict covers, and which of the problems found by reading the modules
# (problems.tsv) the reports catch: the precision and recall figures of
# REAL-WORLD.md.
#
# Usage, from anywhere in a poolkit checkout:
#
#	poolvet/eval/realworld/run.sh [-seen] [-go]
#
# By default it runs the modules poolvet had never been run on before
# they were triaged; -seen adds the modules of the earlier runs, -go
# adds Go's own std and cmd. The scratch directory is
# $POOLVET_REALWORLD (default /tmp/poolvet-realworld); copies already
# there are reused. Only the Go module proxy is needed.
set -eu

seen=false
gosrc=false
for a in "$@"; do
	case $a in
	-seen) seen=true ;;
	-go) gosrc=true ;;
	*) echo "usage: $0 [-seen] [-go]" >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
evaldir=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
work=${POOLVET_REALWORLD:-/tmp/poolvet-realworld}
mkdir -p "$work/src" "$work/out"
# Each module builds with its own go.mod; the toolchain is the local one.
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=mod

(cd "$repo" && go build -o "$work/poolvet" ./cmd/poolvet)
(cd "$evaldir" && go build -o "$work/tally" ./tally)
echo "poolvet built from $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "$repo")$(git -C "$repo" diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)'), $(go version)"

# vet runs poolvet over the packages of the module in the current
# directory and keeps what go vet prints (JSON, and any build error) in
# $work/out/$1.json.
vet() {
	start=$(date +%s)
	go vet -vettool="$work/poolvet" -all -json ./... >"$work/out/$1.json" 2>&1 || true
	echo "$1 $(go list -e ./... 2>/dev/null | wc -l) packages, $(($(date +%s) - start)) s" >&2
}

args=
while read -r mod ver tag; do
	case $mod in '' | '#'*) continue ;; esac
	if [ "$tag" = seen ] && ! $seen; then continue; fi
	name=$(echo "$mod" | tr / _)
	dir=$work/src/$name@$ver
	if [ ! -d "$dir" ]; then
		src=$(go mod download -json "$mod@$ver" | sed -n 's/^	"Dir": "\(.*\)",$/\1/p')
		[ -n "$src" ] || { echo "$mod@$ver: go mod download gave no directory" >&2; exit 1; }
		cp -r "$src" "$dir.tmp" && chmod -R u+w "$dir.tmp"
		# A module from before modules (bytebufferpool v1.0.0) has no
		# go.mod: give it one, with its imports at their newest versions.
		if [ ! -f "$dir.tmp/go.mod" ]; then
			(cd "$dir.tmp" && go mod init "$mod" 2>/dev/null && go mod tidy)
		fi
		mv "$dir.tmp" "$dir"
	fi
	(cd "$dir" && go mod download && vet "$name")
	args="$args $mod=$dir"
done <"$here/modules.txt"

if $gosrc; then
	goroot=$(go env GOROOT)
	(cd "$goroot/src" && vet std)
	(cd "$goroot/src/cmd" && vet cmd)
	args="$args std=$goroot/src cmd=$goroot/src/cmd"
fi

# shellcheck disable=SC2086 # one MODULE=DIR argument per module
"$work/tally" -out "$work/out" -findings "$work/findings.txt" \
	-verdicts "$here/verdicts.tsv" -problems "$here/problems.tsv" $args
echo "reports: $work/findings.txt"
