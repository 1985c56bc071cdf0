# pagelab kernel --cgroup PATH:... WORKLOAD @PATH: a tree of cgroups below
# the run's own (src/native/cgtree.c, src/engine/kexec_tree.c; issue 39
# item 6).  The refusals need neither root nor a cgroup and happen before
# anything is made; the real runs (make check KERNEL=1 or CI:
# tests/kernel_lib.sh) place two workloads in two cgroups, read each one's
# counters, and leave nothing behind, also after SIGINT and --timeout.
. "$(dirname "$0")/kernel_lib.sh"

kernel_cg_version

t "kernel_cgroups: bad trees, foreign keys: one line, exit 2"
msg=""
case $cgv in
1) other="high=8M"; ofile=memory.high ;;
*) other="swappiness=10"; ofile=swappiness ;;
esac
for args in "--cgroup a" "--cgroup /a:max=bad" "--cgroup /a:bogus=1" "--cgroup /a: usemem -m 1 @/a" \
	"--cgroup /a --cgroup /a" "--cgroup /a usemem -m 1 @/b" "usemem -m 1 @/a" "--cgroup /a:$other" \
	"--cgroup /a:memory.nosuch=1" "--set memory.limit_in_bytes=64M" "--set memory.max=64M"; do
	# shellcheck disable=SC2086
	$P kernel $args usemem -m 1 @/a >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg '$args': exit $rc $(cat "$T/err");"
done
# The foreign key's line names the host's file for it.
$P kernel --cgroup "/a:$other" usemem -m 1 @/a 2>"$T/err" >/dev/null
[ $cgv = 0 ] || grep -q "^pagelab: kernel: --cgroup /a $ofile: .*this host's memory cgroup is v$cgv" "$T/err" ||
	msg="$msg foreign: $(cat "$T/err");"
$P kernel --help | grep -q '^  --cgroup PATH\[:KEY=VALUE,...\]' || msg="$msg --help;"
[ -z "$msg" ] && ok || bad "$msg"

t "kernel_cgroups: two cgroups, their counters, nothing left"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	# /a is held at 32M under a 40M workload (limit reclaim: its peak is
	# its limit, failcnt counts); /b's 8M fit in 64M.  Were both in the
	# run's own cgroup, neither would have a peak.
	case $cgv in
	1) knob="memory.soft_limit_in_bytes=16M"; kfile=memory.soft_limit_in_bytes ;;
	*) knob="low=16M"; kfile=memory.low ;;
	esac
	$P kernel --cold --json --memcg 128M --swap 128M --cgroup /a:max=32M --cgroup "/b:max=64M,$knob" \
		usemem -m 40 @/a + usemem -m 8 @/b >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid
	rc=$?
	left=$(kernel_leftovers $pid)
	python3 - "$T/out" "$kfile" >"$T/chk" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["cgroups"]
assert a["path"] == "/a" and b["path"] == "/b", (a["path"], b["path"])
assert a["memory.peak"] == 32 << 20, a["memory.peak"]
assert 8 << 20 < b["memory.peak"] < 64 << 20, b["memory.peak"]
fail = [k for k in a if k in ("memory.events.failcnt", "memory.events.max")]
assert fail and a[fail[0]] > 0 and b[fail[0]] == 0, (a.get(fail[0]), b.get(fail[0]))
assert b["set"][sys.argv[2]] == str(16 << 20), b["set"]
assert d["memcg"]["peak_bytes"] >= a["memory.peak"], d["memcg"]["peak_bytes"]
PY
	[ $rc -eq 0 ] && [ -z "$left" ] && [ ! -s "$T/chk" ] && ok || bad "exit $rc; left: $left; $(cat "$T/chk") $(kernel_err "$T/err")"
fi

# run_stopped HOW: a two-cgroup run stopped by SIGINT (HOW=int), its
# --timeout (timeout) or SIGKILL (kill: the watchdog cleans up); sets rc,
# left, placed (the pids /a held while it ran).
run_stopped() {
	timeout=60
	[ "$1" = timeout ] && timeout=1
	$P kernel --cold --memcg 64M --swap 128M --timeout $timeout --cgroup /a:max=24M --cgroup /b/c \
		usemem -m 100 -r 1000 @/a + usemem -m 8 -r 1000 @/b/c >"$T/out" 2>"$T/err" &
	pid=$!
	kernel_wait_cgroup $pid
	placed=""
	for _ in $(seq 100); do
		placed=$(cat "$cgroot/pagelab-kernel-$pid/a/cgroup.procs" 2>/dev/null)
		[ -n "$placed" ] && break
		sleep 0.02
	done
	case $1 in
	int) kill -INT $pid ;;
	kill) kill -KILL $pid ;;
	esac
	wait $pid 2>/dev/null
	rc=$?
	[ "$1" = kill ] && kernel_wait_gone $pid
	left=$(kernel_leftovers $pid)
}

t "kernel_cgroups: SIGINT with a tree: 130, nothing left"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	run_stopped int
	[ $rc -eq 130 ] && [ -n "$placed" ] && [ -z "$left" ] && ok || bad "exit $rc; in /a: '$placed'; left: $left; $(kernel_err "$T/err")"
fi

t "kernel_cgroups: --timeout with a tree: 3, nothing left"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	run_stopped timeout
	[ $rc -eq 3 ] && [ -n "$placed" ] && [ -z "$left" ] && grep -q '^# cgroup /b/c' "$T/out" &&
		grep -q '^# set memory\.\(limit_in_bytes\|max\) 25165824$' "$T/out" && ok ||
		bad "exit $rc; in /a: '$placed'; left: $left; $(kernel_err "$T/err")"
fi

t "kernel_cgroups: SIGKILL with a tree: the watchdog removes it"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	run_stopped kill
	[ -n "$placed" ] && [ -z "$left" ] && ok || bad "in /a: '$placed'; left: $left"
fi

t "kernel_cgroups: sweep --executor kernel over a tree's key"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	# The run's own cgroup is the cell's RAM; /b's max the axis.
	$P sweep --executor kernel --ram 128M --swap 128M --cgroup /a:max=32M --cgroup /b \
		--set cgroup./b.max=16M,24M -o "$T/ks.jsonl" -- usemem -m 40 @/a + usemem -m 20 @/b >/dev/null 2>"$T/err"
	rc=$?
	python3 - "$T/ks.jsonl" >"$T/chk" 2>&1 <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 2, len(recs)
for r, bmax in zip(recs, (16 << 20, 24 << 20)):
    assert r["cmd"].startswith("pagelab kernel --memcg 128M --swap 128M --cgroup /a:max=32M --cgroup /b:max="), r["cmd"]
    a, b = r["kernel"]["cgroups"]
    assert a["memory.peak"] == 32 << 20, a
    assert 0 < b["memory.peak"] <= bmax, (b["memory.peak"], bmax)
PY
	[ $rc -eq 0 ] && [ ! -s "$T/chk" ] && ok || bad "exit $rc; $(cat "$T/chk") $(kernel_err "$T/err")"
fi
