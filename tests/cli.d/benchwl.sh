# The benchmarks of today's reclaim debate as workloads (issue 41): fio,
# memtier (a memcached-like store and its client), applaunch.  Exact
# counts on small deterministic cases, the programs' output shapes,
# --check under every policy, bad options.

POLICIES=$($P policies | awk 'NR > 1 && /^[a-z0-9]/ { print $1 }')
# The sanitizer build (make sancheck) checks the workloads' code under
# three designs of three eras (every design runs sanitized in matrix.sh,
# and every one of them runs here in make check): nine took 43 s of CI's
# twenty minutes, which a slow host had passed (2026-12-07).
[ -n "${PAGELAB_SANITIZED:-}" ] && POLICIES="riel24 linux26 linux6"

# check_all NAME ARGS...: the workload passes --check under every policy
# (opt needs a whole trace: it refuses with exit 2 and one line).
check_all() {
	for pol in $POLICIES; do
		$P run --policy $pol --ram 16M --swap 32M --check "$@" >"$T/c.out" 2>&1; rc=$?
		if [ "$pol" = opt ]; then
			[ $rc -eq 2 ] && [ "$(wc -l <"$T/c.out")" -eq 1 ] || { bad "opt: rc $rc"; return; }
			continue
		fi
		[ $rc -eq 0 ] || { bad "$pol: rc $rc: $(tail -2 "$T/c.out")"; return; }
	done
	ok
}

# bad_args WORKLOAD-ARGS...: each quoted case exits 2 with one line.
bad_args() {
	for args in "$@"; do
		# shellcheck disable=SC2086
		$P run $args >"$T/b.out" 2>&1; rc=$?
		[ $rc -eq 2 ] && [ "$(wc -l <"$T/b.out")" -eq 1 ] || { bad "'$args': rc $rc: $(cat "$T/b.out")"; return; }
	done
	ok
}

t "fio randread: every block once, fio's summary lines"
out=$($P run --ram 64M fio --name=x --rw=randread --bs=4k --size=4M --numjobs=2 --group_reporting 2>&1)
echo "$out" | grep -q '^x: (g=0): rw=randread, bs=(R) 4096B-4096B, ioengine=psync, iodepth=1$' &&
echo "$out" | grep -q '^Starting 2 processes$' &&
[ "$(echo "$out" | grep -c '^x: Laying out IO file (1 file / 4MiB)$')" -eq 2 ] &&
echo "$out" | grep -q '^x: (groupid=0, jobs=2): err= 0$' &&
echo "$out" | grep -Eq '^  read: IOPS=[0-9.]+k?, BW=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\)\(8192KiB/[0-9]+msec\)$' &&
echo "$out" | grep -Eq '^    clat \(usec\): min=[0-9]+, max=[0-9]+, avg=[0-9.]+, stdev=[0-9.]+$' &&
echo "$out" | grep -Eq '^    clat percentiles \((usec|msec)\):$' &&
echo "$out" | grep -Eq '^     \|  1\.00th=\[ *[0-9]+\],  5\.00th=\[ *[0-9]+\], 10\.00th=\[ *[0-9]+\], 20\.00th=\[ *[0-9]+\],$' &&
echo "$out" | grep -Eq '^     \| 99\.99th=\[ *[0-9]+\]$' &&
echo "$out" | grep -Eq '^   READ: bw=.*, io=8192KiB \(8389kB\), run=[0-9]+-[0-9]+msec$' &&
echo "$out" | grep -q '^pgpgin 8192$' && ok || bad "$out"

t "fio: per job blocks without group_reporting, 2 files each"
out=$($P run --ram 64M fio --name=j --rw=read --bs=8k --size=2M --nrfiles=2 --numjobs=3 2>&1)
[ "$(echo "$out" | grep -c '^j: (groupid=0, jobs=1): err= 0$')" -eq 3 ] &&
[ "$(echo "$out" | grep -c '^j: Laying out IO files (2 files / total 2MiB)$')" -eq 3 ] &&
[ "$(echo "$out" | grep -Ec '^  read: .*\(2048KiB/[0-9]+msec\)$')" -eq 3 ] && ok || bad "$out"

