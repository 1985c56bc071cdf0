# pagelab kernel: native runs on the host kernel (src/native/).  Sourced by
# tests/cli.sh.  The refusals run everywhere; the real runs need root and a
# memory cgroup controller and print "skipped: <reason>" elsewhere.  Each
# real run stays under 512 MB and a few seconds (about 7 s in all on an
# idle host).  On a shared machine they wait for other runs' lock (see
# kernel_lock_free) and tolerate the line saying so.

# kernel_leftovers PID: what run PID left behind: its swap area, cgroup,
# temporary directory (their names carry the pid, so other engineers' runs
# on a shared machine do not count).
kernel_leftovers() {
	grep "pagelab-kernel\.$1\." /proc/swaps
	find /sys/fs/cgroup -maxdepth 2 -name "pagelab-kernel-$1" 2>/dev/null
	ls -d /var/tmp/pagelab-kernel."$1".* 2>/dev/null
	ls -d /sys/kernel/tracing/instances/pagelab-kernel-"$1"-* /run/pagelab-kernel-tracefs."$1" 2>/dev/null
	[ "$(grep -c ' tracefs ' /proc/mounts)" = "$kernel_tracefs" ] || echo "tracefs mounts: $(grep -c ' tracefs ' /proc/mounts)"
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

t "kernel: bad input and refusals exit 2 with one line"
msg=""
for args in "" "--memcg" "--memcg 1x usemem -m 1" "--memcg 1M usemem -m 1" "--repeat 0 usemem -m 1" \
	"--timeout 0 usemem -m 1" "--bogus usemem -m 1" "nosuch" "usemem -m 1 +" \
	"dd if=/dev/sda bs=1M count=1" "fileio -r 1 /dev/sda 1M" "--memcg 1000T usemem -m 1"; do
	# shellcheck disable=SC2086
	$P kernel $args >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || msg="$msg '$args': exit $rc;"
	[ -s "$T/out" ] && msg="$msg '$args': stdout not empty;"
	[ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg '$args': $(wc -l <"$T/err") lines on stderr;"
done
$P kernel --help >"$T/out" 2>&1 && grep -q '^usage: pagelab kernel' "$T/out" || msg="$msg --help;"
[ -z "$msg" ] && ok || bad "$msg"

t "kernel: without root it exits 2 with one line"
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups $P kernel --memcg 64M usemem -m 8 >"$T/out" 2>"$T/err"
else
	$P kernel --memcg 64M usemem -m 8 >"$T/out" 2>"$T/err"
fi
rc=$?
if [ "$(id -u)" -ne 0 ] || command -v setpriv >/dev/null 2>&1; then
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q 'needs root' "$T/err" &&
		ok || bad "exit $rc: $(cat "$T/err")"
else
	echo "skipped: no setpriv to drop root"
fi

kernel_skip=""
[ "$(id -u)" -eq 0 ] || kernel_skip="not root"
if [ -z "$kernel_skip" ] && ! grep -qw memory /sys/fs/cgroup/cgroup.controllers /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null &&
	[ ! -e /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	kernel_skip="no memory cgroup controller"
fi
[ -z "$kernel_skip" ] && ! command -v mkswap >/dev/null 2>&1 && ! [ -x /sbin/mkswap ] && kernel_skip="no mkswap"

t "kernel: mtest01 in a 384M cgroup swaps out, leaves nothing"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	$P kernel --memcg 384M --swap 512M --timeout 120 mtest01 -b 512M -w >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid
	rc=$?
	msg=""
	[ $rc -eq 0 ] || msg="exit $rc: $(kernel_err "$T/err" | head -2)"
	[ "$(counter pswpout "$T/out")" -gt 0 ] || msg="$msg; pswpout $(counter pswpout "$T/out")"
	grep -q '^PASS \.\.\. 536870912 bytes allocated\.$' "$T/out" || msg="$msg; no PASS line"
	grep -Eq '^mtest01 -b 512M -w  [0-9.]+s user [0-9.]+s system [0-9]+% cpu [0-9:.]+ total$' "$T/out" || msg="$msg; no zsh line"
	[ "$(counter memcg_peak_bytes "$T/out")" -le $((384 << 20)) ] || msg="$msg; peak above the limit"
	[ "$(counter memcg_peak_bytes "$T/out")" -gt $((300 << 20)) ] || msg="$msg; peak $(counter memcg_peak_bytes "$T/out")"
	left=$(kernel_leftovers $pid)
	[ -z "$left" ] || msg="$msg; left: $left"
	[ -z "$msg" ] && ok || bad "$msg"
	# The cgroup's own reclaim, traced (src/native/tracer.c): a part of
	# the host's figures, and all of them when nothing else reclaims.
	t "kernel: traced counters are the cgroup's own reclaim"
	msg=""
	for c in pgscan_anon pgsteal_anon pgactivate pgdeactivate; do
		v=$(counter traced.$c "$T/out")
		[ "$v" -ge 0 ] && [ "$v" -le "$(counter $c "$T/out")" ] || msg="$msg; traced.$c '$v' > $c $(counter $c "$T/out")"
	done
	[ "$(counter traced.pgsteal_anon "$T/out")" -gt 0 ] || msg="$msg; traced.pgsteal_anon 0"
	[ -z "$msg" ] && ok || bad "$msg"
fi

# A file read twice: the second read activates every page it finds
# referenced (folio_mark_accessed), through the per-CPU batch that
# mm_lru_activate reports; each folio is the cgroup's (kpagecgroup), so
# the traced count is the active file list at the end, give or take a
# folio or two of the cgroup's own beside the file's 2048 (2047 against
# 2046 once).
t "kernel: traced pgactivate = a twice-read file's active pages"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	$P kernel --memcg 64M --swap 0 --timeout 60 fileio -c -r 2 f 8M >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid
	rc=$?
	act=$(counter traced.pgactivate "$T/out")
	# No reclaim here (no pressure): every activation is a second touch.
	acc=$(counter traced.pgactivate_accessed "$T/out")
	file=$(( $(counter memcg.total_active_file "$T/out") / 4096 ))
	# A file page can also join the active list on a refault (6.x
	# workingset_refault() sets PG_active before the LRU add, no
	# PGACTIVATE): a page of a program the runner maps, evicted by earlier
	# jobs (seen: 2 of 2 048, 2026-12-04).
	refault=$(counter memcg.total_workingset_refault_file "$T/out")          # v1
	[ "$refault" -ge 0 ] || refault=$(counter memcg.workingset_refault_file "$T/out")  # v2
	[ "$refault" -ge 0 ] || refault=0
	left=$(kernel_leftovers $pid)
	[ $rc -eq 0 ] && [ $((act + refault)) -ge "$file" ] && [ "$act" -le $((file + 16)) ] && [ "$file" -gt 1900 ] &&
		[ "$acc" -eq "$act" ] && [ -z "$left" ] && ok ||
		bad "exit $rc; traced.pgactivate '$act' ('$acc' accessed), active file $file, refaults $refault; left: $left; $(kernel_err "$T/err")"
fi

t "kernel: SIGINT mid-run: exit 130, nothing left"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	$P kernel --memcg 64M --swap 128M --timeout 60 usemem -m 100 -r 1000 >"$T/out" 2>"$T/err" &
	pid=$!
	kernel_wait_cgroup $pid; sleep 0.3
	kill -INT $pid
	wait $pid
	rc=$?
	left=$(kernel_leftovers $pid)
	[ $rc -eq 130 ] && [ -z "$left" ] && grep -q 'stopped by signal 2' "$T/err" && ok || bad "exit $rc; left: $left; $(kernel_err "$T/err")"
fi

t "kernel: --timeout kills the workload: exit 3, nothing left"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	$P kernel --memcg 64M --swap 128M --timeout 0.5 usemem -m 100 -r 1000 >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid
	rc=$?
	left=$(kernel_leftovers $pid)
	[ $rc -eq 3 ] && [ -z "$left" ] && [ "$(kernel_err "$T/err" | wc -l)" -eq 1 ] && grep -q '^zsh: killed     usemem' "$T/out" &&
		ok || bad "exit $rc; left: $left; $(kernel_err "$T/err")"
fi

t "kernel: SIGKILL mid-run: the watchdog removes everything"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	$P kernel --memcg 64M --swap 128M --timeout 60 usemem -m 100 -r 1000 >"$T/out" 2>"$T/err" &
	pid=$!
	kernel_wait_cgroup $pid; sleep 0.3
	kill -KILL $pid
	wait $pid 2>/dev/null
	kernel_wait_gone $pid && ok || bad "left: $(kernel_leftovers $pid)"
fi

# usemem -s 1 holds the lock a second after the read, so the second run
# surely starts while the first holds it, even on a loaded host.
t "kernel: dd of a file starts uncached; a second run waits"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	$P kernel --memcg 128M --swap 0 --timeout 60 dd if=/data bs=1M count=64 + usemem -m 1 -s 1 >"$T/out" 2>"$T/err" &
	pid=$!
	kernel_wait_cgroup $pid
	$P kernel --memcg 32M --swap 0 --json usemem -m 1 >"$T/out2" 2>"$T/err2"
	rc2=$?
	wait $pid
	rc=$?
	msg=""
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] || msg="exit $rc/$rc2: $(kernel_err "$T/err") $(kernel_err "$T/err2")"
	grep -q '^64+0 records in$' "$T/out" || msg="$msg; no records line"
	# 64 MiB read from the disk: pgpgin counts KiB.
	[ "$(counter pgpgin "$T/out")" -ge 65536 ] || msg="$msg; pgpgin $(counter pgpgin "$T/out")"
	grep -q 'waiting for another pagelab kernel' "$T/err2" || msg="$msg; the second run did not wait"
	grep -q '"counters": {' "$T/out2" && grep -q '"workloads": \[' "$T/out2" || msg="$msg; --json keys"
	# usemem's one task, its faults those of the workload.
	grep -q '"tasks": \[{"user_s": [0-9.]*, "system_s": [0-9.]*, "elapsed_s": [0-9.]*, "majflt": [0-9]*, "minflt": [0-9]*, "swaps": 0}\]}' "$T/out2" ||
		msg="$msg; no tasks array"
	[ "$(grep -o '"minflt": [0-9]*' "$T/out2" | sort -u | wc -l)" -eq 1 ] || msg="$msg; task minflt differs"
	left=$(kernel_leftovers $pid)
	[ -z "$left" ] || msg="$msg; left: $left"
	[ -z "$msg" ] && ok || bad "$msg"
fi

t "kernel: --repeat 2 prints each run and median/min/max"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	$P kernel --memcg 64M --swap 64M --timeout 60 --repeat 2 usemem -m 80 >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid
	rc=$?
	msg=""
	[ $rc -eq 0 ] || msg="exit $rc: $(kernel_err "$T/err" | head -2)"
	[ "$(grep -c '^usemem -m 80  .* total$' "$T/out")" -eq 2 ] || msg="$msg; not two zsh lines"
	grep -q '^# median min max over 2 runs$' "$T/out" || msg="$msg; no summary"
	# 80 MB in a 64 MB cgroup: both runs swap, so the minimum does too.
	awk '$1 == "pswpout" && NF == 4 { f = 1; if ($3 > 0) ok = 1 } END { exit !(f && ok) }' "$T/out" ||
		msg="$msg; summary pswpout min not > 0"
	left=$(kernel_leftovers $pid)
	[ -z "$left" ] || msg="$msg; left: $left"
	[ -z "$msg" ] && ok || bad "$msg"
fi

# In a guest whose free pages go back to its host (a virtio balloon with
# free page reporting, feature bit 5) each run is warmed first unless
# --cold; elsewhere never.  Two back-to-back runs: the second waits out the
# first's reporting (session.c, QUIET_S) only when warming.
t "kernel: warmed where the host takes pages back, not with --cold"
kernel_ready
if [ -n "$why" ]; then
	echo "skipped: $why"
else
	want=false
	for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do
		[ -r "$f" ] && [ "$(cut -c6 "$f")" = 1 ] && want=true
	done
	$P kernel --memcg 32M --swap 0 --json usemem -m 1 >"$T/out" 2>"$T/err"
	rc=$?
	$P kernel --cold --memcg 32M --swap 0 usemem -m 1 >"$T/out2" 2>"$T/err2"
	rc2=$?
	$P kernel --cold --memcg 32M --swap 0 --json usemem -m 1 >"$T/out3" 2>"$T/err3"
	rc3=$?
	$P kernel --memcg 32M --swap 0 usemem -m 1 >"$T/out4" 2>"$T/err4" || rc3=$?
	suffix="" msg4=""
	[ "$want" = true ] && suffix="; warmed"
	grep -q "^pagelab: memcg v[12] limit 32 MiB, .*; seed 1$suffix\$" "$T/out4" || msg4="; text header not '$suffix'"
	msg=""
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] || msg="exit $rc/$rc2/$rc3: $(kernel_err "$T/err")"
	grep -q "^  \"warmed\": $want,\$" "$T/out" || msg="$msg; default not warmed=$want"
	grep -q '^  "warmed": false,$' "$T/out3" || msg="$msg; --cold warmed"
	grep -q '^pagelab: memcg v[12] limit 32 MiB, .*; seed 1; cold$' "$T/out2" || msg="$msg; no '; cold' header"
	msg="$msg${msg4:-}"
	[ -z "$msg" ] && ok || bad "$msg"
fi
