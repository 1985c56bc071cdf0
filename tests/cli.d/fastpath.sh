# fastpath: ARC's shrink on pages under I/O, the cache-only replay of
# --machine ideal, OPT's streamed next uses.

# ARC's pass used to go round and round T1 when all of it was under I/O
# (qsbench's just-faulted pages): 2 * (|T1| + |T2|) scans per pass, 5x
# clock's host time on make bench's qsbench.  The rounds are now counted,
# not walked: the figures must be those the walking code printed (before
# commit "arc: count the rounds..."), 66 M pages scanned, system time
# included.  About 0.7 s (3 s before).
t "arc: a pass over busy pages counts its scans, figures unchanged"
$P run --machine vmm-2008 --ram 64M --policy arc qsbench -p 4 -m 16 >"$T/arc.out" 2>&1
got="$(counter pgscan_kswapd "$T/arc.out") $(counter pgscan_direct "$T/arc.out") $(counter pgsteal_kswapd "$T/arc.out") $(counter pswpout "$T/arc.out") $(counter pgmajfault "$T/arc.out")"
tl=$(grep ' total$' "$T/arc.out")
[ "$got" = "46130598 19954428 24729 19839 5962" ] &&
	[ "$tl" = "qsbench -p 4 -m 16  1.95s user 4.24s system 18% cpu 34.324 total" ] && ok || bad "got $got; $tl"

# The cache-only replay of --machine ideal: taken by itself for a trace
# alone under a cache policy, with the full machine's fault counts.  Every
# cache policy (and the libCacheSim variants) on the CloudPhysics sample
# at two sizes, both paths; the counters the policy's decisions make must
# agree: faults, major faults, reclaim's scans and steals, allocation
# stalls.  About 60 runs of 113872 references, 3 s.
CPZ="$(dirname "$0")/data/cloudPhysicsIO.oracleGeneral.bin.zst"
t "cache-only replay = full machine: 12 policies x 2 sizes"
if needs codec:zstd; then
	msg=""
	for pol in fifo clock clock:first_ref=0 lru opt arc 2q lirs lirs:variant=1 clockpro s3fifo s3fifo:variant=1 sieve lfu lruk; do
		sets=""
		case $pol in *:*) sets="--set ${pol#*:}"; pol=${pol%%:*};; esac
		for f in 490 4897; do
			$P run --machine ideal --ram "${f}p" --policy $pol $sets trace "$CPZ" >"$T/fast.out" 2>&1
			$P run --full-machine --machine ideal --ram "${f}p" --policy $pol $sets trace "$CPZ" >"$T/full.out" 2>&1
			grep -q 'cache-only replay' "$T/fast.out" && ! grep -q 'cache-only' "$T/full.out" || msg="$msg $pol $f: paths;"
			for k in pgfault pgmajfault pgscan_direct pgsteal_direct allocstall pgalloc_normal; do
				a=$(counter $k "$T/fast.out")
				b=$(counter $k "$T/full.out")
				[ "$a" = "$b" ] && [ "$a" != -1 ] || msg="$msg $pol $sets $f $k: $a vs $b;"
			done
			[ "$(grep '^trace: [0-9]* references' "$T/fast.out")" = "$(grep '^trace: [0-9]* references' "$T/full.out")" ] ||
				msg="$msg $pol $f: trace line;"
		done
	done
	[ -z "$msg" ] && ok || bad "$msg"
fi

# Belady's string by hand (tests/cli.sh runs it on the full machine with
# --check): FIFO 9 faults with 3 frames, 10 with 4; OPT 7 with 3.  The
# report's cache lines, and two runs byte for byte alike.
t "cache-only replay: Belady's anomaly by hand, deterministic"
printf '1 r\n2 r\n3 r\n4 w\n1 r\n2 r\n5 r\n1 r\n2 r\n3 r\n4 r\n5 r\n' >"$T/belady.trace"
$P run --machine ideal --ram 3p --policy fifo trace "$T/belady.trace" >"$T/b3" 2>&1
$P run --machine ideal --ram 3p --policy fifo trace "$T/belady.trace" >"$T/b3b" 2>&1
$P run --machine ideal --ram 4p --policy fifo trace "$T/belady.trace" >"$T/b4" 2>&1
$P run --machine ideal --ram 3p --policy opt trace "$T/belady.trace" >"$T/o3" 2>&1
grep -q '^cache: 9 misses in 12 references (miss ratio 0.750000); 4 refaulted evicted pages$' "$T/b3" &&
	grep -q '^cache: 6 evictions, 4 written back; ' "$T/b3" && cmp -s "$T/b3" "$T/b3b" &&
	[ "$(counter pgfault "$T/b4")" = 10 ] && [ "$(counter pgfault "$T/o3")" = 7 ] && ok ||
	bad "$(grep '^cache' "$T/b3") / $(counter pgfault "$T/b4") / $(counter pgfault "$T/o3")"

