#!/bin/sh
# run.sh runs poolvet (every check, -all) over the modules of one draw,
# as a new user would, and scores its reports against the triage of
# that draw.
#
# Usage, from anywhere in a poolkit checkout:
#
#	poolvet/eval/draw/run.sh [-warm] A|B
#
# DRAW.txt (made by draw, the command beside this script) lists the
# modules of the draw. Each is copied out of the module cache (go mod
# download) into a scratch directory, its dependencies are downloaded,
# and go vet -vettool=poolvet -all -json runs in it, with the module's
# own go.mod, on the packages draw -scope names (below): the modules are
# large, and all of them would not fit in an hour on a shared machine.
# With -warm, run.sh only downloads the modules and builds what go vet
# needs (plain go vet, its output thrown away), so that a later run
# only has poolvet left to do and nothing of poolvet's output is seen. tally then prints the reports per module and
# writes them, each with its verdict from verdicts-DRAW.tsv, to
# $POOLVET_DRAW/DRAW/findings.txt; prints the false positive rate of
# the default checks and of -all, and the reports no verdict covers;
# and prints which problems of problems-DRAW.tsv (found by reading
# every Get and Put site) the reports catch. Only reports in the files
# the draw scores count: the module's own .go files that are not tests
# and not under vendor/ or testdata/, in the packages poolvet runs on:
# those with a file mentioning sync.Pool and those importing one of
# them (draw -scope). Each module's vet time is printed
# to standard error. The scratch directory is $POOLVET_DRAW (default
# /tmp/poolvet-draw); copies already there are reused.
set -eu

warm=false
if [ "${1:-}" = -warm ]; then
	warm=true
	shift
fi
[ $# -ge 1 ] || { echo "usage: $0 [-warm] A|B" >&2; exit 2; }
draw=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
evaldir=$(cd "$here/.." && pwd)
repo=$(cd "$here/../../.." && pwd)
list=$here/$draw.txt
[ -f "$list" ] || { echo "$list: no such draw" >&2; exit 2; }
work=${POOLVET_DRAW:-/tmp/poolvet-draw}
mkdir -p "$work/src" "$work/$draw/out"
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=mod

if [ "${POOLVET_DRAW_ONE:-}" != 1 ]; then
	(cd "$repo" && go build -o "$work/poolvet" ./cmd/poolvet)
	(cd "$evaldir" && go build -o "$work/tally" ./tally && go build -o "$work/draw" ./draw)
	echo "poolvet built from $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "$repo")$(git -C "$repo" diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)'), $(go version)"
fi

# one prepares and vets one module: MODULE VERSION.
one() {
	mod=$1 ver=$2
	name=$(echo "$mod" | tr / _)
	dir=$work/src/$name@$ver
	if [ ! -d "$dir" ]; then
		src=$(go mod download -json "$mod@$ver" | sed -n 's/^	"Dir": "\(.*\)",$/\1/p')
		[ -n "$src" ] || { echo "$mod@$ver: go mod download gave no directory" >&2; return 1; }
		rm -rf "$dir.tmp"
		cp -r "$src" "$dir.tmp" && chmod -R u+w "$dir.tmp"
		# A module from before modules has no go.mod: give it one,
		# with its imports at their newest versions.
		if [ ! -f "$dir.tmp/go.mod" ]; then
			(cd "$dir.tmp" && go mod init "$mod" 2>/dev/null && go mod tidy) || true
		fi
		mv "$dir.tmp" "$dir"
	fi
	cd "$dir"
	# shellcheck disable=SC2046 # one pattern a line, none with spaces
	set -- $("$work/draw" -scope "$dir=$mod")
	go mod download >/dev/null 2>&1 || true
	start=$(date +%s) rc=0
	if $warm; then
		go vet "$@" >/dev/null 2>&1 || rc=$?
		echo "$mod: $# packages, warmed (exit $rc), $(($(date +%s) - start)) s" >&2
		return
	fi
	timeout "${POOLVET_DRAW_TIMEOUT:-900}" go vet -vettool="$work/poolvet" -all -json "$@" >"$work/$draw/out/$name.json" 2>&1 || rc=$?
	echo "$mod: $# packages, vet exit $rc, $(($(date +%s) - start)) s" >&2
}

if [ "${POOLVET_DRAW_ONE:-}" = 1 ]; then
	one "$@"
	exit
fi
if $warm; then
	set -- -warm "$draw"
else
	set -- "$draw"
fi

# Two modules at a time: each run is mostly loading dependencies.
grep -v '^#' "$list" | while read -r _ mod ver _; do echo "$mod $ver"; done |
	POOLVET_DRAW_ONE=1 xargs -P "${POOLVET_DRAW_JOBS:-2}" -L 1 "$0" "$@"
$warm && exit

args=
while read -r d mod ver _; do
	case $d in '' | '#'*) continue ;; esac
	args="$args $mod=$work/src/$(echo "$mod" | tr / _)@$ver"
done <"$list"

# shellcheck disable=SC2086 # one MODULE=DIR argument per module
"$work/tally" -out "$work/$draw/out" -findings "$work/$draw/findings.txt" -scored \
	-verdicts "$here/verdicts-$draw.tsv" -problems "$here/problems-$draw.tsv" $args
echo "reports: $work/$draw/findings.txt"
