# The helpers of the tests that run pagelab kernel on the host kernel
# (tests/cli.d/kernel.sh, memcg.sh, provenance.sh, fidelity_keep.sh source
# it; each area file runs in a shell of its own).  Those runs make memory
# cgroups and swap files on the host, so they run only when asked:
# PAGELAB_KERNEL_TESTS=1 (make check KERNEL=1) or CI=true; and then only
# as root with a memory cgroup controller and mkswap.  kernel_skip says
# why not (empty: they run).  Runs of several files may overlap: pagelab
# kernel's own lock (/run/pagelab-kernel.lock) serialises them, and the
# checks tolerate the line a run prints while it waits.

# kernel_leftovers PID: what run PID left behind: its swap area, cgroup,
# temporary directory (their names carry the pid, so other engineers' runs
# on a shared machine do not count).
kernel_leftovers() {
	grep "pagelab-kernel\.$1\." /proc/swaps
	find /sys/fs/cgroup -maxdepth 2 -name "pagelab-kernel-$1" 2>/dev/null
	ls -d /var/tmp/pagelab-kernel."$1".* 2>/dev/null
	ls -d /sys/kernel/tracing/instances/pagelab-kernel-"$1"-* /run/pagelab-kernel-tracefs."$1" 2>/dev/null
	# A tracefs mount more than when this file was sourced, unless another
	# engineer's run (its own marker) holds one now; fewer is no leftover
	# (a run that was going when the count was taken has ended since).
	kl_tracefs_now=$(grep -c ' tracefs ' /proc/mounts)
	[ "$kl_tracefs_now" -le "$kernel_tracefs" ] || kernel_other_mount "$1" || echo "tracefs mounts: $kl_tracefs_now"
}

# kernel_other_mount PID: another run than PID has tracefs mounted now.
kernel_other_mount() {
	for f in /run/pagelab-kernel-tracefs.*; do
		[ -e "$f" ] && [ "$f" != "/run/pagelab-kernel-tracefs.$1" ] && return 0
	done
	return 1
}
kernel_tracefs=$(grep -c ' tracefs ' /proc/mounts)

# kernel_lock_holder: the pid holding pagelab kernel's lock (flock(2) on
# /run/pagelab-kernel.lock), read from /proc/locks so that looking does not
# take the lock; fails when nobody holds it.
kernel_lock_holder() {
	ino=$(stat -c %i /run/pagelab-kernel.lock 2>/dev/null) || return 1
	awk -v ino="$ino" '$2 == "FLOCK" && $4 == "WRITE" { n = split($6, f, ":"); if (f[n] == ino) { print $5; found = 1; exit } }
		END { exit !found }' /proc/locks
}

# kernel_lock_free: wait until no other pagelab kernel holds the lock (on a
# shared machine another engineer's run or make fidelity may), out of a
# budget of KERNEL_LOCK_WAIT seconds (default 600) for this whole file;
# fails once the budget is spent.  The runs below may still meet a run that
# starts in between: they tolerate the "waiting for" line.
kernel_lock_budget=$((${KERNEL_LOCK_WAIT:-600} * 10))
kernel_lock_free() {
	while kernel_lock_holder >/dev/null; do
		[ "$kernel_lock_budget" -gt 0 ] || return 1
		kernel_lock_budget=$((kernel_lock_budget - 1))
		sleep 0.1
	done
	return 0
}

# kernel_ready: sets why, empty when the next real run may start, else why
# it is skipped (then every later real run is skipped too).  Not called in
# $(...): the budget must carry over from one check to the next.
kernel_ready() {
	if [ -z "$kernel_skip" ] && ! kernel_lock_free; then
		kernel_skip="pid $(kernel_lock_holder) held pagelab kernel's lock ${KERNEL_LOCK_WAIT:-600} s"
	fi
	why=$kernel_skip
}

# kernel_err FILE: its stderr without the line a run prints while it waits
# for another run's lock, which is not part of what a check expects.
kernel_err() {
	grep -v '^pagelab: kernel: waiting for another pagelab kernel ' "$1"
}

# kernel_wait_gone PID: the watchdog cleans up after a SIGKILL; 10 s at most.
kernel_wait_gone() {
	for _ in $(seq 100); do
		[ -z "$(kernel_leftovers "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}

# kernel_wait_cgroup PID: until run PID's cgroup exists (its workload runs;
# it may first wait for another run's lock, up to one run of make fidelity,
# whose --timeout is 900 s): 1000 s at most.
kernel_wait_cgroup() {
	for _ in $(seq 20000); do
		find /sys/fs/cgroup -maxdepth 2 -name "pagelab-kernel-$1" 2>/dev/null | grep -q . && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# kernel_cg_version: cgv, this host's memory cgroup version as pagelab
# kernel picks it (v2 where the unified hierarchy has the memory
# controller, else v1; 0: none), and cgroot, its root.
kernel_cg_version() {
	cgv=0
	cgroot=""
	for r in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		grep -qw memory "$r/cgroup.controllers" 2>/dev/null && { cgv=2; cgroot=$r; return 0; }
	done
	[ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ] && { cgv=1; cgroot=/sys/fs/cgroup/memory; }
	return 0
}

kernel_skip=""
if [ "${PAGELAB_KERNEL_TESTS:-}" != 1 ] && [ "${CI:-}" != true ]; then
	kernel_skip="on the host kernel (cgroups, swap): only with make check KERNEL=1"
fi
# CI's make sancheck leaves them to CI's make check: the same kernel
# runs again, mostly waiting on the kernel, would take a worker for two
# minutes of CI's twenty.  `make sancheck KERNEL=1` runs them sanitized.
if [ -z "$kernel_skip" ] && [ -n "${PAGELAB_SANITIZED:-}" ] && [ "${PAGELAB_KERNEL_TESTS:-}" != 1 ]; then
	kernel_skip="sanitizer build: the host-kernel runs are make check's (make sancheck KERNEL=1 runs them)"
fi
[ -z "$kernel_skip" ] && [ "$(id -u)" -ne 0 ] && kernel_skip="not root"
if [ -z "$kernel_skip" ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null &&
	[ ! -e /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	kernel_skip="no memory cgroup controller"
fi
[ -z "$kernel_skip" ] && ! command -v mkswap >/dev/null 2>&1 && ! [ -x /sbin/mkswap ] && kernel_skip="no mkswap"
