#!/bin/sh
# make bench, limits part: each research policy's cache-only replay beside
# its limit (bench/limit/<policy>.c: the least code of the same algorithm,
# the same misses) and, when LIBCACHESIM names a cachesim binary built
# outside this repository, libCacheSim's cachesim, on one Zipf(1.0) trace.
# Printed, never asserted.  PAGELAB, GENTRACE, CPUTIME and LIMITS (the
# directory of the built limits) name the binaries; BENCH_ZIPF_REFS
# (default 20 M) and BENCH_PAIRED_RUNS (default 5) set the length and the
# runs.  Rates are requests per CPU second (user + system, bench/cputime),
# the least of the paired runs: pagelab, the limit and libCacheSim run one
# after the other in each round, so a loaded host weighs on all three.
# BENCH_CALLGRIND=N (0: not) adds a second table: the instructions each
# executes (valgrind --tool=callgrind, which a busy host does not change)
# on a Zipf trace of N requests, the same pages and frames.
set -u
P=${PAGELAB:-./pagelab}
GENTRACE=${GENTRACE:-build/bench/gentrace}
CPUTIME=${CPUTIME:-build/bench/cputime}
LIMITS=${LIMITS:-build/bench/limit}
LCS=${LIBCACHESIM:-}
N=${BENCH_ZIPF_REFS:-20000000}
CG=${BENCH_CALLGRIND:-0}
RUNS=${BENCH_PAIRED_RUNS:-5}
PAGES=1048576
FRAMES=100000
T=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-bench-limits.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -n "$LCS" ] && [ ! -x "$LCS" ]; then
	echo "== limits: LIBCACHESIM=$LCS is not an executable; no libCacheSim column"
	LCS=
fi
case $LCS in ""|/*) ;; *) LCS=$(pwd)/$LCS;; esac

# lcs_build: libCacheSim's commit and build flags, from the git checkout
# and the CMake cache around its binary (it is never built here).
lcs_build() {
	d=$(dirname "$LCS")
	commit=$(git -C "$d" rev-parse --short=12 HEAD 2>/dev/null || echo "unknown commit")
	cache=
	for c in "$d/CMakeCache.txt" "$d/../CMakeCache.txt" "$d/../../CMakeCache.txt"; do
		[ -r "$c" ] && { cache=$c; break; }
	done
	flags="no CMakeCache.txt found"
	# the build type, the flags it adds (CMAKE_C_FLAGS_RELEASE for
	# Release), any extra flags, the compiler, and the tcmalloc it found
	[ -n "$cache" ] && flags=$(awk -F= '
		{ k = $1; sub(/:.*/, "", k); v = substr($0, length($1) + 2); c[k] = v }
		END {
			t = c["CMAKE_BUILD_TYPE"]
			print "build type " t ", C flags " c["CMAKE_C_FLAGS_" toupper(t)] \
				(c["CMAKE_C_FLAGS"] != "" ? " " c["CMAKE_C_FLAGS"] : "")
			print "compiler " c["CMAKE_C_COMPILER"]
			tc = c["Tcmalloc_LIBRARY"]
			print "tcmalloc " (tc == "" || tc ~ /NOTFOUND/ ? "not found (glibc malloc)" : tc)
		}' "$cache")
	echo "   libCacheSim: $LCS"
	echo "   commit $commit"
	echo "$flags" | sed 's/^/   /'
}

# cpu CMD...: $secs = CPU seconds of CMD (stdout+stderr to $T/out)
cpu() {
	"$CPUTIME" "$T/time" "$@" >"$T/out" 2>&1
	secs=$(awk '{ s = $1 + $2; if (s <= 0) s = 0.005; print s }' "$T/time")
}
mps() { [ -n "$1" ] && awk -v n="$N" -v s="$1" 'BEGIN { printf "%.2f", n / s / 1e6 }' || echo -; }
least() { [ -z "$1" ] || awk -v a="$1" -v b="$2" 'BEGIN { exit !(b < a) }' && echo "$2" || echo "$1"; }

echo "== limits: Zipf(1.0), $N requests over $PAGES pages, $FRAMES frames"
[ -r /proc/loadavg ] && echo "   host load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
$GENTRACE --zipf 1 --out bin $PAGES "$N" 1 >"$T/z.pgtrace" || exit 1
[ -n "$LCS" ] && { $GENTRACE --zipf 1 --out oracle $PAGES "$N" 1 >"$T/z.oracleGeneral.bin" || exit 1; lcs_build; }
[ -n "$LCS" ] || echo "   no libCacheSim column: set LIBCACHESIM to a cachesim binary (docs/speed.md)"
printf '   %-9s %9s %9s %6s %11s %10s\n' policy pagelab limit ratio libCacheSim misses
# policy, its limit's file, libCacheSim's algorithm (- none)
ROWS="arc:arc:ARC 2q:twoq:TwoQ lirs:lirs:LIRS s3fifo:s3fifo:S3FIFO sieve:sieve:Sieve lfu:lfu:LFU opt:opt:Belady
	clockpro:clockpro:- lruk:lruk:-"
