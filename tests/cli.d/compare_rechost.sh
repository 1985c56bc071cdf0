# compare_rechost.sh - pagelab compare simulates the machine its cached
# kernel runs were taken on (src/engine/kcompare_rechost.c): the records'
# "kernel": {"cgroup_version", "host": {...}}, not this host's settings.
# Hand-written records, every kernel run cached; run as nobody when root
# (a kernel run it would start is refused: it needs root).  About 1 s.

# rec N HOST [CG]: run N of usemem -m 40 whose kernel object holds
# cgroup_version CG (default 2) and "host": {HOST} (none when HOST is "")
# in place of this host's (kernel_record's).
rec() {
	h=${2:+"\"host\": {$2}, "}
	kernel_record "$1" "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 40" c:pswpout=0 |
		sed "s/\"host\": {[^}]*}, //; s/\"kernel\": {\"cgroup_version\": 1, /\"kernel\": {\"cgroup_version\": ${3:-2}, $h/"
}
# cmp_as DIR REPEAT OUT: the cached compare into $T/OUT and $T/OUT.err,
# as nobody when root; its exit status.
cmp_as() {
	set -- "$@" "$P"
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
		chmod 755 "$T" "$1" && chmod 644 "$1"/*
		set -- "$1" "$2" "$3" setpriv --reuid=65534 --regid=65534 --clear-groups "$P"
	fi
	_cd=$1 _cn=$2 _co=$3
	shift 3
	"$@" compare --repeat "$_cn" --kernel-cache "$_cd" --memcg 64M --swap 128M --policy linux6 \
		-- usemem -m 40 >"$T/$_co" 2>"$T/$_co.err"
}
DIRTY='"dirty_background_ratio": 10, "dirty_bytes": 0, "dirty_background_bytes": 0'
DIRTY="$DIRTY, \"dirty_writeback_centisecs\": 500, \"dirty_expire_centisecs\": 3000"
HOST4="\"cpus\": 4, \"release\": \"6.1.0\", \"swap_rotational\": 0, \"read_ahead_kb\": 512, \"dirty_ratio\": 30, $DIRTY"
HOST4="$HOST4, \"dirtyable_kb\": 1000000"

t "compare: the cached runs' host: 4 CPUs, v2, 6.1, ra 512K"
mkdir -p "$T/r1"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/r1/tlb_cost"
rec 1 "$HOST4" >"$T/r1/kernel.jsonl"
cmp_as "$T/r1" 1 o1
rc=$?
# Whatever this host is: 4 CPUs, no memcg.v1 (a v2 cgroup), no
# sched_eevdf (before 6.6), a queue per CPU (2.6 on), no
# vm.swap_rotational, readahead 512/4 pages, the one sysctl off its
# default; and no note (all recorded).
want="modern, 4 CPUs, with sched_percpu=1 vm.ra_pages=128 vm.dirty_ratio=30 cost.tlb_ipi=4200ns "
want="${want}cost.tlb_ipi_recv=1300ns"
got=$(sed -n 2,4p "$T/o1" | tr '\n' ' ' | sed 's/.*pagelab: //; s/ *$//')
if [ $rc -ne 0 ]; then
	bad "exit $rc: $(cat "$T/o1.err")"
elif [ "$got" != "$want" ] || [ -s "$T/o1.err" ] || ! grep -q '(cached); ' "$T/o1"; then
	bad "setup '$got'; stderr: $(cat "$T/o1.err")"
else
	ok
fi

t "compare: cached runs disagreeing on CPUs: refused in one line"
mkdir -p "$T/r2"
rec 1 "$HOST4" >"$T/r2/kernel.jsonl"
rec 2 "$(echo "$HOST4" | sed 's/"cpus": 4/"cpus": 8/')" >>"$T/r2/kernel.jsonl"
cmp_as "$T/r2" 2 o2
rc=$?
want="pagelab: compare: the kernel runs of $T/r2/kernel.jsonl disagree on cpus (4 and 8): --cpus it"
[ $rc -eq 2 ] && [ ! -s "$T/o2" ] && [ "$(cat "$T/o2.err")" = "$want" ] && ok || bad "exit $rc: $(cat "$T/o2.err")"

t "compare: a record without host settings: this host's, said once"
mkdir -p "$T/r3"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/r3/tlb_cost"
rec 1 "\"cpus\": 4" 1 >"$T/r3/kernel.jsonl"
cmp_as "$T/r3" 1 o3
rc=$?
# vm.swap_rotational and vm.ra_pages are named only where this host can
# read its disk's queue (not in a chroot without /sys: freshcheck)
want="pagelab: compare: note: $T/r3/kernel.jsonl's runs do not record sched_eevdf sched_percpu"
for q in rotational:vm.swap_rotational read_ahead_kb:vm.ra_pages; do
	d=$(stat -c '%Hd:%Ld' /var/tmp 2>/dev/null)
	for f in "/sys/dev/block/$d/queue/${q%:*}" "/sys/dev/block/$d/../queue/${q%:*}"; do
		[ -r "$f" ] && { want="$want ${q#*:}"; break; }
	done
done
want="$want vm.dirty_ratio vm.dirty_background_ratio vm.dirty_bytes vm.dirty_background_bytes"
want="$want vm.dirty_writeback_centisecs vm.dirty_expire_centisecs"
[ -r /proc/meminfo ] && want="$want dirtyable_kb"
want="$want: this host's taken"
if [ $rc -ne 0 ]; then
	bad "exit $rc: $(cat "$T/o3.err")"
elif [ "$(cat "$T/o3.err")" != "$want" ] || ! sed -n 3p "$T/o3" | grep -q '^modern, 4 CPUs, with memcg.v1=1 '; then
	bad "$(sed -n 3p "$T/o3"); stderr: $(cat "$T/o3.err")"
else
	ok
fi

# A v1 cgroup has no dirty domain of its own: the simulator gets the
# host's limits in bytes, the ratios of its dirtyable memory (the least
# of the runs'): 30 % and 10 % of 1 000 000 KiB, in bytes.  A v2 host
# (the first test) gets none; a limit the user sets is kept.
t "compare: a v1 host's dirty limits from its dirtyable memory"
mkdir -p "$T/r5"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/r5/tlb_cost"
rec 1 "$HOST4" 1 >"$T/r5/kernel.jsonl"
rec 2 "$(echo "$HOST4" | sed 's/"dirtyable_kb": 1000000/"dirtyable_kb": 1200000/')" 1 >>"$T/r5/kernel.jsonl"
cmp_as "$T/r5" 2 o5
rc=$?
got=$(sed -n 2,5p "$T/o5" | tr '\n' ' ')
msg=
[ $rc -eq 0 ] && [ ! -s "$T/o5.err" ] || msg="exit $rc: $(cat "$T/o5.err")"
case $got in
*"vm.dirty_ratio=30 vm.dirty_bytes=307200000 vm.dirty_background_bytes=102400000 "*) ;;
*) msg="$msg; setup $got" ;;
esac
cp "$T/r5/kernel.jsonl" "$T/r5/k"
"$P" compare --repeat 2 --kernel-cache "$T/r5" --memcg 64M --swap 128M --policy linux6 \
	--set vm.dirty_background_ratio=5 -- usemem -m 40 >"$T/o6" 2>"$T/o6.err"
got=$(sed -n 2,5p "$T/o6" | tr '\n' ' ')
case $got in
*vm.dirty_background_bytes=*) msg="$msg; a set ratio overridden: $got" ;;
*"vm.dirty_bytes=307200000"*) ;;
*) msg="$msg; with a set: $got" ;;
esac
[ -z "$msg" ] && ok || bad "$msg"

t "compare: a cached run of another host, runs to take: refused"
# The second run would be this host's: one CPU more in the cached one.
mkdir -p "$T/r4"
nc=$(($(getconf _NPROCESSORS_ONLN) + 1))
rec 1 "$(echo "$HOST4" | sed "s/\"cpus\": 4/\"cpus\": $nc/")" >"$T/r4/kernel.jsonl"
cmp_as "$T/r4" 2 o4
rc=$?
want="pagelab: compare: the kernel runs of $T/r4/kernel.jsonl and this host, which runs the rest,"
want="$want disagree on cpus ($nc and $((nc - 1))): --cpus it"
[ $rc -eq 2 ] && [ ! -s "$T/o4" ] && [ "$(cat "$T/o4.err")" = "$want" ] && ok || bad "exit $rc: $(cat "$T/o4.err") (o4: $(head -2 "$T/o4"))"

t "compare: a case simulated on the disk its runs' probes met"
# Each record's "disk_probe" and "disk_probe_after" (src/native/
# diskprobe.c): the median of the five rates (run 3 has no second probe)
# as disk.write_bandwidth and disk.bandwidth, where the three first
# probes alone give 400 MB/s and 2 GB/s; a --set of one keeps it and the
# other is still taken; --disk keeps the model's both.
mkdir -p "$T/r6"
probe() {
	printf '"%s": {"bytes": 134217728, "write_bps": %s, "read_bps": %s}, ' "$1" "$2" "$3"
}
for r in "1 300000000 1000000000 600000000 4000000000" "2 500000000 3000000000 700000000 5000000000" \
	"3 400000000 2000000000"; do
	set -- $r
	p="$(probe disk_probe "$2" "$3")"
	[ $# -lt 5 ] || p="$p$(probe disk_probe_after "$4" "$5")"
	rec "$1" "$HOST4" | sed "s/\"warmed\": false, /&$p/"
done >"$T/r6/kernel.jsonl"
cmp_as "$T/r6" 3 o7
rc=$?
msg=
[ $rc -eq 0 ] && [ ! -s "$T/o7.err" ] || msg="exit $rc: $(cat "$T/o7.err")"
got=$(sed -n 2,5p "$T/o7" | tr '\n' ' ')
case $got in
*" disk.write_bandwidth=500000000 disk.bandwidth=3000000000 "*) ;;
*) msg="$msg; setup $got" ;;
esac
for a in "--set disk.write_bandwidth=1G" "--disk sata-2008"; do
	# shellcheck disable=SC2086 # the option and its value are words
	"$P" compare --repeat 3 --kernel-cache "$T/r6" --memcg 64M --swap 128M --policy linux6 $a \
		-- usemem -m 40 >"$T/o8" 2>"$T/o8.err" || msg="$msg; $a: exit $?: $(cat "$T/o8.err")"
	got=$(sed -n 2,5p "$T/o8" | tr '\n' ' ')
	case $a:$got in
	--set*disk.write_bandwidth=5*) msg="$msg; $a overridden: $got" ;;
	--set*" disk.bandwidth=3000000000 "*) ;;
	--disk*disk.*bandwidth=*) msg="$msg; $a overridden: $got" ;;
	--disk*) ;;
	*) msg="$msg; $a: $got" ;;
	esac
done
# Runs without a probe (older records): the machine's disk.
grep -q disk_probe "$T/r1/kernel.jsonl" || ! grep -q "disk\.[a-z_]*bandwidth=" "$T/o1" || msg="$msg; a set without probes"
[ -z "$msg" ] && ok || bad "$msg"
