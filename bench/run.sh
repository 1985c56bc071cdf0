#!/bin/sh
# make bench: simulation speed and host memory figures.  Printed, never
# asserted: they depend on the host.  PAGELAB, GENTRACE and SIZES name the
# binaries (the Makefile builds them).
set -u
P=${PAGELAB:-./pagelab}
GENTRACE=${GENTRACE:-build/bench/gentrace}
SIZES=${SIZES:-build/bench/sizes}
T=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# A trap that did not exit would let the script go on after ^C or a kill.
trap 'exit 130' INT
trap 'exit 143' TERM

# Rates use the CPU time (user + system) of the pagelab process when
# /usr/bin/time is there, so that a loaded host does not skew them; wall
# time otherwise.
# run OUT CMD...: run CMD with stdout+stderr to OUT; set $secs.
run() {
	out=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$T/cpu" "$@" >"$out" 2>&1
		secs=$(awk '{ print $1 + $2 }' "$T/cpu")
	else
		a=$(date +%s.%N)
		"$@" >"$out" 2>&1
		b=$(date +%s.%N)
		secs=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
	fi
}
# rate COUNT: COUNT per $secs, in millions
rate() { awk -v n="$1" -v s="$secs" 'BEGIN { if (s <= 0) s = 0.005; printf "%.2f M/s (%.2f s)", n / s / 1e6, s }'; }
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
run "$T/seq" $P run --machine modern --ram 8G --swap 0 usemem 4G
echo "  page touches:    $(rate $pages) (each a demand-zero fault)"
echo "  word references: $(rate $words)"
grep ' total$' "$T/seq" | sed 's/^/  simulated: /'

echo "== 4 GiB sequential sweep on vmm-2008 (900 MB RAM, 8 GB swap: reclaim,"
echo "   swap-out)"
run "$T/seq2" $P run --machine vmm-2008 --swap 8G usemem 4G
echo "  page touches:    $(rate $pages)"
echo "  word references: $(rate $words)"
grep ' total$' "$T/seq2" | sed 's/^/  simulated: /'

echo "== resident sweeps: usemem -r 201 minus usemem -r 1, 1000 MB on modern"
echo "   (the PTE hot path)"
run "$T/r1" $P run --machine modern --ram 4G --swap 0 usemem -r 1 -m 1000
s1=$secs
run "$T/r11" $P run --machine modern --ram 4G --swap 0 usemem -r 201 -m 1000
secs=$(awk -v a="$s1" -v b="$secs" 'BEGIN { print b - a }')
echo "  page touches:    $(rate 51200000)"
echo "  word references: $(rate $((51200000 * 1024)))"

echo "== random references over 1 GiB (262144 pages) with 512 MiB of RAM"
refs=4000000
$GENTRACE 262144 $refs 1 >"$T/rand.trace"
run "$T/r.all" $P run --machine ideal --ram 1G --policy fifo trace "$T/rand.trace"
echo "  parse + replay, everything resident (ideal, 1 GiB): $(rate $refs)"
for pol in fifo clock lru opt; do
	run "$T/r.$pol" $P run --machine ideal --ram 512M --policy $pol trace "$T/rand.trace"
	faults=$(awk '$1 == "pgfault" { print $2 }' "$T/r.$pol")
	echo "  $pol (ideal, trace mode): page touches $(rate $refs), $faults faults"
done
run "$T/r.timed" $P run --machine modern --ram 512M --swap 2G --policy clock trace "$T/rand.trace"
echo "  clock (modern, timed, kswapd + NVMe): page touches $(rate $refs)"
grep ' total$' "$T/r.timed" | sed 's/^/  simulated: /'

echo "  (parsing the text trace is included in every figure above)"

echo "== host memory per simulated frame"
$SIZES | sed 's/^/  /'
small=$(maxrss_kb $P run --machine modern --ram 1G --swap 0 usemem -m 1)
big=$(maxrss_kb $P run --machine modern --ram 9G --swap 0 usemem -m 1)
if [ "$small" -gt 0 ] && [ "$big" -gt 0 ]; then
	awk -v s="$small" -v b="$big" 'BEGIN { printf "  max RSS: %d KiB with 1 GiB of RAM, %d KiB with 9 GiB:\n  %.1f bytes per frame\n", s, b, (b - s) * 1024 / (8 * 262144) }'
fi
sw0=$(maxrss_kb $P run --machine modern --ram 1G --swap 0 usemem -m 1)
sw8=$(maxrss_kb $P run --machine modern --ram 1G --swap 8G usemem -m 1)
if [ "$sw0" -gt 0 ]; then
	awk -v s="$sw0" -v b="$sw8" 'BEGIN { printf "  8 GiB of swap adds %d KiB: %.1f bytes per swap slot\n", b - s, (b - s) * 1024 / (8 * 262144) }'
fi
m1=$(maxrss_kb $P run --machine modern --ram 16G --swap 0 usemem -m 64)
m2=$(maxrss_kb $P run --machine modern --ram 16G --swap 0 usemem 4G)
awk -v s="$m1" -v b="$m2" 'BEGIN { printf "  mapping 4 GiB instead of 64 MiB adds %d KiB: %.1f bytes per mapped,\n  resident page (PTE + nothing else)\n", b - s, (b - s) * 1024 / (1048576 - 16384) }'

# A run is stopped after QSBENCH_LIMIT seconds (default 300) and said so.
# The limit came in for clockpro, whose cold hand stepped over its whole
# clock on each reclaim call while the few cold pages were busy with I/O
# (hours on this case).  It jumps to the next resident cold page now
# (src/policy/clock_index.h), with the same choices: 16.2 s of CPU for
# this row (median of 3, host load about 4), where qsbench -p 4 -m 13 in
# 52M went from 58.1 s to 0.95 s (3 pairs side by side).  The limit stays
# as a guard.
limit=${QSBENCH_LIMIT:-300}
echo "== qsbench -p 4 -m 230 on vmm-2008 at 1.1 x the threshold of swapping"
echo "   (--ram 836M), per policy (each stopped after $limit s)"
for pol in $($P policies --names); do
	[ "$pol" = opt ] && continue
	/usr/bin/time -f "  $pol: %e s host, %M KiB max RSS" -o "$T/qs.time" \
		timeout "$limit" $P run --machine vmm-2008 --ram 836M --policy $pol qsbench -p 4 -m 230 >"$T/qs.out" 2>&1
	rc=$?
	if [ $rc -eq 124 ]; then
		echo "  $pol: stopped after $limit s (did not finish)"
	else
		grep -E 'total' "$T/qs.out"
		grep -E 'host' "$T/qs.time"
	fi
done
