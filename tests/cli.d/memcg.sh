# --memcg limit reclaim and the 6.x counters (issue 10).  About 2 s.

t "--memcg 8M: limit reclaim only, memory.stat, --check"
$P run --ram 32M --swap 64M --memcg 8M --check --policy workingset usemem -m 12 >"$T/mc" 2>"$T/mc.err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/mc.err")"
[ "$(counter pgscan_kswapd "$T/mc")" -eq 0 ] || msg="$msg; pgscan_kswapd not 0"
[ "$(counter pgscan_direct "$T/mc")" -eq 0 ] || msg="$msg; pgscan_direct not 0"
[ "$(counter allocstall_normal "$T/mc")" -eq 0 ] || msg="$msg; allocstall_normal not 0"
[ "$(counter pgscan_anon "$T/mc")" -gt 0 ] || msg="$msg; pgscan_anon not > 0"
[ "$(counter pswpout "$T/mc")" -ge 1024 ] || msg="$msg; pswpout < 1024"
[ "$(counter memory.peak "$T/mc")" -eq 8388608 ] || msg="$msg; memory.peak not the limit"
[ "$(counter memory.max "$T/mc")" -eq 8388608 ] || msg="$msg; memory.max"
grep -q '^# memory.stat' "$T/mc" || msg="$msg; no memory.stat section"
[ -z "$msg" ] && ok || bad "$msg"

t "--memcg --json: a memcg object beside the counters"
$P run --ram 32M --swap 64M --memcg 8M --json usemem -m 12 >"$T/mcj" 2>&1
grep -q '"memcg": {"memory.max": 8388608' "$T/mcj" && grep -q '"pgscan_anon": [1-9]' "$T/mcj" && ok || bad "$(head -c 300 "$T/mcj")"

t "--memcg without swap: the OOM kill is the cgroup's"
$P run --ram 32M --swap 4K --memcg 8M usemem -m 12 >"$T/mco" 2>&1
grep -q '^\[ *[0-9.]*\] Memory cgroup out of memory: Killed process 1000 (usemem)' "$T/mco" \
	&& grep -q '^\[ *[0-9.]*\] memory: usage 8192kB, limit 8192kB' "$T/mco" \
	&& [ "$(counter memory.events.oom_kill "$T/mco")" -eq 1 ] && ok || bad "$(grep -i -e kill -e memory "$T/mco")"

t "--memcg --set memcg.v1=1 runs; same output twice"
$P run --ram 32M --swap 64M --memcg 8M --set memcg.v1=1 --policy splitlru usemem -m 12 >"$T/v1a" 2>&1
$P run --ram 32M --swap 64M --memcg 8M --set memcg.v1=1 --policy splitlru usemem -m 12 >"$T/v1b" 2>&1
cmp -s "$T/v1a" "$T/v1b" && [ "$(counter pgscan_anon "$T/v1a")" -gt 0 ] && ok || bad "differs or no scan"

for args in "--memcg 8M --policy riel24 usemem -m 4" "--memcg 4K usemem -m 4" "--memcg x usemem -m 4" \
	    "--set memcg.v1=1 usemem -m 4" "--memcg 8M --set memcg.v1=2 usemem -m 4"; do
	t "bad input: run $args"
	# shellcheck disable=SC2086
	$P run $args >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done

t "--vmstat -a: vmstat -a's inact/active columns"
$P run --ram 32M --swap 64M --policy splitlru --vmstat -a 0.05 usemem -m 24 >"$T/va" 2>&1
grep -q '^ r  b   swpd   free  inact active   si   so    bi    bo   in   cs us sy id wa$' "$T/va" \
	&& awk 'NF == 16 && $1 ~ /^[0-9]+$/ && $6 > 0 { a = 1 } END { exit !a }' "$T/va" && ok || bad "$(head -5 "$T/va")"

t "pgscan_anon + pgscan_file = pgscan_kswapd + pgscan_direct"
$P run --ram 24M --swap 64M --policy workingset workingset -m 8 -f 24 -n 3 >"$T/sp" 2>&1
a=$(counter pgscan_anon "$T/sp"); f=$(counter pgscan_file "$T/sp")
k=$(counter pgscan_kswapd "$T/sp"); d=$(counter pgscan_direct "$T/sp")
[ $((a + f)) -eq $((k + d)) ] && [ "$f" -gt 0 ] && [ "$(counter nr_active_anon "$T/sp")" -ge 0 ] && ok || bad "anon $a file $f kswapd $k direct $d"

# pagelab compare (the kernel beside the simulator).  The bad inputs run
# everywhere (the simulator side is checked first); the table needs root
# and a memory cgroup, and runs only when asked (tests/kernel_lib.sh):
# one kernel run of usemem -m 40 in a 32M cgroup, about 2 s.
. "$(dirname "$0")/kernel_lib.sh"
for args in "" "--" "--policy nosuch -- usemem -m 4" "--policy riel24 -- usemem -m 4" "-- nosuch" \
	    "--repeat 0 -- usemem -m 4" "--tolerance x -- usemem -m 4" "--bogus 1 -- usemem -m 4"; do
	t "bad input: compare $args"
	# shellcheck disable=SC2086
	$P compare $args >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done

t "compare -- usemem -m 40 in 32M: the kernel-vs-pagelab table"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	$P compare --memcg 32M --swap 64M --repeat 1 --policy workingset,clock -- usemem -m 40 >"$T/cmp" 2>"$T/cmp.err"
	rc=$?
	msg=""
	[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/cmp.err")"
	[ "$(grep -c '^counter  *kernel median (min..max)  *pagelab ratio  within$' "$T/cmp")" -eq 2 ] || msg="$msg; no two headers"
	awk 'length > 80 { exit 1 }' "$T/cmp" || msg="$msg; a line over 80 columns"
	grep -q '^pgscan_kswapd  *0 (0..0)  *0  *-  not counted$' "$T/cmp" || msg="$msg; pgscan_kswapd not 0 / not marked"
	# usemem -m 40 through 32M: both sides swap out at least the 8 MB beyond
	awk '$1 == "pswpout" && ($2 < 2048 || $4 < 2048) { bad = 1 } $1 == "pswpout" { n++ }
	     END { exit bad || n != 2 }' "$T/cmp" || msg="$msg; pswpout below 2048 pages"
	awk '$1 == "pgscan_anon" && $4 > 0 { n++ } END { exit n != 2 }' "$T/cmp" || msg="$msg; pgscan_anon 0"
	[ -z "$msg" ] && ok || bad "$msg"
fi
