# pagelab kernel: native runs on the host kernel (src/native/).  The
# refusals run everywhere; the real runs only when asked and as root with
# a memory cgroup controller (tests/kernel_lib.sh: kernel_skip), and are
# skipped with the reason elsewhere.  Each real run stays under 512 MB and
# a few seconds (about 7 s in all on an idle host).  On a shared machine
# they wait for other runs' lock (see kernel_lock_free) and tolerate the
# line saying so.
. "$(dirname "$0")/kernel_lib.sh"

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
	skip "no setpriv to drop root"
fi

t "kernel: mtest01 in a 384M cgroup swaps out, leaves nothing"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
	t "kernel: traced counters are the cgroup's own reclaim"
	skip "$why"
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
	skip "$why"
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
	skip "$why"
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
	skip "$why"
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
	skip "$why"
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
	skip "$why"
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
	# usemem's one task, its faults those of the workload, and what the
	# scheduler did with it (schedinfo.c).
	grep -q '"tasks": \[{"user_s": [0-9.]*, "system_s": [0-9.]*, "elapsed_s": [0-9.]*, "majflt": [0-9]*, "minflt": [0-9]*, "swaps": 0}\], ' "$T/out2" ||
		msg="$msg; no tasks array"
	grep -q '"sched": \[{"start_s": [0-9.]*, "end_s": [0-9.]*, "runq_wait_s": [0-9.]*, "cpu": [0-9]*, "migrations": [0-9]*}\]}' "$T/out2" ||
		msg="$msg; no sched array"
	[ "$(grep -o '"minflt": [0-9]*' "$T/out2" | sort -u | wc -l)" -eq 1 ] || msg="$msg; task minflt differs"
	left=$(kernel_leftovers $pid)
	[ -z "$left" ] || msg="$msg; left: $left"
	[ -z "$msg" ] && ok || bad "$msg"
fi

t "kernel: --repeat 2 prints each run and median/min/max"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
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

# A task ends at its reap (NATIVE_EXECUTOR_REV 5): rusage's CPU time
# counts its unmapping and exit, so its elapsed time covers its CPU time
# (one task, no sleep).  Ended at its last op, 128 MB took 10-14 ms of
# CPU after its end on this host.
t "kernel: one task's elapsed time covers its CPU time (its end is the reap)"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	$P kernel --memcg 256M --swap 256M --timeout 60 --json usemem -n 1 -r 1 128m >"$T/out" 2>"$T/err"
	rc=$?
	fig=$(grep '"command": "usemem' "$T/out" | sed -n \
		's/.*"user_s": \([0-9.e-]*\), "system_s": \([0-9.e-]*\), "elapsed_s": \([0-9.e-]*\).*/\1 \2 \3/p')
	if [ $rc -ne 0 ]; then
		bad "exit $rc: $(kernel_err "$T/err" | head -2)"
	elif [ -z "$fig" ]; then
		bad "no workload figures: $(head -c 300 "$T/out")"
	else
		echo "$fig" | awk '{ exit !($1 + $2 > 0.02 && $3 >= $1 + $2 - 0.003) }' && ok ||
			bad "user, system, elapsed: $fig"
	fi
fi

