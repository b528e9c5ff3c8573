#!/bin/sh
# instructions.sh counts, with valgrind's callgrind, the instructions per
# call of jsonpool's fast paths and of what they replace, on the service
# benchmark's order (decode) and receipt (encode), and on numeric arrays
# and slices (BenchmarkUnmarshalNumbers: the student of `poolkit bench`'s
# "json unmarshal 1KiB array" row, 1024 ints, 1024 floats, a struct of
# both): a count that does not depend on how loaded the machine is,
# unlike ns/op.
#
# Each figure is the difference between a run of 1300 and one of 300
# iterations of the benchmark, over 1000 (250 and 50, over 200, for the
# numeric ones, which take longer), so the set-up cancels out. The
# binary is built with the go command on PATH (the release go.mod asks for
# or newer; set GOTOOLCHAIN to pick another); the garbage collector is
# off, so the figures leave out GC work. The counts depend on the Go
# release: compare figures made with the same one.
#
# Usage, from the repository root: sh benchmarks/jsonpool/instructions.sh
set -eu
bin=$(mktemp)
trap 'rm -f "$bin" "$bin".out' EXIT
go version
CGO_ENABLED=0 go test -c -o "$bin" ./jsonpool
count() { # bench iterations
	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
		--callgrind-out-file="$bin".out "$bin" -test.run '^$' -test.bench "$1" -test.benchtime "$2"x 2>&1 |
		sed -n 's/.*Collected : //p'
}
for b in 'FastDecode/path=encoding-json$' 'FastDecode/path=pooled-decoder$' 'FastDecode/path=fast$' \
	'EncodeReceipt/variant=encoding-json$' 'EncodeReceipt/variant=jsonpool-without-fast-path$' 'EncodeReceipt/variant=jsonpool$'; do
	lo=$(count "$b" 300)
	hi=$(count "$b" 1300)
	echo "$b $(((hi - lo) / 1000)) instructions/op"
done
for doc in student ints floats struct; do
	for impl in encoding_json jsonpool; do
		b="UnmarshalNumbers/doc=$doc/impl=$impl\$"
		lo=$(count "$b" 50)
		hi=$(count "$b" 250)
		echo "$b $(((hi - lo) / 200)) instructions/op"
	done
done
