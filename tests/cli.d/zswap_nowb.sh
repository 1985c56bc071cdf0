# memory.zswap.writeback=0 (--cgroup /a:zswap.writeback=0; docs/zram.md):
# 6.18 swap_writeout() writes no page of such a cgroup to disk when
# zswap_store() refuses it (AOP_WRITEPAGE_ACTIVATE): qsbench's ints do
# not compress, so every store is refused, nothing is swapped out and
# /a ends in the OOM killer, its pages refused again and again; with
# writeback on, each refused page goes to disk.  About 2 s.

C="--ram 64M --swap 32M --set zswap=1 --max-time 0.3"

t "zswap.writeback=1: every refused page to disk"
$P run $C --cgroup /a:max=6M,zswap.writeback=1 qsbench -m 8 @/a >"$T/w1" 2>&1
rc=$?
out=$(counter pswpout "$T/w1")
rej=$(counter reject_compress_poor "$T/w1")
[ $rc -eq 3 ] && [ "$out" -gt 0 ] && [ "$out" -eq "$rej" ] && [ "$(counter zswpout "$T/w1")" -eq 0 ] && ok ||
	bad "exit $rc: pswpout $out, reject_compress_poor $rej"

t "zswap.writeback=0: nothing to disk, the cgroup OOMs"
$P run $C --cgroup /a:max=6M,zswap.writeback=0 qsbench -m 8 @/a >"$T/w0" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(counter pswpout "$T/w0")" -eq 0 ] && [ "$(counter oom_kill "$T/w0")" -eq 1 ] &&
	[ "$(counter reject_compress_poor "$T/w0")" -gt "$(counter reject_compress_poor "$T/w1")" ] && ok ||
	bad "exit $rc: pswpout $(counter pswpout "$T/w0"), oom_kill $(counter oom_kill "$T/w0")"

t "zswap.writeback: 0 or 1, else one line, exit 2"
$P run $C --cgroup /a:zswap.writeback=2 qsbench -m 8 @/a >"$T/bad" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/bad")" -eq 1 ] && grep -q "bad zswap.writeback '2' (0 or 1)" "$T/bad" && ok ||
	bad "exit $rc: $(cat "$T/bad")"
