# zram writeback to a backing device (--swap zram:SIZE,backing=SIZE,wb=T;
# docs/zram.md; 6.18 zram_drv.c, src/mm/zram_wb.c): bd_stat beside
# mm_stat, a written-back page read from the disk, writeback_limit, no
# writeback of same-filled pages, bad input, the host's refusal.
# tests/test_zram_wb.c works the order and the counters by hand.
# About 3 s.

C="--memcg 4M --ram 64M --max-time 0.15"

t "wb=20ms: idle pages written back; bd_stat beside mm_stat"
$P run $C --swap zram:32M,backing=8M,wb=20ms qsbench -m 6 >"$T/idle" 2>&1
rc=$?
n=$(counter bd_stat.bd_count "$T/idle"); r=$(counter bd_stat.bd_reads "$T/idle"); w=$(counter bd_stat.bd_writes "$T/idle")
# a block is held from before its write to its slot's free: at most
# one write in flight when the run stops
[ $rc -eq 3 ] && [ "$w" -gt 0 ] && [ $((n + r)) -le $((w + 1)) ] && [ "$n" -gt 0 ] &&
	grep -q '^mm_stat.huge_pages ' "$T/idle" && ok || bad "exit $rc: bd_count $n, bd_reads $r, bd_writes $w"

t "writeback: the same run twice, byte-identical"
$P run $C --swap zram:32M,backing=8M,wb=20ms qsbench -m 6 >"$T/idle2" 2>&1
cmp -s "$T/idle" "$T/idle2" && ok || bad "two runs differ"

t "wb_mode=huge,wb_limit=5: 5 pages written; each read is a disk read"
$P run $C --swap zram:32M,backing=8M,wb=20ms,wb_mode=huge,wb_limit=5 --json qsbench -m 6 >"$T/huge" 2>/dev/null
w=$(grep -o '"bd_stat.bd_writes": [0-9]*' "$T/huge" | grep -o '[0-9]*$')
r=$(grep -o '"bd_stat.bd_reads": [0-9]*' "$T/huge" | grep -o '[0-9]*$')
in=$(grep -o '"pgpgin": [0-9]*' "$T/huge" | head -1 | grep -o '[0-9]*$')
sw=$(grep -o '"pswpin": [0-9]*' "$T/huge" | head -1 | grep -o '[0-9]*$')
# pgpgin (kB): the zram reads and, beside them, the backing device's
[ "$w" = 5 ] && [ "$r" -gt 0 ] && [ "$in" -eq $(( (sw + r) * 4 )) ] && ok ||
	bad "bd_writes $w (limit 5), bd_reads $r, pgpgin $in for $sw swap-ins"

t "usemem's same-filled pages are never written back"
$P run $C --swap zram:32M,backing=8M,wb=20ms usemem -m 6 -s 100 >"$T/same" 2>&1
[ "$(counter mm_stat.same_pages "$T/same")" -gt 0 ] && [ "$(counter bd_stat.bd_writes "$T/same")" -eq 0 ] && ok ||
	bad "same_pages $(counter mm_stat.same_pages "$T/same"), bd_writes $(counter bd_stat.bd_writes "$T/same")"

t "no backing=: no bd_stat"
$P run $C --swap zram:32M usemem -m 6 -s 100 >"$T/none" 2>&1
grep -q '^bd_stat' "$T/none" && bad "bd_stat without a backing device" || ok

t "bad writeback options: one line, exit 2"
okc=0
for sw in zram:32M,backing=8M zram:32M,wb=1s zram:32M,backing=8M,wb=1s,wb_mode=incompressible \
	  zram:32M,backing=4K,wb=1s zram:32M,backing=8M,wb=1s,size=3; do
	$P run $C --swap "$sw" usemem -m 1 >"$T/bad" 2>&1
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/bad")" -eq 1 ] && okc=$((okc + 1)) || echo "$sw: exit $rc: $(cat "$T/bad")"
done
[ $okc -eq 5 ] && ok || bad "$okc of 5 refused in one line"

t "pagelab kernel: writeback refused in one line (simulation-only)"
$P kernel --swap zram:64M,backing=64M,wb=1s usemem -m 1 >"$T/k" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/k")" -eq 1 ] && grep -q 'zram writeback is simulation-only' "$T/k" && ok ||
	bad "exit $rc: $(cat "$T/k")"
