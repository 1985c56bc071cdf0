# pagelab mrc --policy for the cache policies, which run in lockstep on
# the cache-only replay (src/mrc/mrc.c, simulate_caches): every curve
# point equals `pagelab run --machine ideal` at that size, OPT's (run on
# the ideal machine) too, and the output is byte-identical for --jobs 1
# and 3.  Sourced by tests/cli.sh: uses P, T, t, ok, bad, counter.
# Cost: about 2 s (two mrc passes and 30 replays of the 113872-request
# CloudPhysics sample).

MCP="$(dirname "$0")/data/cloudPhysicsIO.oracleGeneral.bin.zst"
MPOL="fifo,clock,sieve,s3fifo,2q,lirs,lfu,lruk,clockpro,opt"

t "mrc: lockstep caches = runs, 10 policies x 3 sizes, any --jobs"
if needs codec:zstd; then
	$P mrc --csv --jobs 3 --policy $MPOL --sizes 100p,1000p,4897p "$MCP" >"$T/mc3" 2>"$T/err" &&
		$P mrc --csv --jobs 1 --policy $MPOL --sizes 100p,1000p,4897p "$MCP" >"$T/mc1" 2>>"$T/err"
	rc=$?
	msg=""
	for p in $(echo $MPOL | tr , ' '); do
		for s in 100 1000 4897; do
			want=$($P run --machine ideal --ram ${s}p --policy $p trace "$MCP" 2>&1 | awk '$1 == "pgfault" { print $2 }')
			got=$(awk -F, -v p=$p -v s=$s '$1 == p && $2 == "simulated" && $3 == s { print $5 }' "$T/mc3")
			[ -n "$want" ] && [ "$want" = "$got" ] || msg="$msg $p ${s}p: run $want, mrc $got;"
		done
	done
	[ $rc -eq 0 ] && [ -z "$msg" ] && [ "$(wc -l <"$T/mc3")" -eq 31 ] && cmp -s "$T/mc1" "$T/mc3" && ok ||
		bad "rc $rc$msg $(head -1 "$T/err")"
fi

# Every lockstep cache is held until the pass ends.  A set too large for
# the host was built cache by cache: under ulimit -v an allocation failed
# ("out of host memory allocating ..."), and without one the kernel's
# overcommit let the calloc()s succeed and the process was OOM-killed
# halfway through the trace.  Now the frames and page tables the caches
# will hold at least are checked against what the process may use
# (lib/hostmem.h: MemAvailable, ulimits, its cgroup) before any is built.
# Not under ASan, which needs a huge address space of its own.
t "mrc: lockstep caches beyond host memory: one line, exit 2"
if [ -n "${PAGELAB_SANITIZED:-}" ]; then
	skip "under the sanitizers (make check runs it)"
elif needs codec:zstd; then
	(ulimit -v 300000; $P mrc --policy fifo,clock --sizes 1G,2G,3G,4G,5G,6G,7G,8G "$MCP" >"$T/out" 2>"$T/err")
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q '16 caches (2 policies x 8 sizes) over 48974 pages need at least [0-9]* MiB of host memory, [0-9]* MiB available (RLIMIT_AS (ulimit -v)): give fewer' "$T/err" &&
		ok || bad "exit $rc: $(cat "$T/err")"
fi