row() {
	pol=${1%%:*} lim=${1#*:} algo=${1##*:}
	lim=${lim%%:*}
	[ -x "$LIMITS/$lim" ] || lim=-
	[ -n "$LCS" ] || algo=-
}
for row in $ROWS; do
	row "$row"
	ps= ls= cs= pm= note=
	i=0
	while [ $i -lt "$RUNS" ]; do
		cpu $P run --machine ideal --ram ${FRAMES}p --policy $pol trace "$T/z.pgtrace"
		ps=$(least "$ps" "$secs")
		pm=$(awk '$1 == "pgfault" { print $2 }' "$T/out")
		if [ "$lim" != - ]; then
			cpu "$LIMITS/$lim" "$T/z.pgtrace" $FRAMES
			ls=$(least "$ls" "$secs")
			lm=$(sed -n 's/^misses //p' "$T/out")
			[ "$lm" = "$pm" ] || note=" (the limit's misses: $lm)"
		fi
		if [ "$algo" != - ]; then
			cpu env -C "$T" "$LCS" "$T/z.oracleGeneral.bin" oracleGeneral "$algo" $FRAMES --ignore-obj-size 1
			cs=$(least "$cs" "$secs")
		fi
		i=$((i + 1))
	done
	ratio=-
	[ -n "$ls" ] && ratio=$(awk -v a="$ps" -v b="$ls" 'BEGIN { printf "%.2fx", a / b }')
	printf '   %-9s %9s %9s %6s %11s %10s%s\n' "$pol" "$(mps "$ps")" "$(mps "$ls")" "$ratio" \
		"$(mps "$cs")" "$pm" "$note"
done
echo "   (M requests per CPU second, user + system, reading the trace included;"
echo "   the least of $RUNS rounds, each running pagelab, the limit and libCacheSim"
echo "   one after the other.  ratio: pagelab's CPU time over the limit's; a"
echo "   limit reads the whole trace into memory first.  - : no limit written or"
echo "   no libCacheSim given.  libCacheSim's S3FIFO is pagelab's variant=1 and"
echo "   its LIRS differs in one case (docs/trace-format.md): its time only)"

[ "$CG" -gt 0 ] 2>/dev/null || exit 0
command -v valgrind >/dev/null || { echo "== limits: no valgrind, no instruction counts"; exit 0; }
# ir CMD...: $ir = the instructions CMD executes (callgrind's total)
ir() {
	valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$@" >"$T/out" 2>&1
	ir=$(sed -n 's/^summary: *//p' "$T/cg")
	rm -f "$T/cg"
}
irm() { [ -n "$1" ] && awk -v i="$1" 'BEGIN { printf "%.1f", i / 1e6 }' || echo -; }
echo "== limits: instructions (callgrind), Zipf(1.0), $CG requests, $FRAMES frames"
$GENTRACE --zipf 1 --out bin $PAGES "$CG" 1 >"$T/z.pgtrace" || exit 1
[ -n "$LCS" ] && { $GENTRACE --zipf 1 --out oracle $PAGES "$CG" 1 >"$T/z.oracleGeneral.bin" || exit 1; }
printf '   %-9s %12s %12s %6s %12s\n' policy "pagelab (M)" "limit (M)" ratio "libCacheSim"
for row in $ROWS; do
	row "$row"
	ir $P run --machine ideal --ram ${FRAMES}p --policy $pol trace "$T/z.pgtrace"
	pi=$ir li= ci= ratio=-
	[ "$lim" != - ] && { ir "$LIMITS/$lim" "$T/z.pgtrace" $FRAMES; li=$ir; }
	# in $T, where it writes its output file (valgrind follows no exec of env)
	[ "$algo" != - ] && ci=$(cd "$T" && ir "$LCS" "$T/z.oracleGeneral.bin" oracleGeneral "$algo" $FRAMES \
		--ignore-obj-size 1 && echo "$ir")
	[ -n "$li" ] && ratio=$(awk -v a="$pi" -v b="$li" 'BEGIN { printf "%.2fx", a / b }')
	printf '   %-9s %12s %12s %6s %12s\n' "$pol" "$(irm "$pi")" "$(irm "$li")" "$ratio" "$(irm "$ci")"
done
echo "   (M instructions of the whole process, reading the trace included)"