t "fio randrw rwmixread=75: reads and writes add up, same seed same output"
a=$($P run --ram 64M fio --name=m --rw=randrw --rwmixread=75 --size=4M 2>&1)
b=$($P run --ram 64M fio --name=m --rw=randrw --rwmixread=75 --size=4M 2>&1)
r=$(echo "$a" | sed -n 's/^   READ: .*io=\([0-9]*\)KiB.*/\1/p')
w=$(echo "$a" | sed -n 's/^  WRITE: .*io=\([0-9]*\)KiB.*/\1/p')
[ "$a" = "$b" ] && [ -n "$r" ] && [ -n "$w" ] && [ $((r + w)) -eq 4096 ] && [ "$r" -gt "$w" ] && ok || bad "$r $w $a"

t "fio --runtime with --time_based stops at runtime, io_size and loops count"
out=$($P run --ram 64M fio --name=t --rw=randread --size=1M --runtime=2 --time_based 2>&1)
run=$(echo "$out" | sed -n 's/^   READ: .*run=\([0-9]*\)-.*/\1/p')
out2=$($P run --ram 64M fio --name=l --rw=read --size=1M --io_size=512k --loops=3 2>&1)
[ -n "$run" ] && [ "$run" -ge 2000 ] && [ "$run" -lt 2200 ] &&
echo "$out2" | grep -Eq '^   READ: .*io=1536KiB \(1573kB\)' && ok || bad "$run $out2"

t "fio in a memory cgroup: zipf reads under --memcg"
out=$($P run --memcg 8M fio --name=z --rw=randread --size=16M --io_size=4M --random_distribution=zipf:1.2 2>&1)
echo "$out" | grep -Eq '^  read: .*\(4096KiB/[0-9]+msec\)$' && echo "$out" | grep -q 'memory.stat\|^file ' && ok || bad "$out"

t "fio --filename: one shared file laid out once, read from disk once; bs in pages"
out=$($P run --ram 64M fio --name=s --filename=shared.dat --directory=/data --rw=randread --bs=2p --size=2M --numjobs=2 --group_reporting 2>&1)
[ "$(echo "$out" | grep -c '^s: Laying out IO file (1 file / 2MiB)$')" -eq 1 ] &&
echo "$out" | grep -q '^s: (g=0): rw=randread, bs=(R) 8192B-8192B, ioengine=psync, iodepth=1$' &&
echo "$out" | grep -Eq '^   READ: .*io=4096KiB \(4194kB\)' && echo "$out" | grep -q '^pgpgin 2048$' && ok || bad "$out"

t "fio --ioengine=mmap: the files mapped MAP_SHARED, faults instead of reads"
out=$($P run --ram 64M fio --name=m --ioengine=mmap --rw=randread --size=4M --numjobs=2 --group_reporting 2>&1)
echo "$out" | grep -q '^m: (g=0): rw=randread, bs=(R) 4096B-4096B, ioengine=mmap, iodepth=1$' &&
echo "$out" | grep -Eq '^   READ: .*io=8192KiB \(8389kB\)' && echo "$out" | grep -Eq '^pgmajfault [1-9]' &&
echo "$out" | grep -q '^pgpgin 8192$' && ok || bad "$out"

t "fio passes --check under every policy"
check_all fio --name=c --rw=randrw --size=2M --nrfiles=2 --numjobs=2
t "fio --ioengine=mmap passes --check under every policy"
check_all fio --name=c --ioengine=mmap --rw=randrw --size=2M --nrfiles=2 --numjobs=2

t "fio: bad options exit 2 with one line"
bad_args "fio --rw=read --size=1M" "fio --name=x" "fio --name=x --size=1M --bogus=1" \
	"fio --name=x --size=1M --bs=1000" "fio --name=x --size=1M --rw=trim" \
	"fio --name=x --size=1M --ioengine=libaio" "fio --name=x --size=1M --time_based" \
	"fio --name=x --size=1M --name=y" "fio --name=x --size=4k --bs=8k" \
	"fio --name=x --size=1M --rwmixread=101" "fio --name=x --size=1M --random_distribution=zipf:0" \
	"fio --name=x --size=1M --nrfiles=65" "fio --name=x --size=1M jobfile" \
	"fio --name=x --size=1M --ioengine=mmap --direct=1"

