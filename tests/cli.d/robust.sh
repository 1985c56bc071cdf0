# Robustness checks of issue 9: tiny machines, workloads killed by signals,
# short reads, lost results.  Sourced by tests/cli.sh (P, T, t, ok, bad,
# counter).  Every run here is on a machine of a few MB: ~3 s in all.

# clock_shrink() went on after its list was empty when the machine had
# fewer pages than one reclaim batch (exit 139 on 16-46 frames).  Every
# policy at the smallest RAM each of two profiles accepts, and a little
# above it.
t "every policy at the profiles' minimum RAM: no crash"
msg=""
for pol in fifo clock lru linux22 vhand riel24 aa24 linux26 splitlru workingset mglru; do
	for mr in "vmm-2008 2093p" "vmm-2008 2120p" "p133-1997 276p" "p133-1997 300p"; do
		set -- $mr
		for w in "dd if=/dev/sda bs=64K count=8" "usemem -m 1"; do
			$P run --machine $1 --ram $2 --policy $pol --max-time 5 $w >"$T/out" 2>"$T/err"
			rc=$?
			[ $rc -eq 0 ] || [ $rc -eq 3 ] || msg="$msg $pol/$1/$2/$w: exit $rc;"
		done
	done
done
[ -z "$msg" ] && ok || bad "$msg"

t "clock on 16 pages: dd if=/dev/sda bs=64K count=8 finishes"
$P run --ram 2093p dd if=/dev/sda bs=64K count=8 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^8+0 records in$' "$T/out" && ok || bad "exit $rc: $(tail -1 "$T/err")"

# A shared mapping of a file its writer has not finished: the pages past
# the end are a SIGBUS for the program, not an abort of the simulator.
t "mmap beyond EOF: the workload dies of SIGBUS, the run goes on"
$P run --ram 32M --swap 64M fileio -c /ramfs/x 1M + fileio -m -s /ramfs/x 1M >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^zsh: bus error  fileio -m -s /ramfs/x 1M$' "$T/out" \
	&& grep -q 'fileio\[1001\]: bus error: access to a mapped page beyond the end of its file' "$T/out" \
	&& grep -q '^fileio -c /ramfs/x 1M  ' "$T/out" && ok || bad "exit $rc: $(tail -1 "$T/err")"

t "mmap beyond EOF with --json: killed, signal SIGBUS"
$P run --json --ram 32M --swap 64M fileio -c /ramfs/x 1M + fileio -m -s /ramfs/x 1M >"$T/out" 2>"$T/err"
grep -q '"killed": true, "signal": "SIGBUS"' "$T/out" && grep -q '"killed": false, "signal": null' "$T/out" \
	&& ok || bad "$(grep command "$T/out")"

# dd past the end of the disk: /dev/sda of vmm-2008 is 256000 MiB.
t "dd past the end of /dev/sda: short read, records N+M"
$P run dd if=/dev/sda bs=1M skip=255995 count=10 >"$T/out" 2>&1
grep -q '^5+0 records in$' "$T/out" && grep -q '^5242880 bytes (5.2 MB) copied' "$T/out" && ok || bad "$(grep -i 'record\|bytes' "$T/out")"

t "dd with a partial last block: 1+1 records, 4 MiB"
$P run dd if=/dev/sda bs=3M skip=85332 count=5 >"$T/out" 2>&1
grep -q '^1+1 records in$' "$T/out" && grep -q '^1+1 records out$' "$T/out" \
	&& grep -q '^4194304 bytes (4.2 MB) copied' "$T/out" && ok || bad "$(grep -i 'record\|bytes' "$T/out")"

t "dd skip= beyond the end: cannot skip, 0+0 records, 0 bytes"
$P run dd if=/dev/sda bs=1M skip=256000 count=1 >"$T/out" 2>&1
grep -q '^dd: /dev/sda: cannot skip to specified offset$' "$T/out" && grep -q '^0+0 records in$' "$T/out" \
	&& grep -q '^0 bytes (0 B) copied' "$T/out" && ok || bad "$(grep -i 'record\|bytes' "$T/out")"

