#!/bin/sh
# make bench, cache part: the cache-only replay of --machine ideal side by
# side with libCacheSim's cachesim on the very same references, and OPT's
# host memory.  Printed, never asserted.  PAGELAB and GENTRACE name the
# binaries; LIBCACHESIM the path of a cachesim binary built outside this
# repository (libCacheSim is never built by the project: without it only
# pagelab's figures are printed).  BENCH_ZIPF_REFS (default 20 M) and
# BENCH_SEQ_REFS (default 100 M) set the lengths.
set -u
P=${PAGELAB:-./pagelab}
GENTRACE=${GENTRACE:-build/bench/gentrace}
LCS=${LIBCACHESIM:-}
N=${BENCH_ZIPF_REFS:-20000000}
NSEQ=${BENCH_SEQ_REFS:-100000000}
T=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-bench-cache.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# A trap that did not exit would let the script go on after ^C or a kill.
trap 'exit 130' INT
trap 'exit 143' TERM
# CPUTIME (make bench: build/bench/cputime) times to the microsecond;
# without it GNU time's hundredths of a second.
CPUTIME=${CPUTIME:-}
[ -n "$CPUTIME" ] || [ -x /usr/bin/time ] ||
	{ echo "== cache: /usr/bin/time (Debian's time) or CPUTIME is needed for these figures"; exit 0; }
if [ -n "$LCS" ] && [ ! -x "$LCS" ]; then
	echo "== cache: LIBCACHESIM=$LCS is not an executable; pagelab's figures only"
	LCS=
fi
case $LCS in ""|/*) ;; *) LCS=$(pwd)/$LCS;; esac
# cachesim writes a result file named after the trace into its current
# directory: run it in ours (env -C: coreutils 8.28).

# timed OUT CMD...: run CMD, stdout+stderr to OUT; $secs = CPU seconds
# (user + system: a loaded host does not skew them), $rss = max RSS KiB.
timed() {
	out=$1
	shift
	if [ -n "$CPUTIME" ]; then
		"$CPUTIME" "$T/time" "$@" >"$out" 2>&1
	else
		/usr/bin/time -f '%U %S %M' -o "$T/time" "$@" >"$out" 2>&1
	fi
	secs=$(awk '{ s = $1 + $2; if (s <= 0) s = 0.005; print s }' "$T/time")
	rss=$(awk '{ print $3 }' "$T/time")
}
mps() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", n / s / 1e6 }'; }
# best OUT CMD...: timed, BENCH_RUNS times (default 3); $secs = the least
# CPU time (the host's noise only ever adds to it), $rss = its max RSS.
RUNS=${BENCH_RUNS:-3}
best() {
	b_out=$1
	shift
	b_secs=
	b_i=0
	while [ $b_i -lt "$RUNS" ]; do
		timed "$b_out" "$@"
		if [ -z "$b_secs" ] || awk -v a="$secs" -v b="$b_secs" 'BEGIN { exit !(a < b) }'; then
			b_secs=$secs
			b_rss=$rss
		fi
		b_i=$((b_i + 1))
	done
	secs=$b_secs
	rss=$b_rss
}

PAGES=1048576
FRAMES=100000
# lcs_misses OUT: the misses on libCacheSim's summary line: "N req, M
# miss, ..." from some versions; others print only "N req, miss ratio
# 0.2253, ...": then the ratio, compared at its four places.
lcs_misses() {
	m=$(sed -n 's/.* req, \([0-9]*\) miss,.*/\1/p' "$1" | tail -1)
	[ -n "$m" ] || m=$(sed -n 's/.* req, miss ratio \([0-9.]*\),.*/\1/p' "$1" | tail -1)
	echo "$m"
}
# same_misses PM LM NREFS: pagelab's PM misses are libCacheSim's LM.
same_misses() {
	case $2 in
	"") return 1 ;;
	*.*) [ "$(awk -v m="$1" -v n="$3" 'BEGIN { printf "%.4f", m / n }')" = "$2" ] ;;
	*) [ "$1" = "$2" ] ;;
	esac
}
# The figures below are CPU times, but other processes on the host still
# move them (they share its caches and preempt): say how loaded it was.
load() { [ -r /proc/loadavg ] && echo "   host load average (1, 5, 15 min) $1: $(cut -d' ' -f1-3 /proc/loadavg)"; }
echo "== cache: Zipf(1.0), $N requests over $PAGES pages, $FRAMES frames"
load "at the start"
echo "   gentrace --zipf 1 --out bin|oracle $PAGES $N 1"
echo "   pagelab run --machine ideal --ram ${FRAMES}p --policy P trace FILE"
$GENTRACE --zipf 1 --out bin $PAGES "$N" 1 >"$T/z.pgtrace" || exit 1
[ -n "$LCS" ] && { $GENTRACE --zipf 1 --out oracle $PAGES "$N" 1 >"$T/z.oracleGeneral.bin" || exit 1; }
printf '   %-18s %11s %11s %10s %10s %6s\n' "policy" "pagelab" "libCacheSim" "misses" "lCS misses" "ratio"
# pagelab's policy (and tunables) beside libCacheSim's algorithm: clock
# with first_ref=0 is libCacheSim's Clock (a new object starts unreferenced).
for pair in "lru LRU" "clock:first_ref=0 Clock" "clock -" "arc ARC" "s3fifo:variant=1 S3FIFO" "sieve Sieve"; do
	pol=${pair% *}
	algo=${pair#* }
	sets=""
	case $pol in *:*) sets="--set ${pol#*:}"; pol=${pol%%:*};; esac
	# shellcheck disable=SC2086
	best "$T/p.out" $P run --machine ideal --ram ${FRAMES}p --policy $pol $sets trace "$T/z.pgtrace"
	ps=$secs
	pm=$(awk '$1 == "pgfault" { print $2 }' "$T/p.out")
	name="$pol${sets:+ ${sets#--set }}"
	if [ -n "$LCS" ] && [ "$algo" != - ]; then
		best "$T/l.out" env -C "$T" "$LCS" "$T/z.oracleGeneral.bin" oracleGeneral "$algo" $FRAMES --ignore-obj-size 1
		ls=$secs
		lm=$(lcs_misses "$T/l.out")
		printf '   %-18s %7s M/s %7s M/s %10s %10s %5.1fx\n' "$name" "$(mps "$N" "$ps")" "$(mps "$N" "$ls")" \
			"$pm" "${lm:-?}" "$(awk -v a="$ls" -v b="$ps" 'BEGIN { print a / b }')"
		same_misses "$pm" "$lm" "$N" || echo "   ($name: the miss counts differ)"
	else
		printf '   %-18s %7s M/s %11s %10s\n' "$name" "$(mps "$N" "$ps")" "-" "$pm"
	fi
