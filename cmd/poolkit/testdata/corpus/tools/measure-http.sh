#!/bin/bash
# measure-http.sh BIN PORT URLPATHS... : runs BIN under load for 20 s and prints
# requests/s, CPU µs per request and allocations and bytes per request.
D=${D:-/tmp/poolkit-corpus}
bin=$1; port=$2; shift 2
GODEBUG=memprofilerate=4096 $D/bin/$bin -addr 127.0.0.1:$port > /dev/null 2>&1 &
pid=$!
sleep 1
B=http://127.0.0.1:$port
urls=(); for p in "$@"; do urls+=("$B$p"); done
$D/bin/load -d 3s -c 6 "${urls[@]}" > /dev/null 2>&1
t0=$(awk '{print $14+$15}' /proc/$pid/stat)
$D/bin/load -d 20s -c 6 "${urls[@]}" > $D/m.out 2>&1 &
lp=$!
sleep 2
curl -s -o $D/m.pb.gz "$B/debug/pprof/allocs?seconds=15"
wait $lp
t1=$(awk '{print $14+$15}' /proc/$pid/stat)
n=$(awk '{print $1}' $D/m.out | tail -1)
kill $pid
${POOLKIT:-poolkit} allocs -profile $D/m.pb.gz -format json -top 1 | python3 -c "
import json,sys; r=json.load(sys.stdin); T=r['total']
n=$n; rate=n/20.0; cpu=($t1-$t0)/100.0
print('$bin: %d requests, %.0f req/s, CPU %.0f us/req, %.1f allocs/req, %.0f B/req' % (n, rate, cpu*1e6/n, T['allocs_per_sec']/rate, T['bytes_per_sec']/rate))"