t "dd of a 10-page file in 16K blocks: 2+1 records, 40960 bytes"
$P run --ram 32M fileio -c /ramfs/f 10p + dd if=/ramfs/f of=/ramfs/g bs=16K count=10 >"$T/out" 2>&1
grep -q '^2+1 records in$' "$T/out" && grep -q '^40960 bytes (41 kB) copied' "$T/out" && ok || bad "$(grep -i 'record\|bytes' "$T/out")"

# An OOM kill of some usemem processes hid every survivor's line.
t "usemem -n 30, some OOM-killed: survivors printed, killed marked"
$P run --ram 12M --swap 8M --policy vhand usemem -n 30 -s 5 -m 1 >"$T/out" 2>&1
k=$(grep -c 'Out of memory: Killed process' "$T/out")
m=$(grep -c '^usemem: process [0-9]* of 30: killed$' "$T/out")
s=$(grep -c '^1179648 bytes / [0-9]* usecs = [0-9]* KB/s$' "$T/out")
[ "$k" -gt 0 ] && [ "$m" -eq "$k" ] && [ $((m + s)) -eq 30 ] && ok || bad "$k kills, $m marked, $s lines"

# Write errors on standard output: exit 1 and one line naming the reason.
t "stdout to /dev/full or closed: exit 1, one line with the reason"
msg=""
for c in "run --ram 16M usemem -m 1" "run --json --ram 16M usemem -m 1" "policies" "machines" \
	"workloads" "run --help" "--version" "reproduce --help" "policies --tunables clock"; do
	$P $c >/dev/full 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] \
		&& grep -q '^pagelab: cannot write standard output: No space left on device$' "$T/err" \
		|| msg="$msg /dev/full $c: exit $rc $(head -2 "$T/err");"
	$P $c >&- 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] \
		&& grep -q '^pagelab: cannot write standard output: Bad file descriptor$' "$T/err" \
		|| msg="$msg closed $c: exit $rc $(head -2 "$T/err");"
done
[ -z "$msg" ] && ok || bad "$msg"

# --max-time: exit 3, said on stderr and in the report, with the real time.
t "--max-time 0.4: exit 3, 'stopped at --max-time' with 0.4 s"
$P run --ram 16M --swap 64M --max-time 0.4 usemem -m 20 -r 100 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && grep -q '^pagelab: stopped at --max-time: 0.4 s of simulated time$' "$T/out" \
	&& grep -q '^pagelab: stopped at --max-time 0.4 s of simulated time' "$T/err" \
	&& grep -q 'did not finish' "$T/out" && ok || bad "exit $rc: $(cat "$T/err")"

t "--max-time with --json: \"stopped\": \"max-time\", exit 3"
$P run --json --ram 16M --swap 64M --max-time 0.4 usemem -m 20 -r 100 >"$T/out" 2>/dev/null
rc=$?
[ $rc -eq 3 ] && grep -q '"stopped": "max-time"' "$T/out" && ok || bad "exit $rc"

t "run --help documents exit status 3"
$P run --help | grep -q '3 if the run was stopped at' && ok || bad "not in run --help"

# JSON of arguments that are not UTF-8: U+FFFD per bad byte, valid UTF-8.
t "--json with non-UTF-8 argument bytes: valid UTF-8, U+FFFD"
name=$(printf '/ramfs/a\377\303\251\355\240\200"\\')
$P run --json --ram 16M fileio -c "$name" 1p >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && iconv -f UTF-8 -t UTF-8 "$T/out" >/dev/null 2>&1 \
	&& grep -q '"command": "fileio -c /ramfs/a\\ufffd\(é\|\xc3\xa9\)\\ufffd\\ufffd\\ufffd\\"\\\\ 1p"' "$T/out" \
	&& ok || bad "exit $rc: $(grep command "$T/out")"