t "memtier --preload: every item written once, the ALL STATS shape"
# 4096 keys over 2 threads: 2048 items of 103 bytes in 120-byte chunks,
# 8738 a 1 MiB slab page handed out from its end (bytes 802800 on: 61
# pages), and a 2^16-bucket hash table (128 pages, all written) each.
out=$($P run --ram 64M memtier -t 2 -c 2 -n 50 --key-maximum=4095 --preload --ratio=0:1 2>&1)
echo "$out" | grep -q '^2         Threads$' && echo "$out" | grep -q '^2         Connections per thread$' &&
echo "$out" | grep -q '^50        Requests per client$' && echo "$out" | grep -q '^ALL STATS$' &&
echo "$out" | grep -q '^Type        Ops/sec     Hits/sec   Misses/sec      Latency       KB/sec$' &&
echo "$out" | grep -Eq '^Sets +0\.00 +--- +--- +0\.00000 +0\.00$' &&
echo "$out" | grep -Eq '^Gets +[0-9.]+ +[0-9.]+ +0\.00 +[0-9.]+ +[0-9.]+$' &&
echo "$out" | grep -Eq '^Waits +0\.00 +--- +--- +0\.00000 +---$' &&
echo "$out" | grep -q '^Type    p50 Latency  p99 Latency  p99.9 Latency$' &&
echo "$out" | grep -Eq '^Totals +[0-9.]+ +[0-9.]+ +[0-9.]+$' &&
echo "$out" | grep -q '(0major+378minor)pagefaults' && ok || bad "$out"

t "memtier without preload: every GET misses; same seed, same output"
a=$($P run --ram 64M memtier -t 2 -c 3 -n 40 --key-maximum=9999 --ratio=0:1 --key-pattern=R:G 2>&1)
b=$($P run --ram 64M memtier -t 2 -c 3 -n 40 --key-maximum=9999 --ratio=0:1 --key-pattern=R:G 2>&1)
[ "$a" = "$b" ] && echo "$a" | grep -Eq '^Gets +[0-9.]+ +0\.00 +[0-9.]+ ' && ok || bad "$a"

t "memtier under pressure: Zipf gets of a preloaded store swap, --test-time"
out=$($P run --ram 16M --swap 64M memtier -t 2 -c 4 --test-time=3 --key-maximum=199999 --key-pattern=Z:Z --ratio=0:1 --preload 2>&1)
echo "$out" | grep -q '^3         Seconds$' && echo "$out" | grep -Eq '^pswpin [1-9]' &&
echo "$out" | grep -Eq '^Gets +[0-9.]+ +[0-9.]+ +0\.00 ' && ok || bad "$out"

t "memtier passes --check under every policy"
check_all memtier -t 2 -c 2 -n 200 --key-maximum=49999 --ratio=1:4 --key-pattern=G:G --preload

t "memtier: bad options exit 2 with one line"
bad_args "memtier --bogus" "memtier -t 0" "memtier --ratio=1" "memtier --ratio=0:0" \
	"memtier --key-pattern=X:R" "memtier --key-pattern=G" "memtier --key-minimum=10 --key-maximum=5" \
	"memtier -n 10 --test-time=5" "memtier -n allkeys" "memtier --key-zipf-exp=5" \
	"memtier --key-maximum=1 -t 4" "memtier --preload=1" "memtier --key-median=20000000" "memtier -d"

# al_sum OUT: launch + switch major faults == the run's major faults (every
# touch lies between a slot's two marks).
al_sum() {
	l=$(echo "$1" | sed -n 's/^launch major faults: .*(total \([0-9]*\))$/\1/p')
	s=$(echo "$1" | sed -n 's/^switch major faults: .*(total \([0-9]*\))$/\1/p')
	m=$(echo "$1" | sed -n 's/.*elapsed.* (\([0-9]*\)major+.*/\1/p')
	[ -n "$l" ] && [ -n "$s" ] && [ -n "$m" ] && [ $((l + s)) -eq "$m" ]
}

t "applaunch with room to spare: cold launches fault, switches do not"
out=$($P run --ram 256M applaunch -n 2 -a 1 -f 1 -l 1 -s 3 -t 10 2>&1)
echo "$out" | grep -q '^applaunch: 2 apps, 1 + 1 + 1 MiB each, 3 switches (round robin)$' &&
echo "$out" | grep -Eq '^  launch +0 +[0-9.]+ +30$' && echo "$out" | grep -Eq '^  launch +1 +[0-9.]+ +15$' &&
[ "$(echo "$out" | grep -Ec '^  switch [123] +[01] +[0-9.]+ +0$')" -eq 3 ] &&
echo "$out" | grep -Eq '^switch time \(ms\): p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+ max [0-9.]+$' &&
echo "$out" | grep -q '^switch major faults: p50 0 p90 0 p99 0 max 0 (total 0)$' && al_sum "$out" && ok || bad "$out"

