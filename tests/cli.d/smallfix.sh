# smallfix.sh - small regressions: memory.stat's zswap keys under cgroup
# v1, cost.* values without a unit, ablate's header against its columns,
# the vmstat object of a cache-only replay's --json.  Sourced by
# tests/cli_area.sh: uses P, T, t, ok, bad, skip.  Cost: under 1 s.

# cgroup v1's memory.stat has no zswap / zswapped (6.18 memcg1_stat_format):
# with memcg.v1=1 neither the text report nor --json names them; v2 does.
ZS="--ram 64M --memcg 8M --swap 64M --set zswap=1"
t "zswap: memcg.v1=1 prints no memory.stat.zswap(ped), v2 does"
$P run $ZS --set memcg.v1=1 usemem -m 12 >"$T/z1" 2>&1
$P run $ZS --set memcg.v1=1 --json usemem -m 12 >"$T/z1.json" 2>&1
$P run $ZS usemem -m 12 >"$T/z2" 2>&1
n1=$(grep -c "memory\.stat\.zswap" "$T/z1" "$T/z1.json" | awk -F: '{ s += $2 } END { print s }')
n2=$(grep -c "^memory\.stat\.zswap" "$T/z2")
[ "$n1" = 0 ] && [ "$n2" = 2 ] && grep -q "^zswpout " "$T/z1" && ok \
	|| bad "v1: $n1 zswap keys, v2: $n2"

# A time without a unit is seconds (docs/machines.md) for every cost.*
# key alike: out of range, the one line says so and names the unit.
for kv in cost.syscall=100 cost.fault=100 cost.ref=100 cost.lru_lock=5; do
	t "--set $kv: exit 2, one line: no unit is seconds"
	$P run --ram 16M --set $kv usemem -m 1 >"$T/u" 2>"$T/u.err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/u" ] && [ "$(wc -l <"$T/u.err")" -eq 1 ] &&
		grep -q "^pagelab: $kv: no unit, so seconds: out of range (0\.\.[0-9]* [np]s); give one: ${kv#*=}ns$" "$T/u.err" && ok \
		|| bad "exit $rc: $(head -2 "$T/u.err")"
done
t "--set cost.syscall=100ns and =0.0000001 (seconds) are the same"
$P run --ram 16M --set cost.syscall=100ns fileio -r 2 data 64K >"$T/a" 2>&1
$P run --ram 16M --set cost.syscall=0.0000001 fileio -r 2 data 64K >"$T/b" 2>&1
cmp -s "$T/a" "$T/b" && ! cmp -s "$T/a" /dev/null && ok || bad "$(diff "$T/a" "$T/b" | head -3)"

# ablate: every header's columns end where the first row's do (its mean,
# median and stddev; the full design has no change or p), a figure name
# longer than the label column (try_to_unmap_flush_dirty) included.
t "ablate: headers over their columns, 80 columns"
$P ablate --policy linux6 --off cost_balance,bailout --seeds 2 --memcg 8M --swap 32M \
	-- usemem -m 10 >"$T/ab" 2>&1
msg=$(awk '
	length > 80 { print "line " NR " is " length " columns"; bad = 1; exit }
	hdr { hdr = 0; if (length != want) { print "line " NR ": row ends at " length ", stddev at " want; bad = 1; exit } n++ }
	/ mean  *median  *stddev  *change  *p$/ { hdr = 1; want = index($0, "stddev") + 5 }
	/^try_to_unmap_flush_dirty$/ { long = 1 }
	END { if (!bad && (n < 10 || !long)) { print n " headers, long name " long; exit 1 } }' "$T/ab")
[ -z "$msg" ] && ok || bad "$msg"

# The cache-only replay's --json (with --warmup: docs/trace-format.md)
# has the text report's /proc/vmstat as "counters", as the full machine's.
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "%#x %s\n", i % 300, i % 3 ? "r" : "w" }' >"$T/tr"
t "cache-only --json: counters = the text report's /proc/vmstat"
$P run --machine ideal --ram 1M --warmup 100 trace "$T/tr" 2>&1 | sed '1,/^# \/proc\/vmstat$/d' >"$T/cv"
$P run --machine ideal --ram 1M --warmup 100 --json trace "$T/tr" >"$T/cj" 2>&1
grep -q '"replay": "cache-only"' "$T/cj" &&
	sed -n 's/^  "counters": {\(.*\)},$/\1/p' "$T/cj" | tr ',' '\n' | sed 's/^ *"\([a-z_]*\)": /\1 /' >"$T/cc"
[ "$(wc -l <"$T/cv")" -gt 50 ] && grep -qx "pswpout 782" "$T/cv" && cmp -s "$T/cv" "$T/cc" && ok \
	|| bad "$(diff "$T/cv" "$T/cc" | head -3)"