# --html: written under a temporary name and renamed when complete.
t "reproduce --html in a missing directory: refused at once, exit 2"
$P reproduce --only 3 --html "$T/no/such/dir/r.html" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q "^pagelab: cannot write $T/no/such/dir/r.html: No such file or directory$" "$T/err" \
	&& [ ! -s "$T/out" ] && ok || bad "exit $rc: $(cat "$T/err")"

t "reproduce --html replaces a file when complete, no temp left"
echo old >"$T/r.html"
$P reproduce --only 3 --jobs 1 --html "$T/r.html" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^<!DOCTYPE html>' "$T/r.html" && ! ls "$T"/r.html.tmp.* >/dev/null 2>&1 \
	&& ok || bad "exit $rc: $(cat "$T/err")"

t "reproduce --html to a full device: exit 1 with the reason"
if mknod "$T/full" c 1 7 2>/dev/null; then
	$P reproduce --only 3 --jobs 1 --html "$T/full" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && [ -c "$T/full" ] && grep -q "^pagelab: cannot write $T/full: No space left on device$" "$T/err" \
		&& ok || bad "exit $rc: $(cat "$T/err")"
else
	skip "mknod not permitted"
fi

t "reproduce, SIGINT: exit 130, the old --html file kept"
echo old >"$T/r.html"
rm -f "$T/out" # the last test's: the job's redirection may come after the loop's first look
$P reproduce --only 1 --jobs 1 --html "$T/r.html" >"$T/out" 2>"$T/err" &
pid=$!
# A background job of sh starts with SIGINT ignored: pagelab catches it
# only once it starts the run, and prints the table's head right after;
# a signal before that would be lost on a loaded host (sancheck).
i=0
while [ ! -s "$T/out" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && [ "$(cat "$T/r.html")" = old ] && grep -q '^pagelab: interrupted by SIGINT: 0 of 1 experiments finished' "$T/err" \
	&& grep -q '^summary: 0 experiments' "$T/out" && ok || bad "exit $rc: $(cat "$T/err")"

t "run interrupted by SIGTERM: exit 143, the report is printed"
$P run --ram 16M --swap 64M usemem -m 20 -r 100000 >"$T/out" 2>"$T/err" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] && grep -q '^pagelab: interrupted by SIGTERM at ' "$T/out" && grep -q '^# /proc/vmstat$' "$T/out" \
	&& grep -q '^pagelab: interrupted by SIGTERM; the report covers' "$T/err" && ok || bad "exit $rc: $(cat "$T/err")"

# mlock of more than RAM: the 2.x designs refuse it as their sys_mlock()
# did (more than half of physical memory: ENOMEM); 2.6.9+ designs lock it
# and the OOM killer fires; without the era's check aa24 never kills
# (2.4.17's out_of_memory() with swap free) and --max-time stops it.
t "mlock > RAM: 2.x designs ENOMEM, linux26 OOM kill, no livelock"
msg=""
for pol in linux22 vhand riel24 aa24; do
	$P run --ram 32M --policy $pol --max-time 30 usemem -m 40 -M >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q '\] usemem: mlock: Cannot allocate memory$' "$T/out" \
		&& [ "$(counter oom_kill "$T/out")" -eq 0 ] && ! grep -q '^[0-9]* bytes / ' "$T/out" \
		|| msg="$msg $pol: exit $rc;"
done
$P run --ram 32M --policy linux26 --max-time 30 usemem -m 40 -M >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(counter oom_kill "$T/out")" -eq 1 ] || msg="$msg linux26: exit $rc;"
$P run --ram 32M --policy aa24 --set vm.mlock_half_ram=0 --max-time 2 usemem -m 40 -M >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && [ "$(counter oom_kill "$T/out")" -eq 0 ] && grep -q 'stopped at --max-time: 2 s' "$T/out" \
	|| msg="$msg aa24 without the limit: exit $rc;"
[ -z "$msg" ] && ok || bad "$msg"

