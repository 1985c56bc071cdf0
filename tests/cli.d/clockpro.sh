# clockpro.sh - CLOCK-Pro's cold hand through the CLI (sourced by
# tests/cli.sh; a fraction of a second).

# Two sorters in 3 MB (244 frames) on athlon-2001: the few cold pages are
# under swap I/O much of the time and refused, so a cold hand stepping one
# entry at a time spent its whole budget (four rounds of the clock) on
# nearly every one of its 8 778 reclaim calls: 9.05 M steps, where the hand
# that jumps to the next resident cold page through the clock's index
# (src/policy/clock_index.h) looks at 206 K entries (measured with a
# counter printed at exit, not kept).  The counts are the stepping hand's
# (commit d2d5e2b's clockpro with its pages scanned counted once, as
# below): the jump must make its choices.  --check walks the clock against the index
# (order, resident cold marks) after every step (the small swap area
# keeps its walk of the slots short).
t "clockpro: the jumping cold hand chooses as the stepping one did"
$P run --check --machine athlon-2001 --ram 3M --swap 8M --policy clockpro qsbench -p 2 -n 230000 >"$T/cp.out" 2>&1
rc=$?
got=
for c in pgfault pgmajfault pswpin pswpout allocstall pgscan_anon pgsteal_anon; do
	got="$got $c=$(counter $c "$T/cp.out")"
done
want=" pgfault=1952 pgmajfault=859 pswpin=2995 pswpout=1496 allocstall=549 pgscan_anon=195783 pgsteal_anon=3140"
[ $rc -eq 0 ] && [ "$got" = "$want" ] && ok || bad "exit $rc:$got, expected$want $(grep check: "$T/cp.out" | head -1)"

# A page HAND_cold passes is scanned once, as anon or file: the policy
# counted each one itself as anon (sc->nr_scanned++) and the eviction
# counted a victim again.  A file-only run (random reads of a 24 MB file
# in 16 MB) scanned 11 526 "anon" pages and 10 172 file ones; now 11 526,
# all file - the pages the hand looked at (its own count before), of
# which 8 263 were reclaimed.
t "clockpro: pages scanned once, a file page as file"
$P run --machine athlon-2001 --ram 16M --policy clockpro fileio -c -R -r 2 /f 24M >"$T/cp.out" 2>&1
rc=$?
got=
for c in pgscan_anon pgscan_file pgscan_kswapd pgscan_direct pgsteal_file; do
	got="$got $c=$(counter $c "$T/cp.out")"
done
want=" pgscan_anon=0 pgscan_file=11526 pgscan_kswapd=11526 pgscan_direct=0 pgsteal_file=8263"
[ $rc -eq 0 ] && [ "$got" = "$want" ] && ok || bad "exit $rc:$got, expected$want"

# A cache too large for the clock's index (its keys stop at 2^31, twice
# the clock's 2c + 1 entries) is refused in one line, exit 2, before
# anything is built (policy_frames_ok()): 2 TB is 2^29 frames, one past
# the most; 9 TB, past 2^31, wrapped the ghost slots' bound.  Under a 2
# GB address-space limit (not under ASan), so a refusal after building
# shows as an out-of-host-memory line instead.
printf '1 r\n2 r\n1 r\n' >"$T/cp.t"
for ram in 2T 9T; do
	t "clockpro: a cache of $ram refused, one line, exit 2"
	if [ -n "${PAGELAB_SANITIZED:-}" ]; then
		$P run --machine ideal --ram $ram --policy clockpro trace "$T/cp.t" >"$T/cp.out" 2>"$T/cp.err"
	else
		(ulimit -v 2000000; $P run --machine ideal --ram $ram --policy clockpro trace "$T/cp.t") >"$T/cp.out" 2>"$T/cp.err"
	fi
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/cp.err")" -eq 1 ] && [ ! -s "$T/cp.out" ] &&
		grep -q "^pagelab: policy clockpro: a cache of [0-9]* frames; it holds at most 536870911$" "$T/cp.err" && ok ||
		bad "exit $rc: $(head -3 "$T/cp.err")"
done

# The cache-only replay's misses pinned (main's at 03b2df6, before the
# hands kept their keys and a pass's last jump went uncounted) and equal
# to bench/limit/clockpro.c's, an implementation that shares no code with
# it: the CloudPhysics sample at three sizes, and 1 M references of make
# bench's Zipf(1.0) trace (bench/gentrace) at 1000 and 50 000 frames,
# where the replay's own paths (a pass's last jump uncounted, the hands'
# kept keys, the marks' second summary) all run.
# About 1 s.
t "clockpro: the replay's misses pinned and equal to the limit's"
CPZ="$(dirname "$0")/data/cloudPhysicsIO.oracleGeneral.bin.zst"
if ! needs codec:zstd ${CC:-cc}; then
	:
elif ! ${CC:-cc} -std=c11 -O1 -o "$T/cp-lim" "$(dirname "$0")/../bench/limit/clockpro.c" 2>"$T/cc.out" ||
	! ${CC:-cc} -std=c11 -O1 -o "$T/cp-gen" "$(dirname "$0")/../bench/gentrace.c" -lm 2>>"$T/cc.out"; then
	bad "build: $(head -2 "$T/cc.out")"
else
	$P trace convert "$CPZ" "$T/cp.pgtrace" >"$T/conv.out" 2>&1 || bad "convert: $(cat "$T/conv.out")"
	"$T/cp-gen" --zipf 1 --out bin 1048576 1000000 1 >"$T/z.pgtrace"
	msg=""
	for run in cp.pgtrace:490:94942 cp.pgtrace:1224:94250 cp.pgtrace:4897:84667 z.pgtrace:1000:- z.pgtrace:50000:-; do
		f=${run#*:} want=${run##*:} tr=${run%%:*}
		f=${f%:*}
		$P run --machine ideal --ram ${f}p --policy clockpro trace "$T/$tr" >"$T/p.out" 2>&1
		pm=$(counter pgfault "$T/p.out")
		lm=$("$T/cp-lim" "$T/$tr" $f | sed -n 's/^misses //p')
		[ "$pm" = "$lm" ] && [ "$pm" -gt 80000 ] && { [ "$want" = - ] || [ "$pm" = "$want" ]; } ||
			msg="$msg $tr@$f: pagelab $pm, limit $lm, pinned $want;"
	done
	[ -z "$msg" ] && ok || bad "$msg"
fi
