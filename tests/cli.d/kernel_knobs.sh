# pagelab kernel --set NAME=VALUE: the knobs of the run's own memory cgroup
# (src/native/knobs.c; issue 38 item 7).  The refusals need neither root
# nor a cgroup and happen before either is touched; the real run (only
# with make check KERNEL=1 or CI: tests/kernel_lib.sh) reads the values
# from the harness's own cgroup while its workload runs, and from the
# report, which reads them back from the cgroup at the end.
. "$(dirname "$0")/kernel_lib.sh"

# This host's memory cgroup version, as pagelab kernel picks it: v2 where
# the unified hierarchy has the memory controller, else v1.
kernel_cg_version

t "kernel_knobs: bad or foreign --set: one line, exit 2, nothing run"
msg=""
# The other version's knob: refused on this host (none: every one is).
case $cgv in
1) other="memory.high=32M" ;;
*) other="swappiness=10" ;;
esac
for args in "--set" "--set bogus=1" "--set vm.swappiness=10" "--set memory.max=1G" "--set swappiness" \
	"--set swappiness=201" "--set swappiness=-1" "--set swappiness=ten" "--set memory.zswap.writeback=2" \
	"--set memory.soft_limit_in_bytes=max" "--set swappiness=10 --set swappiness=20" "--set $other" \
	"--memcg 64M --set memory.memsw.limit_in_bytes=32M" "--memcg 64M --set memory.min=65M"; do
	# shellcheck disable=SC2086
	$P kernel $args usemem -m 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q '^pagelab: kernel: .*--set' "$T/err" || msg="$msg '$args': exit $rc $(cat "$T/err");"
done
# The v1 memsw and the v2 protection checks apply on their own version
# only: on the other, the knob is foreign (refused all the same).
$P kernel --help | grep -q '^  --set NAME=VALUE  a knob of the run.s own cgroup (repeatable)' || msg="$msg --help;"
[ -z "$msg" ] && ok || bad "$msg"

t "kernel_knobs: the refusal names the host's version and its knobs"
$P kernel --set "$other" usemem -m 1 >"$T/out" 2>"$T/err"
case $cgv in
1) want="pagelab: kernel: --set memory.high: a cgroup v2 file; this host's memory cgroup is v1 (swappiness, memory.soft_limit_in_bytes, memory.memsw.limit_in_bytes)" ;;
2) want="pagelab: kernel: --set swappiness: cgroup v2 has no per-cgroup swappiness (the host's vm.swappiness applies); this host's memory cgroup is v2 (memory.high, memory.low, memory.min, memory.swap.max, memory.swap.high, memory.zswap.max, memory.zswap.writeback)" ;;
*) want="pagelab: kernel: --set swappiness: this host has no memory cgroup controller" ;;
esac
[ "$(cat "$T/err")" = "$want" ] && ok || bad "$(cat "$T/err")"

# The values, in the cgroup's own files while the workload sleeps (usemem
# -s 3: the run lasts at least 3 s; the files are written before the
# runner starts), then in the report.  v1: swappiness 10 and a soft limit;
# v2: memory.high and memory.swap.max.
t "kernel_knobs: the cgroup's files hold the --set values during the run"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	case $cgv in
	1) set -- swappiness=10 memory.soft_limit_in_bytes=32M; files="memory.swappiness=10 memory.soft_limit_in_bytes=33554432" ;;
	*) set -- memory.high=48M memory.swap.max=16M; files="memory.high=50331648 memory.swap.max=16777216" ;;
	esac
	$P kernel --memcg 64M --swap 32M --timeout 60 --json --set "$1" --set "$2" usemem -m 1 -s 3 >"$T/out" 2>"$T/err" &
	pid=$!
	seen=""
	if kernel_wait_cgroup $pid; then
		cg="$cgroot/pagelab-kernel-$pid"
		# Until every file holds its value or the run is over.
		while kill -0 $pid 2>/dev/null; do
			seen=""
			for f in $files; do
				[ "$(cat "$cg/${f%%=*}" 2>/dev/null)" = "${f#*=}" ] && seen="$seen $f"
			done
			[ "$seen" = " $(echo $files)" ] && break
			sleep 0.05
		done
	fi
	wait $pid
	rc=$?
	msg=""
	[ $rc -eq 0 ] || msg="exit $rc: $(kernel_err "$T/err" | head -2)"
	[ "$seen" = " $(echo $files)" ] || msg="$msg; the cgroup held only '$seen' of '$files'"
	for f in $files; do
		grep -q "\"${f%%=*}\": \"${f#*=}\"" "$T/out" || msg="$msg; report: no ${f%%=*} ${f#*=}"
	done
	[ $cgv = 1 ] && ! grep -q '"swappiness": 10, "set"' "$T/out" && msg="$msg; report: swappiness not 10"
	left=$(kernel_leftovers $pid)
	[ -z "$left" ] || msg="$msg; left: $left"
	[ -z "$msg" ] && ok || bad "$msg"
fi
