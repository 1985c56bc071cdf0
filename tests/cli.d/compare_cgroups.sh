# pagelab compare --cgroup (src/engine/kcompare_cgroups.c): each cgroup's
# figures side by side, as rows "PATH FIGURE", only where both sides have
# them; on a kernel record written by hand into --kernel-cache (a v1
# host's: no memory.events, total_* in memory.stat): no kernel run, no
# root.  The simulator side is two usemem in 128M (under a second).

cg_args="--cgroup /a:max=32M --cgroup /b:max=16M"
wl="usemem -m 40 @/a + usemem -m 20 @/b"

t "compare --cgroup: per-cgroup rows both sides have"
mkdir -p "$T/kc"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/kc/tlb_cost"
{
	printf '{"cell": 0, "cmd": "pagelab kernel --memcg 128M --swap 128M %s --seed 1 --timeout 600 %s' "$cg_args" "$wl"
	printf ' # run 1, executor 7", "design": "kernel", "config": "", "seed": 1, "executor": "kernel", '
	printf '"available": true, "finished": true, "user_s": 0.01, "sys_s": 0.05, "counters": {"pswpout": 3200}, '
	printf '"kernel": {"cgroup_version": 1, "warmed": false, "memory_stat": {"pgfault": 75, "total_pgfault": 15500}, '
	printf '"traced": {}, "cgroups": [{"path": "/a", "set": {"memory.limit_in_bytes": "33554432"}, '
	printf '"memory.current": 0, "memory.peak": 33554432, "memory.events.failcnt": 1815, '
	printf '"memory.stat.pgmajfault": 1, "memory.stat.total_pgmajfault": 6}, {"path": "/b", "set": {}, '
	printf '"memory.current": 0, "memory.peak": 16777216, "memory.events.failcnt": 1001}]}}\n'
} >"$T/kc/kernel.jsonl"
# shellcheck disable=SC2086
$P compare --repeat 1 --seeds 1 --kernel-cache "$T/kc" --memcg 128M --swap 128M --policy linux6 $cg_args \
	-- $wl >"$T/out" 2>"$T/err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/err")"
# /a: peak (KiB) and pgmajfault (v1's total_) on both sides; /b: its peak
# only (the kernel's record has no memory.stat for it); events never (v1).
rows=$(grep '^/' "$T/out" | awk '{ print $1, $2 }' | tr '\n' ';')
[ "$rows" = "/a peak;/a pgmajfault;/b peak;" ] || msg="$msg rows: $rows"
grep -q '^/a peak KiB  *32768 (32768\.\.32768) ' "$T/out" || msg="$msg; $(grep '^/a peak' "$T/out")"
grep -q '^/a pgmajfault  *6 (6\.\.6) ' "$T/out" || msg="$msg; $(grep '^/a pgmajfault' "$T/out")"
# The top cgroup's pgfault: v1's total_ (its subtree), not its own 75.
grep -q '^pgfault  *15500 ' "$T/out" || msg="$msg; $(grep '^pgfault' "$T/out")"
# pagelab's side has no --memcg under a tree: no memcg.v1 said passed.
grep -q 'memcg\.v1' "$T/out" && msg="$msg; $(grep 'memcg.v1' "$T/out")"
[ -z "$msg" ] && ok || bad "$msg"