# Minor items: integer tunables, aa_era's two trees, ignored options,
# monotonic RAM acceptance, clear messages.
t "integer tunables: decimal whole numbers only; aa_era 17 or 23"
msg=""
for bad in "aa24 aa_era=18" "aa24 aa_era=17.5" "aa24 aa_era=0x11" "splitlru swappiness=0x3c" \
	"splitlru swappiness=60.5" "splitlru swappiness=1e1"; do
	set -- $bad
	$P run --ram 16M --policy $1 --set $2 usemem -m 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg $bad: exit $rc;"
done
for good in "aa24 aa_era=23" "splitlru swappiness=0" "s3fifo small=0.25"; do
	set -- $good
	$P run --ram 16M --policy $1 --set $2 usemem -m 1 >/dev/null 2>"$T/err" || msg="$msg $good refused: $(cat "$T/err");"
done
$P run --ram 16M --policy aa24 --set aa_era=18 usemem -m 1 2>"$T/err" >/dev/null
grep -q "^pagelab: bad value '18' for aa_era (17 or 23)$" "$T/err" || msg="$msg aa_era message: $(cat "$T/err");"
[ -z "$msg" ] && ok || bad "$msg"

t "options that would be ignored are refused with a reason"
msg=""
for c in "--ram 16M workingset -m 1 -d 5 -n 5" "--ram 16M fileio -s /ramfs/x 1M" \
	"--ram 16M --set ram=32M usemem -m 1" "--set swap=1M --swap 2M usemem -m 1" \
	"--cpus 2 --set cpus=4 usemem -m 1"; do
	$P run $c >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg $c: exit $rc;"
done
[ -z "$msg" ] && ok || bad "$msg"

# The 128 KB floor of min_free_kbytes made 2144p-2174p "too little above
# the watermarks" while 2140p and 2180p ran.
t "vmm-2008 accepts every RAM size from its minimum up (to 2200p)"
msg=""
n=2093
while [ $n -le 2200 ]; do
	$P run --ram ${n}p --max-time 0.001 usemem -m 1 >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || msg="$msg ${n}p: $(cat "$T/err");"
	n=$((n + 3))
done
[ -z "$msg" ] && ok || bad "$msg"

t "two bonnies and two dbenches in one run: each its own files"
$P run --ram 64M bonnie -s 2 + bonnie -s 2 >"$T/out" 2>"$T/err" && [ "$(grep -c '^bonnie -s 2  ' "$T/out")" -eq 2 ] \
	&& $P run --ram 64M dbench 1 + dbench 1 >"$T/out" 2>"$T/err" && [ "$(grep -c '^Throughput ' "$T/out")" -eq 2 ] \
	&& ok || bad "$(cat "$T/err")"

t "messages: the 1P cap, innodb's minimum, an empty --html name"
msg=""
$P run --ram 1025T usemem -m 1 2>"$T/err"
grep -q "^pagelab: --ram 1025T is more than 1P (1024T), the most pagelab takes$" "$T/err" || msg="$msg $(cat "$T/err");"
$P run innodb --data 1M 2>"$T/err"
grep -q "^pagelab: innodb: --data 1024 KB is too small: at least 16400 KB" "$T/err" || msg="$msg $(cat "$T/err");"
$P reproduce --html "" 2>"$T/err"
[ $? -eq 2 ] && grep -q "^pagelab: cannot write a file with an empty name$" "$T/err" || msg="$msg $(cat "$T/err");"
[ -z "$msg" ] && ok || bad "$msg"

# The host-memory guard: what this process may use (ulimit here), and
# the page tables counted.  Not under ASan, which needs a huge address
# space of its own.
t "host-memory guard: ulimit -v is respected, one line, exit 2"
if [ -n "${PAGELAB_SANITIZED:-}" ]; then
	skip "under the sanitizers (make check runs it)"
else
	(ulimit -v 300000; $P run --ram 32G usemem -m 1 >"$T/out" 2>"$T/err")
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] \
		&& grep -q 'needs about [0-9]* MiB of host memory (frames [0-9]*, swap map [0-9]*, page tables [0-9]* MiB); [0-9]* MiB available (RLIMIT_AS (ulimit -v))$' "$T/err" \
		&& ok || bad "exit $rc: $(cat "$T/err")"
fi
