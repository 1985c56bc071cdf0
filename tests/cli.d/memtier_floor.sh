# memtier's latency is never below its --rtt (src/workload/memtier.c,
# mt_wait()): the round trip includes a context switch that the machine
# charges only when the task sleeps and is woken, so a request that
# comes due while the task is busy, or less than a switch after, must
# not be served a switch early.  vmm-2008: a call is cost.fault,
# 1500 ns (the round trip's four: 6 us), a switch 3 us; a GET of a
# resident item is two touches, 0.004 us.  Sourced by tests/cli.sh
# (P, T, t, ok, bad).  Cost: under a second.

mt="memtier -t 1 --test-time=1 --key-maximum=999 --ratio=0:1 --preload"

t "memtier --rtt: two clients' requests take the round trip at the least"
# Client A's reply at t0; B's request takes 6.004 us, to t0+6.004; A's
# is due at t0 + 15 - 6 = t0+9, less than a switch away: the task sleeps
# 2.996 us and is woken with the 3 us switch, so A's calls start at
# t0+12.004 and its reply is at t0+18.008.  B (replied t0+6.004) is due
# at t0+15.004, before that: it is served at once, replied at t0+24.012.
# Every latency 18.008 us, two requests every 18.008 us.  Before the fix
# the switch was taken out of the wait but never charged: 12.008 us.
a=$($P run --ram 64M $mt -c 2 2>&1 | grep '^Totals' | head -1)
echo "$a" | grep -Eq '^Totals +111085\.75 +111085\.75 +0\.00 +0\.01800 ' &&
ok || bad "$a"

t "memtier --rtt: no latency percentile below the round trip, 1-4 clients"
fails=
for c in 1 2 3 4; do
	for rtt in 9us 15us 20us 40us; do
		# The mean (ALL STATS) and p50, p99, p99.9, in ms.
		out=$($P run --ram 64M $mt -c $c --rtt=$rtt 2>&1 | grep '^Totals')
		r=${rtt%us}
		echo "$out" | awk -v r="$r" 'NR == 1 { if ($5 * 1000 < r) bad = 1 }
			NR == 2 { if ($2 * 1000 < r || $3 * 1000 < r || $4 * 1000 < r) bad = 1 }
			END { exit bad || NR != 2 }' ||
			fails="$fails c=$c rtt=$rtt: $out;"
	done
done
[ -z "$fails" ] && ok || bad "$fails"
