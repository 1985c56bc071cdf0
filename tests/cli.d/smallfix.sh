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
