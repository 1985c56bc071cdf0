# pagelab kernel with an agent (memreclaim, senpai, oomd: workloads that
# act on a cgroup's files from user space) on cgroup v1 (this host) is
# refused with one line and exit 2 before anything is made
# (kexec_agents_refuse(), src/engine/kexec_tree.c): v1 has no
# memory.reclaim, per-cgroup memory.pressure or cgroup.kill.  On v2 the
# executor drives them (src/native/cgagent.c; tests/test_kagents_fs.c on
# a fake cgroup2 tree) and the same line goes on to the next refusal.
# --memcg 1T guards the test: a build without the refusal stops at the
# limit's check (above half of RAM) instead of running.
. "$(dirname "$0")/kernel_lib.sh"

kernel_cg_version

# Past the agents, the next refusal: the limit's (above half of RAM) as
# root, else that it needs root.
if [ "$(id -u)" -eq 0 ]; then next='above half'; else next='needs root'; fi

t "kernel: memreclaim, senpai, oomd refused on v1, one line, exit 2"
why="acts through cgroup v2's memory.reclaim, memory.pressure or cgroup.kill, which this host's cgroup v1 memory controller lacks: it runs only in the simulator"
msg=""
for agent in "memreclaim /a 1M" "senpai /a" "oomd --limit 10 /a"; do
	# shellcheck disable=SC2086
	$P kernel --memcg 1T --swap 64M --cgroup /a --cgroup /g usemem -m 4 @/a + $agent @/g >"$T/out" 2>"$T/err"
	rc=$?
	want="pagelab: kernel: workload 2 (${agent%% *}) $why"
	if [ "$cgv" = 1 ]; then
		[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$want" ] ||
			msg="$msg '$agent': exit $rc $(cat "$T/err");"
	else
		[ $rc -eq 2 ] && grep -q "$next" "$T/err" || msg="$msg '$agent' (v2): exit $rc $(cat "$T/err");"
	fi
done
$P kernel --memcg 1T --swap 64M --cgroup /a usemem -m 4 @/a >/dev/null 2>"$T/err"
grep -q "$next" "$T/err" || msg="$msg plain: $(cat "$T/err")"
[ -z "$msg" ] && ok || bad "$msg"