done
echo "   (requests per second of CPU time, whole process, the least of $RUNS runs each:"
echo "   reading the trace included)"
[ -n "$LCS" ] && {
	echo "   (the ratio is libCacheSim's CPU time over pagelab's.  The same references"
	echo "   for both: gentrace writes both files from one seed, and the miss counts"
	echo "   agree (to the four places of its miss ratio where that is all it prints);"
	echo "   libCacheSim reads its own binary oracleGeneral format, 24 bytes a"
	echo "   request, pagelab its binary format, 8 bytes)"
}
# Where pagelab's time goes: with a frame for every page nothing is
# evicted, so that run is the reader, the reference loop's hits and the
# first references' faults alone (and the set-up of 2^20 frames); the rest
# of the 100K-frame run's time is its misses'.
for pol in lru clock; do
	sets=""
	[ $pol = clock ] && sets="--set first_ref=0"
	# shellcheck disable=SC2086
	best "$T/f.out" $P run --machine ideal --ram ${PAGES}p --policy $pol $sets trace "$T/z.pgtrace"
	printf '   %-18s %7s M/s, a frame for every page\n' \
		"$pol${sets:+ ${sets#--set }}" "$(mps "$N" "$secs")"
done

load "after these"
echo "== cache: OPT on the same trace (next uses by a backward pass, not in memory)"
timed "$T/o.out" $P run --machine ideal --ram ${FRAMES}p --policy opt trace "$T/z.pgtrace"
awk -v n="$N" -v s="$secs" -v r="$rss" -v m="$(awk '$1 == "pgfault" { print $2 }' "$T/o.out")" 'BEGIN {
	printf "   opt: %.2f M requests/s, %s misses, max RSS %d KiB:\n", n / s / 1e6, m, r
	printf "   %.2f host bytes per reference\n", r * 1024 / n }'
sed -n 's/^trace: replay held \(.*\) of host memory /   replay (reader, next uses): \1 /p' "$T/o.out"
if [ -n "$LCS" ]; then
	timed "$T/l.out" env -C "$T" "$LCS" "$T/z.oracleGeneral.bin" oracleGeneral Belady $FRAMES --ignore-obj-size 1
	awk -v n="$N" -v s="$secs" -v r="$rss" -v m="$(lcs_misses "$T/l.out")" 'BEGIN {
		printf "   libCacheSim Belady: %.2f M requests/s, %s, max RSS %d KiB\n", n / s / 1e6,
			index(m, ".") ? "miss ratio " m : m " misses", r }'
fi
rm -f "$T/z.pgtrace" "$T/z.oracleGeneral.bin"

echo "== cache: sequential sweeps, $NSEQ references (gentrace --seq)"
$GENTRACE --seq --out bin 65536 "$NSEQ" 1 >"$T/s.pgtrace" || exit 1
for f in 65536 32768; do
	for pol in clock lru; do
		best "$T/s.out" $P run --machine ideal --ram ${f}p --policy $pol trace "$T/s.pgtrace"
		awk -v n="$NSEQ" -v s="$secs" -v f="$f" -v p="$pol" -v m="$(awk '$1 == "pgfault" { print $2 }' "$T/s.out")" 'BEGIN {
			printf "   %-5s 65536 pages in turn, %5d frames: %6.1f M refs/s, %s misses\n", p, f, n / s / 1e6, m }'
	done
done
echo "   (65536 frames: every page stays, all hits after the first round; 32768: LRU's"
echo "   worst case, every reference a miss)"
rm -f "$T/s.pgtrace"

echo "== cache: OPT and LRU, $NSEQ uniform random references to 10^6 pages,"
echo "   262144 frames"
$GENTRACE --out bin 1000000 "$NSEQ" 3 >"$T/u.pgtrace" || exit 1
for pol in opt lru; do
	timed "$T/u.out" $P run --machine ideal --ram 262144p --policy $pol trace "$T/u.pgtrace"
	awk -v n="$NSEQ" -v s="$secs" -v r="$rss" -v p=$pol -v m="$(awk '$1 == "pgfault" { print $2 }' "$T/u.out")" 'BEGIN {
		printf "   %s: %.2f M references/s, %s misses,\n", p, n / s / 1e6, m
		printf "   max RSS %d KiB: %.3f host bytes per reference\n", r, r * 1024 / n }'
	sed -n 's/^trace: replay held \(.*\) of host memory /   replay (reader, next uses): \1 /p' "$T/u.out"
done
echo "   (the cache's own 262144 frames and 10^6 PTEs are most of the RSS; OPT's next"
echo "   uses are on disk, 8 bytes per reference, in \$TMPDIR while the run lasts)"