# In a guest whose free pages go back to its host (a virtio balloon with
# free page reporting, feature bit 5) each run is warmed first unless
# --cold; elsewhere never.  Two back-to-back runs: the second waits out the
# first's reporting (session.c, QUIET_S) only when warming.
t "kernel: warmed where the host takes pages back, --warm SIZE, not --cold"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
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
	# --warm SIZE: that much warmed, not the default, said in both forms
	$P kernel --warm 64M --memcg 32M --swap 0 usemem -m 1 >"$T/out5" 2>"$T/err5" || rc3=$?
	$P kernel --warm 64M --memcg 32M --swap 0 --json usemem -m 1 >"$T/out6" 2>"$T/err6" || rc3=$?
	# The default: the limit and the 8 MiB of file the run caches
	$P kernel --memcg 32M --swap 0 fileio -c -r 1 f 8M >"$T/out7" 2>"$T/err7" || rc3=$?
	suffix="" suffix5="" suffix7="" msg4=""
	[ "$want" = true ] && suffix="; warmed 32 MiB" suffix5="; warmed 64 MiB" suffix7="; warmed 40 MiB"
	grep -q "^pagelab: memcg v[12] limit 32 MiB, .*; seed 1$suffix\$" "$T/out4" || msg4="; text header not '$suffix'"
	grep -q "^pagelab: memcg v[12] limit 32 MiB, .*; seed 1$suffix5\$" "$T/out5" ||
		msg4="$msg4; --warm header not '$suffix5'"
	grep -q "^pagelab: memcg v[12] limit 32 MiB, .*; seed 1$suffix7\$" "$T/out7" ||
		msg4="$msg4; fileio's header not '$suffix7'"
	n=$(grep -c '^  "warm_bytes": 67108864,$' "$T/out6")
	n1=$(grep -c '^  "warm_bytes": 33554432,$' "$T/out")
	want1=$([ "$want" = true ] && echo 1 || echo 0)
	[ "$n" -eq "$want1" ] && [ "$n1" -eq "$want1" ] || msg4="$msg4; warm_bytes $n/$n1 (warmed $want)"
	msg=""
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] || msg="exit $rc/$rc2/$rc3: $(kernel_err "$T/err")"
	grep -q "^  \"warmed\": $want,\$" "$T/out" || msg="$msg; default not warmed=$want"
	grep -q '^  "warmed": false,$' "$T/out3" || msg="$msg; --cold warmed"
	# The run ends when its runner exits (session.c wait_runner(): a
	# pidfd), not at the poll's next second: usemem -m 1 takes a few ms.
	el=$(grep -o '"elapsed_s": [0-9.e-]*' "$T/out3" | head -1 | cut -d' ' -f2)
	awk -v e="${el:-9}" 'BEGIN { exit !(e < 0.9) }' || msg="$msg; the run's elapsed $el s: waited for a poll"
	grep -q '^pagelab: memcg v[12] limit 32 MiB, .*; seed 1; cold$' "$T/out2" || msg="$msg; no '; cold' header"
	msg="$msg${msg4:-}"
	[ -z "$msg" ] && ok || bad "$msg"
fi

# --disk-probe (src/native/diskprobe.c): 128 MiB written, fsync()ed and
# read back in a cgroup of its own before the run and after it; the
# rates in the text and in --json, none of its pages in the run's
# counters (the run's cgroup is made after the first probe's is removed
# and removed before the second's is made), nothing left.
t "kernel: --disk-probe before and after the run, apart from it"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	# --cold: no warm-up, nor its wait for the last run's pages (4 s)
	$P kernel --disk-probe --cold --memcg 32M --swap 0 usemem -m 1 >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid
	rc=$?
	$P kernel --disk-probe --cold --memcg 32M --swap 0 --json usemem -m 1 >"$T/out2" 2>>"$T/err"
	rc2=$?
	msg=""
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] || msg="exit $rc/$rc2: $(kernel_err "$T/err" | head -2)"
	for w in before after; do
		grep -Eq "^pagelab: disk probe $w: 128 MiB written at [1-9][0-9]* MB/s, read at [1-9][0-9]* MB/s\$" \
			"$T/out" || msg="$msg; no probe line $w"
	done
	for k in disk_probe disk_probe_after; do
		grep -Eq "^  \"$k\": \{\"bytes\": 134217728, \"write_bps\": [1-9][0-9]*, \"read_bps\": [1-9][0-9]*\},\$" \
			"$T/out2" || msg="$msg; no $k in --json"
	done
	# The probe wrote 32768 pages and read them back: none in the
	# cgroup's own counts (v1's memory.stat has pgpgin, v2's has not).
	v=$(counter memcg.pgpgin "$T/out")
	if grep -q '^pagelab: memcg v1 ' "$T/out"; then
		[ "$v" -ge 0 ] && [ "$v" -lt 8192 ] || msg="$msg; memcg.pgpgin $v"
	fi
	left=$(kernel_leftovers $pid)
	[ -z "$left" ] || msg="$msg; left: $left"
	[ -z "$msg" ] && ok || bad "$msg"
fi
