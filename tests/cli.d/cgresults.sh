# Per-cgroup figures in pagelab compare RESULTS and sweep --csv
# (record_cgroup_columns(), src/engine/record_cgroup.c): the figures that
# compare --cgroup shows as rows 'PATH FIGURE' are cgroup.PATH.FILE there.
# The simulated side: compare -- WORKLOAD's --sim-cache records of two
# usemem in 128M (under a second); the kernel side: a cgroup v2 kernel
# record written by hand into --kernel-cache (no kernel run, no root).

cg_args="--cgroup /a:max=32M --cgroup /b:max=16M"
wl="usemem -m 40 @/a + usemem -m 20 @/b"
mkdir -p "$T/kc" "$T/sc"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/kc/tlb_cost"
{
	printf '{"cell": 0, "cmd": "pagelab kernel --memcg 128M --swap 128M %s --seed 1 --timeout 600 %s' \
		"$cg_args" "$wl"
	printf ' # run 1, executor 7", "design": "kernel", "config": "v2 host", "seed": 1, '
	printf '"executor": "kernel", "available": true, "finished": true, "counters": {"pswpout": 3000}, '
	printf '"kernel": {"cgroup_version": 2, "memory_stat": {}, "traced": {}, "cgroups": ['
	printf '{"path": "/a", "memory.peak": 33554432, "memory.events.max": 1200, '
	printf '"memory.events.oom_kill": 0, "memory.stat.pgscan": 11000}, '
	printf '{"path": "/b", "memory.peak": 16773120, "memory.events.max": 40}]}}\n'
} >"$T/kc/kernel.jsonl"

t "compare RESULTS: per-cgroup figures as compare --cgroup's rows"
# shellcheck disable=SC2086
$P compare --repeat 1 --kernel-cache "$T/kc" --sim-cache "$T/sc" --memcg 128M --swap 128M \
	--policy linux6 $cg_args -- $wl >"$T/rows" 2>"$T/err"
rc=$?
# shellcheck disable=SC2086
$P compare "$T"/sc/sim-*.jsonl "$T/kc/kernel.jsonl" >"$T/res" 2>>"$T/err" || rc=$?
# The value under each cgroup figure's own line, per table ("sim" first).
fig() { awk -v f="$1" -v t="$2" '/^config: / { n++ } n == t && $0 == f { getline; print $2 }' "$T/res"; }
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/err")"
# compare --cgroup's /a events.max row: the kernel's 1200, pagelab's S.
s=$(awk '$1 == "/a" && $2 == "events.max" { print $5 }' "$T/rows")
# (compared as numbers: RESULTS prints 4 significant digits, 501.000)
[ -n "$s" ] && awk -v a="$(fig cgroup./a.memory.events.max 1)" -v b="$s" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }' ||
	msg="$msg; sim events.max '$s'"
[ "$(fig cgroup./a.memory.events.max 2)" = 1200.0 ] || msg="$msg; kernel events.max"
[ "$(fig cgroup./a.memory.stat.pgscan 2)" = 11000.0 ] || msg="$msg; kernel pgscan"
[ "$(fig cgroup./b.memory.events.max 2)" = 40.0000 ] || msg="$msg; kernel /b events.max"
# 0 in every record (oom_kill, events.low): not a row; the root: none.
grep -q 'oom_kill\|events\.low\|cgroup\.\/\.' "$T/res" && msg="$msg; $(grep 'oom_kill\|low\|\/\.' "$T/res")"
[ -z "$msg" ] && ok || bad "$msg"

t "compare RESULTS --json and --metric take cgroup.PATH.FILE"
$P compare --json "$T/kc/kernel.jsonl" >"$T/j" 2>"$T/err"
n=$(grep -o '"metric": "cgroup\.[^"]*"' "$T/j" | tr '\n' ' ')
$P compare --metric cgroup./b.memory.peak "$T/kc/kernel.jsonl" >"$T/m" 2>>"$T/err"
[ "$n" = '"metric": "cgroup./a.memory.peak" "metric": "cgroup./a.memory.events.max" "metric": "cgroup./a.memory.stat.pgscan" "metric": "cgroup./b.memory.peak" "metric": "cgroup./b.memory.events.max" ' ] &&
	grep -A1 '^cgroup\./b\.memory\.peak$' "$T/m" | grep -q '^Amean  *1\.677e+07$' && ok ||
	bad "$n; $(cat "$T/m" "$T/err")"

t "sweep --csv: a column per cgroup figure, whole numbers"
# shellcheck disable=SC2086
$P sweep --policy linux6 --ram 128M --swap 128M $cg_args -o "$T/sw.jsonl" --csv -- $wl >"$T/csv" 2>"$T/err"
# Column of a header name in the CSV, then that column of row 1.
col() { awk -F, -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == f) c = i } NR == 2 { print $c }' "$T/csv"; }
# /a's memory.events.max in the record itself (the first cgroup after /).
ev=$(grep -o '"path": "/a"[^}]*"memory.events.max": [0-9]*' "$T/sw.jsonl" | sed 's/.*: //')
if [ "$(col cgroup./a.memory.peak)" = 33554432 ] && [ "$(col cgroup./a.memory.events.max)" = "$ev" ] &&
   [ "$(col cgroup./b.memory.events.oom_kill)" = 0 ] && ! head -1 "$T/csv" | grep -q 'cgroup\./\.'; then
	ok
else
	bad "$(head -2 "$T/csv") $(cat "$T/err")"
fi
