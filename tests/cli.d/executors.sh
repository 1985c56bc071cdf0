# The runner's two executors (src/engine/kexec.c, issue 37): sweep
# --executor kernel names its cells by their pagelab kernel command and
# refuses what the kernel cannot run before anything runs; a kernel run's
# record, resumed from a records file, is compare's cache; compare makes a
# workload's inputs on the simulator side as the kernel's executor does
# (issue 38, harness bug 6).  No kernel run, no root (about 2 s).

KARGS="--memcg 32M --swap 64M --seed 1 --timeout 600 usemem -m 40"

t "sweep --executor kernel --list: pagelab kernel commands, runs and seeds"
$P sweep --executor kernel --memcg 32M --swap 64M --seeds 2 --repeat 2 --list -- usemem -m 40 >"$T/l" 2>"$T/l.err"
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$T/l")" -eq 4 ] &&
	[ "$(sed -n 2p "$T/l")" = "pagelab kernel $KARGS # run 2, executor 7" ] &&
	grep -qx "pagelab kernel --memcg 32M --swap 64M --seed 2 --timeout 600 usemem -m 40 # run 1, executor 7" "$T/l" &&
	ok || bad "exit $rc: $(cat "$T/l" "$T/l.err")"

for args in "--executor kernel --policy clock,linux6 --memcg 32M" "--executor kernel" "--executor vm --memcg 32M" \
	    "--repeat 2 --memcg 32M" "--executor kernel --repeat 0 --memcg 32M"; do
	t "bad input: sweep $args"
	# shellcheck disable=SC2086
	$P sweep $args -- usemem -m 40 >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done

t "sweep --executor kernel: resumed from -o, the kernel's record kept"
# Every cell already in the records file: nothing runs (no root needed),
# the records come back as they were.
kernel_record 1 "$KARGS" c:pswpout=2237 m:pgfault=10328 >"$T/k.jsonl"
$P sweep --executor kernel --memcg 32M --swap 64M -o "$T/k.jsonl" --csv -- usemem -m 40 >"$T/k.csv" 2>"$T/k.err"
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$T/k.jsonl")" -eq 1 ] && [ "$(wc -l <"$T/k.csv")" -eq 2 ] &&
	awk -F, 'NR == 2 && $1 == 0 && $6 == 1 && $13 == 2237 { f = 1 } END { exit !f }' "$T/k.csv" && ok || bad "exit $rc: $(cat "$T/k.err" "$T/k.csv")"

t "sweep --executor kernel: no root, exit 2 before anything runs"
unprivileged $P sweep --executor kernel --memcg 32M --swap 64M -- usemem -m 40 >"$T/n" 2>"$T/n.err"
rc=$urc
if [ "$rc" = skip ]; then
	skip "root without setpriv"
else
	[ "$rc" -eq 2 ] && [ ! -s "$T/n" ] && [ "$(cat "$T/n.err")" = \
		"pagelab: kernel: needs root (it creates a memory cgroup and a swapfile)" ] && ok || bad "exit $rc: $(cat "$T/n.err")"
fi

# Issue 38, bug 6: fileio only reads data; the kernel's executor makes it
# (src/native/prepare.c), and compare's simulator side now makes it too,
# as run --make-inputs does (it said "workload fileio opens data, which
# does not exist").
t "compare -- fileio reading a file: made on the simulator side too"
mkdir -p "$T/fk"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/fk/tlb_cost"
kernel_record 1 "--memcg 64M --swap 128M --seed 1 --timeout 600 fileio -r 2 -b 64 data 32M" c:pgpgin=32768 \
	>"$T/fk/kernel.jsonl"
$P compare --repeat 1 --kernel-cache "$T/fk" --memcg 64M --swap 128M --policy linux6 \
	-- fileio -r 2 -b 64 data 32M >"$T/f" 2>"$T/f.err"
rc=$?
# 32 MB read from the disk once, then from the cache: as the kernel's.
[ $rc -eq 0 ] && grep -Eq '^pgpgin +32768 \(32768\.\.32768\) +32768 +1\.00  yes$' "$T/f" &&
	ok || bad "exit $rc: $(cat "$T/f.err") $(grep '^pgpgin' "$T/f")"

# As root the host is taken, and the walk over the op streams refuses what
# cannot run natively, before any cgroup, swapfile or lock: nothing runs.
t "sweep --executor kernel -- dd if=/dev/sda: refused, exit 2, no record"
if [ "$(id -u)" -ne 0 ]; then
	skip "not root (the refusal before the walk is tested above)"
else
	$P sweep --executor kernel --memcg 32M -o "$T/sda.jsonl" -- dd if=/dev/sda bs=1M count=1 >"$T/s" 2>"$T/s.err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/s" ] && [ ! -s "$T/sda.jsonl" ] && [ "$(wc -l <"$T/s.err")" -eq 1 ] &&
		grep -q 'reads /dev/sda, the simulated raw disk' "$T/s.err" && ok || bad "exit $rc: $(cat "$T/s.err")"
fi

# A kernel run stopped at --timeout is no result: compare says so, exit 1
# (sweep keeps no such record; this one is written by hand).
t "compare: a kernel run stopped at its --timeout is exit 1"
mkdir -p "$T/to"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/to/tlb_cost"
kernel_record 1 "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 40" c:pswpout=0 |
	sed 's/"finished": true/"finished": false, "timed_out": true/' >"$T/to/kernel.jsonl"
$P compare --repeat 1 --kernel-cache "$T/to" --memcg 64M --swap 128M --policy linux6 -- usemem -m 40 \
	>"$T/t" 2>"$T/t.err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/t" ] && [ "$(cat "$T/t.err")" = "pagelab: compare: kernel run 1 stopped at --timeout" ] &&
	ok || bad "exit $rc: $(cat "$T/t.err")"