t "applaunch under pressure: switches fault, the counts add up"
out=$($P run --ram 64M --swap 128M applaunch -n 4 -a 16 -f 4 -l 8 -s 8 2>&1)
sw=$(echo "$out" | sed -n 's/^switch major faults: .*(total \([0-9]*\))$/\1/p')
[ -n "$sw" ] && [ "$sw" -gt 0 ] && al_sum "$out" && ok || bad "$out"

t "applaunch -r: a seeded order, never the same app twice in a row"
a=$($P run --ram 64M applaunch -n 3 -a 2 -f 1 -l 0 -s 12 -r -t 0 2>&1)
b=$($P run --ram 64M applaunch -n 3 -a 2 -f 1 -l 0 -s 12 -r -t 0 2>&1)
apps=$(echo "$a" | awk '$1 == "switch" && $2 ~ /^[0-9]+$/ { print $3 }' | tr '\n' ' ')
[ "$a" = "$b" ] && [ "$(echo $apps | wc -w)" -eq 12 ] &&
echo "$apps" | awk '{ for (i = 2; i <= NF; i++) if ($i == $(i-1)) exit 1 }' && ok || bad "$apps"

t "applaunch passes --check under every policy"
check_all applaunch -n 3 -a 4 -f 2 -l 2 -s 4 -t 100

t "applaunch: bad options exit 2 with one line"
bad_args "applaunch -n 1" "applaunch -x" "applaunch -w 0" "applaunch -w 101" "applaunch -a" \
	"applaunch -s 0" "applaunch -d 101" "applaunch extra" "applaunch -f 0"

t "arc: a faulted-back ghost keeps |T1|+|T2|+|B1|+|B2| <= 2c (regression)"
# Other pages were added between the fault's REPLACE and its page coming
# in: the ghost went to T2 past the bound (check: arc lists ... 2c + 1).
$P run --policy arc --ram 16M --swap 32M --check applaunch -n 3 -a 4 -f 2 -l 0 -s 4 -t 100 >"$T/arc.out" 2>&1 &&
! grep -q '^check:' "$T/arc.out" && ok || bad "$(grep -m1 '^check:' "$T/arc.out")"

# On the host kernel (only when asked: tests/kernel_lib.sh).
. "$(dirname "$0")/kernel_lib.sh"

t "kernel: fio --runtime ends natively (the task's generator is told its marks)"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	# Before the executor called mark() in the task, the loop never saw
	# the time: it ran until --timeout killed it.
	$P kernel --memcg 64M --swap 0 --timeout 60 fio --name=k --rw=randread --size=4M --runtime=1 --time_based >"$T/k.out" 2>"$T/k.err"
	rc=$?
	run=$(sed -n 's/^   READ: .*run=[0-9]*-\([0-9]*\)msec$/\1/p' "$T/k.out")
	[ $rc -eq 0 ] && [ -n "$run" ] && [ "$run" -ge 1000 ] && [ "$run" -lt 10000 ] &&
	grep -Eq '^    clat percentiles \((usec|msec)\):$' "$T/k.out" && ok || bad "rc $rc run '$run': $(kernel_err "$T/k.err")"
fi

t "kernel: memtier and applaunch run natively in their shapes"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	$P kernel --memcg 64M --swap 0 --timeout 60 memtier -t 2 -c 2 -n 500 --key-maximum=9999 --preload + \
		applaunch -n 2 -a 2 -f 1 -l 1 -s 2 -t 10 >"$T/k.out" 2>"$T/k.err"
	rc=$?
	[ $rc -eq 0 ] && grep -Eq '^Gets +[0-9.]+ +[0-9.]+ +[0-9.]+ ' "$T/k.out" &&
	[ "$(grep -Ec '^  switch [12] +[01] +[0-9.]+ +[0-9]+$' "$T/k.out")" -eq 2 ] && ok ||
		bad "rc $rc: $(kernel_err "$T/k.err") $(head -c 300 "$T/k.out")"
fi
