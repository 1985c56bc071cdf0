# linux6 (issue 11): the 6.x classic-LRU design through the CLI.  Sourced
# by tests/cli.sh (P, T, t, ok, bad, counter).  Cost: about 1 s.

t "linux6: listed, tunables with kernel names, bad --set"
out=$($P policies --tunables linux6 2>&1)
if $P policies | grep -q '^linux6 ' &&
	echo "$out" | grep -q '^swappiness  *60 .*MAX_SWAPPINESS 200' &&
	echo "$out" | grep -q '^two_touch ' && echo "$out" | grep -q '^cache_trim ' &&
	echo "$out" | grep -q '^cost_io  *32 ' && echo "$out" | grep -q '^bailout_writeback ' &&
	{ $P run --policy linux6 --set swappiness=201 usemem -m 4 >/dev/null 2>&1; [ $? -eq 2 ]; } &&
	$P run --policy linux6 --set swappiness=200 usemem -m 4 >/dev/null 2>&1; then ok
else bad "$out"; fi

# The kernel (6.18, memcg limit 900M) counts pgactivate 9, pgdeactivate 0
# and pswpout close to pgsteal; 2.6.28's rules (workingset) activate every
# page at its first inactive scan and deactivate half of them back.
t "linux6: usemem -m 1000: no activation churn (two-touch)"
$P run --machine vmm-2008 --policy linux6 usemem -m 1000 >"$T/l6" 2>&1
$P run --machine vmm-2008 --policy workingset usemem -m 1000 >"$T/ws" 2>&1
act=$(counter pgactivate "$T/l6"); deact=$(counter pgdeactivate "$T/l6")
out=$(counter pswpout "$T/l6"); steal=$(($(counter pgsteal_kswapd "$T/l6") + $(counter pgsteal_direct "$T/l6")))
wsact=$(counter pgactivate "$T/ws")
if [ "$act" -ge 0 ] && [ "$act" -lt 100 ] && [ "$deact" -ge 0 ] && [ "$deact" -lt 100 ] &&
	[ "$wsact" -gt 100000 ] && [ "$steal" -gt 30000 ] &&
	[ $((out * 10)) -le $((steal * 11)) ] && [ $((out * 10)) -ge $((steal * 9)) ]; then ok
else bad "pgactivate $act pgdeactivate $deact pswpout $out pgsteal $steal (workingset pgactivate $wsact)"; fi

# A streaming reader beside an anonymous working set: cache_trim_mode
# reclaims file only, so every page scanned is stolen and none is swapped.
t "linux6: dd beside a working set scans no anon (cache_trim)"
$P run --machine vmm-2008 --ram 128M --policy linux6 dd if=/dev/sda bs=1M count=256 + workingset -m 40 >"$T/st" 2>&1
scan=$(($(counter pgscan_kswapd "$T/st") + $(counter pgscan_direct "$T/st")))
steal=$(($(counter pgsteal_kswapd "$T/st") + $(counter pgsteal_direct "$T/st")))
if [ "$scan" -gt 10000 ] && [ "$scan" -eq "$steal" ] && [ "$(counter pgscan_anon "$T/st")" -eq 0 ] &&
	[ "$(counter pswpout "$T/st")" -eq 0 ] &&
	[ "$(counter pgmajfault "$T/st")" -eq 0 ]; then ok
else bad "pgscan $scan pgsteal $steal $(grep -E '^(pswpout|pgmajfault) ' "$T/st" | tr '\n' ' ')"; fi

t "linux6: VMA swap readahead: hits on a sequential re-read"
$P run --machine vmm-2008 --ram 64M --swap 128M --policy linux6 usemem -r 2 80M >"$T/ra" 2>&1
$P run --machine vmm-2008 --ram 64M --swap 128M --policy linux6 --set vm.page_cluster=0 usemem -r 2 80M >"$T/ra0" 2>&1
ra=$(counter swap_ra "$T/ra"); hit=$(counter swap_ra_hit "$T/ra"); in=$(counter pswpin "$T/ra")
if [ "$in" -gt 1000 ] && [ "$hit" -gt $((in / 2)) ] && [ "$hit" -le "$ra" ] &&
	[ "$(counter swap_ra "$T/ra0")" -eq 0 ] &&
	[ "$(counter pgmajfault "$T/ra0")" -eq "$(counter pswpin "$T/ra0")" ]; then ok
else bad "swap_ra $ra swap_ra_hit $hit pswpin $in; page-cluster 0: $(grep -E '^(swap_ra|pgmajfault|pswpin) ' "$T/ra0" | tr '\n' ' ')"; fi
