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
