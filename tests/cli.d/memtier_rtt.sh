# memtier's network round trip, --rtt (src/workload/memtier.c,
# docs/workloads.md): the round trip is the four system calls, the
# server's wake-up (a context switch) and a wait off the CPU for the rest;
# one client pays it on every request, several overlap it with each
# other's requests.  vmm-2008: a call is cost.fault, 1500 ns, a context
# switch 3 us.  Sourced by tests/cli.sh (P, T, t, ok, bad).  Cost: under
# a second.

mt="memtier -t 1 --test-time=1 --key-maximum=999 --ratio=0:1 --preload"

t "memtier --rtt: one client takes the round trip on every request"
# Default 15us: 6 us of calls, 3 us of switch, 6 us waited, and the two
# touches: 15.004 us a request, 10^9 / 15004 = 66648.9 requests a second
# (66648.65 over the 1 s with the first request's start); --rtt=40us:
# 25 us waited, 40.004 us a request; --rtt=0: the calls alone, 6.004 us.
a=$($P run --ram 64M $mt -c 1 2>&1 | grep '^Totals' | head -1)
b=$($P run --ram 64M $mt -c 1 --rtt=40us 2>&1 | grep '^Totals' | head -1)
z=$($P run --ram 64M $mt -c 1 --rtt=0 2>&1 | grep '^Totals' | head -1)
echo "$a" | grep -Eq '^Totals +66648\.65 +66648\.65 +0\.00 +0\.01500 ' &&
echo "$b" | grep -Eq '^Totals +24997\.46 +24997\.46 +0\.00 +0\.04000 ' &&
echo "$z" | grep -Eq '^Totals +166554\.12 +166554\.12 +0\.00 +0\.00600 ' &&
ok || bad "$a / $b / $z"

t "memtier --rtt: four clients overlap it, the server never waits"
# A client's next request is due 6 us after its reply; the other three
# take 18 us meanwhile: only each client's first request waits, and the
# latency is the round of four, 24 us, as without the round trip.
a=$($P run --ram 64M $mt -c 4 2>&1 | grep '^Totals' | head -1)
z=$($P run --ram 64M $mt -c 4 --rtt=0 2>&1 | grep '^Totals' | head -1)
echo "$a" | grep -Eq '^Totals +166552\.62 +166552\.62 +0\.00 +0\.02402 ' &&
echo "$z" | grep -Eq '^Totals +166554\.12 +166554\.12 +0\.00 +0\.02402 ' &&
ok || bad "$a / $z"

t "memtier --rtt: a bad value, one line, exit 2"
$P run --ram 64M memtier -t 1 -c 1 -n 10 --rtt=2s >/dev/null 2>"$T/e1"; r1=$?
$P run --ram 64M memtier -t 1 -c 1 -n 10 --rtt=fast >/dev/null 2>"$T/e2"; r2=$?
[ $r1 -eq 2 ] && [ $r2 -eq 2 ] && [ "$(cat "$T/e1")" = "pagelab: memtier: bad value '2s' for --rtt=2s" ] &&
	[ "$(cat "$T/e2")" = "pagelab: memtier: bad value 'fast' for --rtt=fast" ] && ok ||
	bad "$r1 $r2: $(cat "$T/e1" "$T/e2")"
