# Workloads started late (--set start.K=SECONDS, src/engine/delay.c): the
# wrapper passes on every callback, so a workload that times itself from
# its marks runs as long, and reports the same, as one started at once.

t "fio time_based started 2 s late: the same 1 s run and report"
fio="fio --name=x --rw=randread --bs=64k --size=1M --runtime=1 --time_based"
a=$($P run --ram 64M --max-time 6 $fio 2>&1 | grep -E 'IOPS=|run=|elapsed')
b=$($P run --ram 64M --max-time 6 --set start.0=2 $fio 2>&1 | grep -E 'did not|IOPS=|run=|elapsed')
echo "$b" | grep -q 'run=1000-1000msec' && [ "$a" = "$b" ] && ok || bad "$b"

t "memtier --test-time started 2 s late: the same report"
# memtier learns the machine's system-call and context-switch costs
# through attach() and times itself (and its round trips' waits, --rtt's
# default 15us a request) through mark(): both must reach it through the
# wrapper.
mt="memtier -t 1 -c 1 --test-time=1 --key-maximum=999 --ratio=0:1 --preload"
a=$($P run --ram 64M --max-time 6 $mt 2>&1 | grep -E '^Totals|total$')
b=$($P run --ram 64M --max-time 6 --set start.0=2 $mt 2>&1 | grep -E 'did not|^Totals|total$')
echo "$b" | grep -Eq '^Totals +66648\.65 ' && [ "$a" = "$b" ] && ok || bad "$b"
