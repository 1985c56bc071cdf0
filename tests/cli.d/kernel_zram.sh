# pagelab kernel --swap zram:SIZE[,algo=NAME]: a zram device of the run's
# own instead of a swapfile (src/native/zram.c).  The spec's refusals run
# everywhere; the real runs only as kernel.sh's do (tests/kernel_lib.sh:
# PAGELAB_KERNEL_TESTS=1, root, a memory controller) and where the host
# has zram (/sys/class/zram-control).  After every run, stopped or not, no
# zram device of its own may be left: none in /proc/swaps, none in
# /sys/block beside those there before (other zram users' devices stay).
. "$(dirname "$0")/kernel_lib.sh"

t "kernel zram: bad specs exit 2 with one line"
msg=""
for spec in "zram:" "zram:1x" "zram:512k" "zram:64M," "zram:64M,algo=" "zram:64M,lvl=3" \
	"zram:64M,algo=LZ4" "zram:64M,algo=lz4,algo=lzo" "zram:2000000T"; do
	$P kernel --swap "$spec" usemem -m 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || msg="$msg '$spec': exit $rc;"
	[ -s "$T/out" ] && msg="$msg '$spec': stdout not empty;"
	[ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg '$spec': $(wc -l <"$T/err") lines on stderr;"
	grep -q -- "--swap $spec" "$T/err" || msg="$msg '$spec': $(cat "$T/err");"
done
[ -z "$msg" ] && ok || bad "$msg"

[ -z "$kernel_skip" ] && [ ! -e /sys/class/zram-control/hot_add ] && kernel_skip="no zram here (/sys/class/zram-control)"

# zram_devs: the host's zram devices now, one per line.
zram_devs() { ls /sys/block | grep '^zram' | sort; }
# zram_left BEFORE: what a run left: a zram swap area, or a device that
# was not there before it (BEFORE: zram_devs then).
zram_left() {
	grep '^/dev/zram' /proc/swaps
	zram_devs | comm -13 "$1" -
}
# zram_bg ARGS...: pagelab kernel --memcg 64M ARGS in the background as
# $pid (stdout $T/out, stderr $T/err), the devices before it in
# $T/before; zram_gone: what it left, as kernel.sh's kernel_leftovers and
# zram_left say.  A long usemem, to be stopped: $LONG.
zram_bg() {
	zram_devs >"$T/before"
	$P kernel --memcg 64M "$@" >"$T/out" 2>"$T/err" &
	pid=$!
}
LONG="--swap zram:128M usemem -m 100 -r 1000"
zram_gone() { echo "$(kernel_leftovers $pid)$(zram_left "$T/before")"; }

t "kernel zram: an algorithm not in its list: exit 2"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	zram_bg --swap zram:64M,algo=nosuch usemem -m 1
	wait $pid
	rc=$?
	left=$(zram_gone)
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(kernel_err "$T/err" | wc -l)" -eq 1 ] &&
		grep -q "no algorithm 'nosuch' in this kernel's zram (.*lz" "$T/err" && [ -z "$left" ] &&
		ok || bad "exit $rc; left: $left; $(kernel_err "$T/err")"
fi

t "kernel zram: usemem swaps into it, mm_stat shown"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	zram_bg --swap zram:128M,algo=lz4 --timeout 60 --json usemem -m 100
	wait $pid
	rc=$?
	msg=""
	[ $rc -eq 0 ] || msg="exit $rc: $(kernel_err "$T/err" | head -2)"
	left=$(zram_gone)
	[ -z "$left" ] || msg="$msg; left: $left"
	grep -q '"zram": {"algorithm": "lz4", "disksize": 134217728, "mm_stat.orig_data_size": [1-9]' "$T/out" ||
		msg="$msg; json: $(grep '"zram"' "$T/out")"
	# The text report: the device's line, then mm_stat and io_stat.
	zram_bg --swap zram:128M --timeout 60 usemem -m 100
	wait $pid
	rc=$?
	[ $rc -eq 0 ] || msg="$msg; text: exit $rc"
	grep -q '^pagelab: memcg v[12] limit 64 MiB, swappiness [0-9?]*; zram 128 MiB [a-z0-9-]*; seed 1' "$T/out" ||
		msg="$msg; no device line"
	orig=$(counter mm_stat.orig_data_size "$T/out")
	out=$(counter pswpout "$T/out")
	# Every page swapped out was stored, compressed or same-filled, at the
	# fullest poll: at least most of them (a poll every 10 ms).
	[ "$out" -gt 0 ] && [ $((orig / 4096 + $(counter mm_stat.same_pages "$T/out"))) -gt $((out / 2)) ] ||
		msg="$msg; orig_data_size $orig for pswpout $out"
	[ "$(counter io_stat.notify_free "$T/out")" -ge 0 ] && [ "$(counter io_stat.failed_writes "$T/out")" -eq 0 ] ||
		msg="$msg; no io_stat"
	left=$(zram_gone)
	[ -z "$left" ] || msg="$msg; left: $left"
	[ -z "$msg" ] && ok || bad "$msg"
fi

# usemem declares its pages same-filled (a memset: DK_SAME), and the
# executor writes them so (src/native/executor.c, pagefill()): zram keeps
# them as same_pages, with no compressed data for them.
t "kernel zram: usemem's same-filled pages are zram's same_pages"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	zram_bg --swap zram:128M --timeout 60 usemem -m 100
	wait $pid
	rc=$?
	same=$(counter mm_stat.same_pages "$T/out")
	out=$(counter pswpout "$T/out")
	orig=$(counter mm_stat.orig_data_size "$T/out")
	left=$(zram_gone)
	# At the fullest poll (every 10 ms) most of what was swapped out, and
	# compressed pages only for the rest (the program's own stack, libc):
	# orig_data_size counts both (6.18's pages_stored).
	[ $rc -eq 0 ] && [ "$out" -gt 0 ] && [ $((same * 2)) -gt "$out" ] && [ $((orig / 4096 - same)) -lt $((out / 10)) ] &&
		[ -z "$left" ] && ok || bad "exit $rc: same_pages $same, orig_data_size $orig, pswpout $out; left: $left"
fi

t "kernel zram: SIGINT mid-run: exit 130, device removed"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	zram_bg --timeout 60 $LONG
	kernel_wait_cgroup $pid; sleep 0.3
	grep -q '^/dev/zram' /proc/swaps && on=1 || on=0
	kill -INT $pid
	wait $pid
	rc=$?
	left=$(zram_gone)
	[ $rc -eq 130 ] && [ $on = 1 ] && [ -z "$left" ] && grep -q 'stopped by signal 2' "$T/err" &&
		ok || bad "exit $rc; swapped on: $on; left: $left; $(kernel_err "$T/err")"
fi

t "kernel zram: --timeout: exit 3, device removed"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	zram_bg --timeout 0.5 $LONG
	wait $pid
	rc=$?
	left=$(zram_gone)
	[ $rc -eq 3 ] && [ -z "$left" ] && grep -q '^zsh: killed     usemem' "$T/out" &&
		ok || bad "exit $rc; left: $left; $(kernel_err "$T/err")"
fi

t "kernel zram: SIGKILL: the watchdog removes the device"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	zram_bg --timeout 60 $LONG
	kernel_wait_cgroup $pid; sleep 0.3
	kill -KILL $pid
	wait $pid 2>/dev/null
	gone=0
	for _ in $(seq 100); do
		[ -z "$(zram_gone)" ] && gone=1 && break
		sleep 0.1
	done
	[ $gone = 1 ] && ok || bad "left: $(zram_gone)"
fi

# Both the run and its watchdog killed: the device stays, recorded in the
# lock file and labelled with the dead pid; the next run removes it (and
# the cgroup) before its own.
t "kernel zram: run and watchdog killed: the next run removes it"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	zram_bg --timeout 60 $LONG
	kernel_wait_cgroup $pid
	# The device comes after the cgroup: wait (20 s at most) until it is
	# swapped on, so it is made and recorded when both die (a loaded host
	# took longer than a fixed pause).
	# The device is the one the run recorded in the lock file: another
	# area's run may have held zram N when $T/before was taken and freed
	# it before this run's hot_add took N again.
	n=0
	while [ $n -lt 200 ]; do
		d=$(sed -n 's/^zram \([0-9][0-9]*\)$/zram\1/p' /run/pagelab-kernel.lock 2>/dev/null | head -1)
		[ -n "$d" ] && grep -q "^/dev/$d " /proc/swaps && break
		sleep 0.1
		n=$((n + 1))
	done
	sleep 0.3
	cg=$(find /sys/fs/cgroup -maxdepth 2 -name "pagelab-kernel-$pid" | head -1)
	# The watchdog: the child of ours that is not in the cgroup.
	for c in $(pgrep -P $pid); do
		grep -q "^$c\$" "$cg/cgroup.procs" || kill -KILL "$c"
	done
	kill -KILL $pid
	wait $pid 2>/dev/null
	sleep 0.5
	dev=$(zram_devs | grep -x "$d")
	lock=$(cat /run/pagelab-kernel.lock)
	printf '%s\n' "$lock" | grep -q "^zram $(echo "$dev" | sed 's/zram//')\$" && rec=1 || rec=0
	$P kernel --memcg 64M --swap 0 --timeout 60 usemem -m 1 >"$T/out2" 2>"$T/err2"
	rc=$?
	left=$(zram_gone)
	# Another run (another area's test, waiting on the lock) may take the
	# lock in the half second after the kill: its pid then heads the lock
	# file, and it may already have removed the device, as ours would
	# have.  The device must be gone all the same.
	[ "$(printf '%s\n' "$lock" | head -1)" = "$pid" ] && other=0 || other=1
	[ -n "$d" ] && [ $rc -eq 0 ] && [ -z "$left" ] &&
		{ [ $other = 1 ] || { [ -n "$dev" ] && [ $rec = 1 ] &&
			grep -q "removing /dev/$dev, left by a killed run" "$T/err2"; }; } &&
		ok || bad "device '$d' ('$dev' after the kill), recorded $rec ($lock), exit $rc; left: $left; $(kernel_err "$T/err2")"
fi
