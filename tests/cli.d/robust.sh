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
	echo "ok (skipped: mknod not permitted)"
fi

t "reproduce, SIGINT: exit 130, the old --html file kept"
echo old >"$T/r.html"
$P reproduce --only 1 --jobs 1 --html "$T/r.html" >"$T/out" 2>"$T/err" &
pid=$!
sleep 1
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
