# callgrind.sh is sourced by the instructions.sh scripts. It builds the
# test binary of the package in the current directory and defines count,
# which prints the instructions valgrind's callgrind counts for a run of
# one benchmark, and per_op, the difference between a run of 1100 and one
# of 100 iterations, over 1000, so that the set-up cancels out. The
# garbage collector is off, so the figures leave out GC work. The
# runtime's use of RDTSCP is off too: valgrind does not emulate it, and a
# run that reaches it dies of SIGILL; count then fails instead of printing
# the small count of a crashed run.
bin=$(mktemp)
trap 'rm -f "$bin" "$bin".out' EXIT
CGO_ENABLED=0 go test -c -o "$bin" .
count() { # bench iterations
	out=$(GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
		--callgrind-out-file="$bin".out "$bin" -test.run '^$' -test.bench "$1" -test.benchtime "$2"x 2>&1) || {
		echo "callgrind.sh: $1 at $2 iterations failed:" >&2
		echo "$out" | tail -5 >&2
		return 1
	}
	echo "$out" | sed -n 's/.*Collected : //p'
}
per_op() { # bench
	lo=$(count "$1" 100) || return 1
	hi=$(count "$1" 1100) || return 1
	echo $(((hi - lo) / 1000))
}
