# pagelab kernel with an agent (memreclaim, senpai, oomd: workloads that
# act on a cgroup's files from user space) is refused with one line and
# exit 2 before anything is made (kexec_agents_refuse(),
# src/engine/kexec_tree.c): cgroup v1 (this host) has no memory.reclaim,
# per-cgroup memory.pressure or cgroup.kill; on v2 the executor does not
# drive them.  --memcg 1T guards the test: a build without the refusal
# stops at the limit's check (above half of RAM) instead of running.
. "$(dirname "$0")/kernel_lib.sh"

kernel_cg_version

t "kernel: memreclaim, senpai, oomd refused, one line, exit 2"
case $cgv in
1) why="acts through cgroup v2's memory.reclaim, memory.pressure or cgroup.kill, which this host's cgroup v1 memory controller lacks: it runs only in the simulator" ;;
*) why="acts on a cgroup's files from user space, which the kernel executor does not drive: it runs only in the simulator" ;;
esac
msg=""
for agent in "memreclaim /a 1M" "senpai /a" "oomd --limit 10 /a"; do
	# shellcheck disable=SC2086
	$P kernel --memcg 1T --swap 64M --cgroup /a usemem -m 4 @/a + $agent >"$T/out" 2>"$T/err"
	rc=$?
	want="pagelab: kernel: workload 2 (${agent%% *}) $why"
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$want" ] ||
		msg="$msg '$agent': exit $rc $(cat "$T/err");"
done
# Without an agent the same line goes on to the next refusal: the
# limit's (above half of RAM) as root, else that it needs root.
$P kernel --memcg 1T --swap 64M --cgroup /a usemem -m 4 @/a >/dev/null 2>"$T/err"
if [ "$(id -u)" -eq 0 ]; then next='above half'; else next='needs root'; fi
grep -q "$next" "$T/err" || msg="$msg plain: $(cat "$T/err")"
[ -z "$msg" ] && ok || bad "$msg"