t "cache-only replay: what forces the full machine"
msg=""
for o in "--check" "--vmstat 1" "--swap 1M" "--json" "--html $T/f.html" "--full-machine" "--set vm.page_cluster=0" "--cpus 2" "--policy linux26"; do
	$P run --machine ideal --ram 8p $o trace "$T/belady.trace" >"$T/f.out" 2>&1
	grep -q 'cache-only' "$T/f.out" && msg="$msg $o;"
done
$P run --machine ideal --ram 8p trace "$T/belady.trace" + trace "$T/belady.trace" >"$T/f.out" 2>&1
grep -q 'cache-only' "$T/f.out" && msg="$msg +;"
$P run --machine modern --ram 8M trace "$T/belady.trace" >"$T/f.out" 2>&1
grep -q 'cache-only' "$T/f.out" && msg="$msg modern;"
$P run --machine ideal --set ram=8p --set first_ref=0 trace "$T/belady.trace" >"$T/f.out" 2>&1
grep -q 'cache-only' "$T/f.out" || msg="$msg --set ram should not;"
[ -z "$msg" ] && ok || bad "took the cache path with:$msg"

# OPT without the trace in memory: next uses from a backward pass over
# the binary trace itself, or over a dense copy of any other format;
# libCacheSim's Belady counts (tests/cli.d/policies.sh) and the full
# machine's.  About 1 s.
t "opt: streamed next uses = the full machine's, any format"
if needs zstd codec:zstd; then
	zstd -dc "$CPZ" >"$T/cp.oracleGeneral.bin"
	$P trace convert "$T/cp.oracleGeneral.bin" "$T/cp.pgtrace" 2>/dev/null
	msg=""
	for f in "$T/cp.pgtrace" "$T/cp.oracleGeneral.bin" "$CPZ"; do
		$P run --machine ideal --ram 4897p --policy opt trace "$f" >"$T/o.out" 2>&1
		[ "$(counter pgfault "$T/o.out")" = 71620 ] || msg="$msg $f: $(counter pgfault "$T/o.out");"
	done
	$P run --full-machine --machine ideal --ram 1224p --policy opt trace "$T/cp.pgtrace" >"$T/o.full" 2>&1
	$P run --machine ideal --ram 1224p --policy opt trace "$T/cp.pgtrace" >"$T/o.fast" 2>&1
	[ "$(counter pgfault "$T/o.fast")" = "$(counter pgfault "$T/o.full")" ] || msg="$msg 1224: differs;"
	[ -z "$msg" ] && ok || bad "$msg"
fi

t "cache-only replay: bad input is one line, exit 2"
msg=""
: >"$T/empty.trace"
for pol in lru opt; do
	$P run --machine ideal --ram 8p --policy $pol trace "$T/empty.trace" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "holds no references" "$T/err" && [ ! -s "$T/out" ] ||
		msg="$msg empty $pol: rc $rc $(cat "$T/err");"
	printf '1 r\n2 x\n' >"$T/bad.trace"
	$P run --machine ideal --ram 8p --policy $pol trace "$T/bad.trace" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "bad.trace:2: " "$T/err" ||
		msg="$msg bad $pol: rc $rc $(cat "$T/err");"
done
# A binary trace whose record names a page beyond its header's count: the
# backward pass meets it first.
# (cp.pgtrace: the test above's, when zstd was there.)
if [ -s "$T/cp.pgtrace" ]; then
	head -c 72 "$T/cp.pgtrace" >"$T/short.pgtrace"
	printf '\377\377\0\0\0\0\0\0' >>"$T/short.pgtrace"
	$P run --machine ideal --ram 8p --policy opt trace "$T/short.pgtrace" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg binary: rc $rc $(cat "$T/err");"
fi
[ -z "$msg" ] && ok || bad "$msg"
