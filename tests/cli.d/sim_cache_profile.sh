# compare --sim-cache with --machine FILE (src/engine/kcompare.c): the
# simulator's cache is keyed by the profile file's bytes, not its name, so
# a recalibrated profile runs the simulator again (make fidelity reused the
# old profile's runs).  The kernel side is a record written by hand into
# --kernel-cache: no kernel run, no root.

wl="usemem -m 4"
t "compare --sim-cache: a changed --machine file is not served from the cache"
mkdir -p "$T/kc" "$T/sc"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/kc/tlb_cost"
{
	printf '{"cell": 0, "cmd": "pagelab kernel --memcg 32M --swap 32M --seed 1 --timeout 600 %s' "$wl"
	printf ' # run 1, executor 7", "design": "kernel", "config": "", "seed": 1, "executor": "kernel", '
	printf '"available": true, "finished": true, "user_s": 0.01, "sys_s": 0.01, "counters": {"pgfault": 1100}, '
	printf '"kernel": {"cgroup_version": 1, "warmed": false, "memory_stat": {"pgfault": 1100}, "traced": {}}}\n'
} >"$T/kc/kernel.jsonl"
printf 'machine = modern\ncost.fault = 1000ns\n' >"$T/prof"
cmp_run() {
	$P compare --repeat 1 --seeds 1 --kernel-cache "$T/kc" --sim-cache "$T/sc" --memcg 32M --swap 32M \
		--policy linux6 --machine "$T/prof" -- $wl >"$T/out$1" 2>"$T/err$1"
}
msg=""
cmp_run 1 || msg="first: $(cat "$T/err1")"
cmp_run 2 || msg="$msg second: $(cat "$T/err2")"
# The same profile: one cache file, its one run served to the second.
n=$(ls "$T/sc" | grep -c '^sim-.*-p[0-9a-f]*\.jsonl$')
[ "$n" -eq 1 ] && [ "$(cat "$T"/sc/sim-*.jsonl | wc -l)" -eq 1 ] || msg="$msg same profile: $(ls "$T/sc")"
# The recalibrated one: a run of its own, in a second file, its cost used.
printf 'machine = modern\ncost.fault = 9000ns\n' >"$T/prof"
cmp_run 3 || msg="$msg third: $(cat "$T/err3")"
n=$(ls "$T/sc" | grep -c '^sim-.*-p[0-9a-f]*\.jsonl$')
s=$(cat "$T"/sc/sim-*.jsonl | grep -o '"sys_s": [0-9.]*' | sort -u | wc -l)
[ "$n" -eq 2 ] && [ "$s" -eq 2 ] || msg="$msg recalibrated: $n files, $s system times: $(ls "$T/sc")"
[ -z "$msg" ] && ok || bad "$msg"
