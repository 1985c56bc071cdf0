#!/bin/sh
# make bench: simulation speed and host memory figures.  Printed, never
# asserted: they depend on the host.  PAGELAB, GENTRACE and SIZES name the
# binaries (the Makefile builds them).
set -u
P=${PAGELAB:-./pagelab}
GENTRACE=${GENTRACE:-build/bench/gentrace}
SIZES=${SIZES:-build/bench/sizes}
T=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

now() { date +%s.%N; }
# rate COUNT START END: COUNT per second, in millions
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.2f M/s (%.2f s)", n / (b - a) / 1e6, b - a }'; }
# maxrss_kb CMD...: peak resident set of a command, in KiB
maxrss_kb() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$T/rss" "$@" >/dev/null 2>&1
		cat "$T/rss"
	else
		echo 0
	fi
}

echo "== 4 GiB sequential sweep: usemem 4G on modern with 8 GiB RAM (no reclaim)"
pages=1048576
words=$((pages * 512))
a=$(now)
$P run --machine modern --ram 8G --swap 0 usemem 4G >"$T/seq" 2>&1
b=$(now)
echo "  page touches:    $(rate $pages "$a" "$b")"
echo "  word references: $(rate $words "$a" "$b")"
grep ' total$' "$T/seq" | sed 's/^/  simulated: /'

echo "== 4 GiB sequential sweep on vmm-2008 (900 MB RAM, 8 GB swap: reclaim + swap-out)"
a=$(now)
$P run --machine vmm-2008 --swap 8G usemem 4G >"$T/seq2" 2>&1
b=$(now)
echo "  page touches:    $(rate $pages "$a" "$b")"
echo "  word references: $(rate $words "$a" "$b")"
grep ' total$' "$T/seq2" | sed 's/^/  simulated: /'

echo "== random references over 1 GiB (262144 pages) with 512 MiB of RAM"
refs=4000000
$GENTRACE 262144 $refs 1 >"$T/rand.trace"
a=$(now)
$P run --machine ideal --ram 1G --policy fifo trace "$T/rand.trace" >/dev/null 2>&1
b=$(now)
echo "  parse + replay, everything resident (ideal, 1 GiB): $(rate $refs "$a" "$b")"
for pol in fifo clock lru opt; do
	a=$(now)
	$P run --machine ideal --ram 512M --policy $pol trace "$T/rand.trace" >"$T/r.$pol" 2>&1
	b=$(now)
	faults=$(awk '$1 == "pgfault" { print $2 }' "$T/r.$pol")
	echo "  $pol (ideal, trace mode): page touches $(rate $refs "$a" "$b"), $faults faults"
done
a=$(now)
$P run --machine modern --ram 512M --swap 2G --policy clock trace "$T/rand.trace" >"$T/r.timed" 2>&1
b=$(now)
echo "  clock (modern, timed, kswapd + NVMe): page touches $(rate $refs "$a" "$b")"
grep ' total$' "$T/r.timed" | sed 's/^/  simulated: /'

echo "== host memory per simulated frame"
$SIZES | sed 's/^/  /'
small=$(maxrss_kb $P run --machine modern --ram 1G --swap 0 usemem -m 1)
big=$(maxrss_kb $P run --machine modern --ram 9G --swap 0 usemem -m 1)
if [ "$small" -gt 0 ] && [ "$big" -gt 0 ]; then
	awk -v s="$small" -v b="$big" 'BEGIN { printf "  max RSS: %d KiB with 1 GiB of RAM, %d KiB with 9 GiB: %.1f bytes per frame\n", s, b, (b - s) * 1024 / (8 * 262144) }'
fi
sw0=$(maxrss_kb $P run --machine modern --ram 1G --swap 0 usemem -m 1)
sw8=$(maxrss_kb $P run --machine modern --ram 1G --swap 8G usemem -m 1)
if [ "$sw0" -gt 0 ]; then
	awk -v s="$sw0" -v b="$sw8" 'BEGIN { printf "  8 GiB of swap adds %d KiB: %.1f bytes per swap slot\n", b - s, (b - s) * 1024 / (8 * 262144) }'
fi
m1=$(maxrss_kb $P run --machine modern --ram 16G --swap 0 usemem -m 64)
m2=$(maxrss_kb $P run --machine modern --ram 16G --swap 0 usemem 4G)
awk -v s="$m1" -v b="$m2" 'BEGIN { printf "  mapping 4 GiB instead of 64 MiB adds %d KiB: %.1f bytes per mapped, resident page (PTE + nothing else)\n", b - s, (b - s) * 1024 / (1048576 - 16384) }'

echo "== qsbench -p 4 -m 230 on vmm-2008 at 1.1 x the threshold of swapping (--ram 836M), per policy"
for pol in $($P policies | awk '{print $1}'); do
	[ "$pol" = opt ] && continue
	/usr/bin/time -f "  $pol: %e s host, %M KiB max RSS" $P run --machine vmm-2008 --ram 836M --policy $pol qsbench -p 4 -m 230 2>&1 | grep -E 'total|host'
done
