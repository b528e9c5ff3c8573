#!/bin/bash
# measure-nats.sh BIN PORT PROFPORT: BIN under 4 publishing connections
# for 20 s; prints messages/s, CPU ns per message, allocations and bytes
# per message.
D=${D:-/tmp/poolkit-corpus}
bin=$1; port=$2; pport=$3
GODEBUG=memprofilerate=4096 $D/bin/$bin -a 127.0.0.1 -p $port --profile $pport > /dev/null 2>&1 &
pid=$!
sleep 1.5
$D/bin/load -d 3s -c 4 -nats 127.0.0.1:$port > /dev/null 2>&1
t0=$(awk '{print $14+$15}' /proc/$pid/stat)
$D/bin/load -d 20s -c 4 -nats 127.0.0.1:$port > $D/n.out 2>&1 &
lp=$!
sleep 2
curl -s -o $D/n.pb.gz "http://127.0.0.1:$pport/debug/pprof/allocs?seconds=15"
wait $lp
t1=$(awk '{print $14+$15}' /proc/$pid/stat)
n=$(awk '{print $1}' $D/n.out | tail -1)
kill $pid
${POOLKIT:-poolkit} allocs -profile $D/n.pb.gz -format json -top 1 | python3 -c "
import json,sys; r=json.load(sys.stdin); T=r['total']
n=$n; rate=n/20.0; cpu=($t1-$t0)/100.0
print('$bin: %d msgs, %.0f msg/s, CPU %.0f ns/msg, %.3f allocs/msg, %.0f B/msg' % (n, rate, cpu*1e9/n, T['allocs_per_sec']/rate, T['bytes_per_sec']/rate))"
