# The kernel designs through the CLI: the pre-2.6 ones (issue 3), linux26,
# splitlru, workingset, linux6 and mglru: counters, tunables, --check.

# The pre-2.6 designs (issue 3): linux22, vhand, riel24, aa24.
TR=$(mktemp /tmp/pagelab-cli-XXXXXX)
awk 'BEGIN { for (i = 0; i < 5000; i++) { p = (i * 7919) % 997; if (i % 3 == 0) p = (i * 31) % 60;
	print p, (i % 4 == 0 ? "w" : "r") } }' > "$TR"
for POL in linux22 vhand riel24 aa24; do
	t "$POL: --check on usemem and trace"
	out=$($P run --machine vmm-2008 --ram 16M --swap 32M --check --policy $POL usemem -m 20 2>&1)
	out2=$($P run --machine p133-1997 --ram 2M --swap 16M --check --policy $POL trace "$TR" 2>&1)
	out3=$($P run --machine ideal --ram 1M --check --policy $POL trace "$TR" 2>&1)
	if echo "$out$out2$out3" | grep -q 'check\|Out of memory\|did not finish'; then bad "$out$out2$out3"
	elif ! echo "$out" | grep -q '^pswpout [1-9]'; then bad "$out"
	else ok; fi

	t "$POL: vmm-2008 usemem -m 1000 reports pgscan/pgsteal"
	out=$($P run --machine vmm-2008 --policy $POL usemem -m 1000 2>&1)
	scan=$(echo "$out" | awk '/^pgscan_(kswapd|direct) /{s+=$2} END{print s+0}')
	steal=$(echo "$out" | awk '/^pgsteal_(kswapd|direct) /{s+=$2} END{print s+0}')
	if echo "$out" | grep -q 'Out of memory\|did not finish'; then bad "$out"
	elif [ "$scan" -gt 0 ] && [ "$steal" -gt 0 ] && echo "$out" | grep -q '^pswpout [1-9]'; then ok
	else bad "scan=$scan steal=$steal"; fi
done
rm -f "$TR"

t "vhand: the aging thread's CPU time shows"
out=$($P run --machine p133-1997 --policy vhand usemem -m 40 2>&1)
echo "$out" | grep -Eq '^ +[0-9]+ +0:00\.[0-9][1-9] vhand$|^ +[0-9]+ +0:00\.[1-9][0-9] vhand$|^ +[0-9]+ +[0-9]*[1-9]:[0-9.]+ vhand$' &&
	echo "$out" | grep -q '^pgscan_aging [1-9]' && ok || bad "$out"

t "oldvm tunables are listed and settable"
out=$($P policies --tunables aa24 2>&1)
for n in vm_passes vm_cache_scan_ratio vm_mapped_ratio vm_lru_balance_ratio; do
	echo "$out" | grep -q "^$n " || { bad "no $n: $out"; continue 2; }
done
$P run --machine p133-1997 --policy riel24 --set PAGE_AGE_MAX=20 usemem -m 8 >/dev/null 2>&1 &&
	{ $P run --policy aa24 --set vm_passes=0 usemem -m 4 >/dev/null 2>&1; [ $? -eq 2 ]; } && ok || bad "--set"

for pol in linux26 splitlru workingset linux6; do
	t "$pol: usemem -m 1000 reports pgscan/pgsteal"
	out=$($P run --machine vmm-2008 --policy $pol usemem -m 1000 2>&1)
	steal=$(echo "$out" | awk '/^pgsteal_(kswapd|direct) /{s+=$2} END{print s+0}')
	scan=$(echo "$out" | awk '/^pgscan_(kswapd|direct) /{s+=$2} END{print s+0}')
	echo "$out" | grep -q '^usemem -m 1000 .* total$' && echo "$out" | grep -q '^pswpout [1-9]' &&
		[ "$steal" -gt 0 ] && [ "$scan" -ge "$steal" ] && ok || bad "$out"
done

t "policies --tunables lists kernel names and defaults"
out=$($P policies --tunables splitlru)
echo "$out" | grep -q '^swappiness  *60  */proc/sys/vm/swappiness' && echo "$out" | grep -q '^noforce  *1 ' &&
	echo "$out" | grep -q '^stream  *0 ' && echo "$out" | grep -q '^exec_active ' &&
	$P policies --tunables workingset | grep -q '^anon_inactive  *1 ' &&
	$P policies --tunables linux26 | grep -q '^swappiness ' && ok || bad "$out"

t "splitlru variants run; bad tunable values exit 2"
r1=$($P run --machine vmm-2008 --ram 96M --policy splitlru --set stream=1 --set noforce=0 --set exec_active=1 --set swappiness=10 usemem -r 2 -m 128 2>&1 | grep -c '^pgscan_\(kswapd\|direct\) ')
$P run --policy splitlru --set noforce=2 usemem -m 1 >/dev/null 2>&1; rc1=$?
$P run --policy linux26 --set stream=1 usemem -m 1 >/dev/null 2>&1; rc2=$?
[ "$r1" = 2 ] && [ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && ok || bad "r1=$r1 rc1=$rc1 rc2=$rc2"

t "splitlru culls an mlocked area; linux26 keeps scanning it"
u=$($P run --machine vmm-2008 --ram 160M --policy splitlru usemem -M -s 200 64M + usemem -r 3 96M 2>&1)
l=$($P run --machine vmm-2008 --ram 160M --policy linux26 usemem -M -s 200 64M + usemem -r 3 96M 2>&1)
uc=$(echo "$u" | awk '/^unevictable_pgs_culled /{print $2}')
lc=$(echo "$l" | awk '/^unevictable_pgs_culled /{print $2}')
ur=$(echo "$u" | awk '/^pgrefill /{print $2}')
lr=$(echo "$l" | awk '/^pgrefill /{print $2}')
[ "$uc" -ge 16384 ] && [ "$lc" -eq 0 ] && [ "$lr" -gt "$ur" ] && ok || bad "culled $uc/$lc refill $ur/$lr"

t "splitlru: same command twice, byte-identical output"
a=$($P run --machine vmm-2008 --ram 96M --policy workingset usemem -r 2 -m 128 2>&1)
b=$($P run --machine vmm-2008 --ram 96M --policy workingset usemem -r 2 -m 128 2>&1)
[ "$a" = "$b" ] && ok || bad "outputs differ"

t "mglru: usemem -m 1000 on vmm-2008: pgscan, pgsteal"
out=$($P run --machine vmm-2008 --policy mglru usemem -m 1000 2>&1)
n() { echo "$out" | awk -v k="$1" '$1 == k { print $2 }'; }
[ "$(n pswpout)" -gt 0 ] && [ "$(n pgscan_kswapd)" -gt 0 ] && [ "$(n pgsteal_kswapd)" -gt 0 ] &&
	[ "$(n oom_kill)" -eq 0 ] && echo "$out" | grep -q '^usemem -m 1000 .* total$' && ok || bad "$out"

t "mglru: deterministic"
out2=$($P run --machine vmm-2008 --policy mglru usemem -m 1000 2>&1)
[ "$out" = "$out2" ] && ok || bad "two runs differ"

t "mglru: --check on usemem -r, -R and a trace"
tr=$(mktemp)
awk 'BEGIN { srand(3); for (i = 0; i < 20000; i++) printf "%d %s\n", (rand() < 0.7 ? int(rand() * 300) : int(rand() * 3000)), (rand() < 0.3 ? "w" : "r") }' > "$tr"
o1=$($P run --machine vmm-2008 --ram 12M --swap 64M --check --policy mglru usemem -m 6 -r 2 2>&1); r1=$?
o2=$($P run --machine vmm-2008 --ram 12M --swap 64M --check --policy mglru --set swappiness=200 usemem -R -j 4096 -r 8 -m 5 2>&1); r2=$?
o3=$($P run --machine vmm-2008 --ram 12M --swap 64M --check --policy mglru --set walk_mmu=0 usemem -m 6 -r 2 2>&1); r3=$?
o4=$($P run --machine ideal --ram 1000p --check --policy mglru trace "$tr" 2>&1); r4=$?
rm -f "$tr"
[ $r1$r2$r3$r4 = 0000 ] && ! echo "$o1$o2$o3$o4" | grep -q 'check:' &&
	echo "$o1" | grep -q '^workingset_activate_anon [1-9]' && echo "$o4" | grep -q '^pgmajfault [1-9]' && ok || bad "$o1$o2$o3$o4"

t "mglru: tunables listed; bad --set exits 2"
out=$($P policies --tunables mglru)
for k in swappiness min_nr_gens max_nr_gens max_nr_tiers min_lru_batch min_ttl_ms; do
	echo "$out" | grep -q "^$k " || { bad "no $k in: $out"; continue 2; }
done
for s in swappiness=201 max_nr_gens=3 min_nr_gens=3; do
	$P run --policy mglru --set $s usemem -m 1 >/dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] || { bad "--set $s exited $rc"; continue 2; }
done
ok


t "--check: every kernel design on mixed file + anon memory"
msg=""
for pol in linux22 vhand riel24 aa24 linux26 splitlru workingset linux6 mglru; do
	$P run --machine vmm-2008 --ram 24M --swap 32M --check --policy $pol \
		fileio -c -w -r 2 /data/f 16M + usemem -r 2 -m 10 >"$T/out" 2>"$T/err" || msg="$msg $pol: $(head -2 "$T/err")"
	grep -q '^fileio .* total$' "$T/out" || msg="$msg $pol: fileio did not finish"
done
[ -z "$msg" ] && ok || bad "$msg"

t "swap token: linux26 qsbench -p 4 swaps in less with it"
on=$($P run --machine vmm-2008 --ram 32M --swap 64M --policy linux26 qsbench -p 4 -m 8 2>&1 | awk '$1 == "pswpin" { print $2 }')
off=$($P run --machine vmm-2008 --ram 32M --swap 64M --policy linux26 --set vm.swap_token=0 qsbench -p 4 -m 8 2>&1 | awk '$1 == "pswpin" { print $2 }')
[ -n "$on" ] && [ -n "$off" ] && [ "$on" -gt 0 ] && [ $((on * 2)) -lt "$off" ] && ok || bad "pswpin with token $on, without $off"

t "mglru: min_ttl_ms OOM-kills instead of evicting"
a=$($P run --machine vmm-2008 --ram 32M --swap 64M --check --policy mglru usemem -m 40 2>&1)
b=$($P run --machine vmm-2008 --ram 32M --swap 64M --check --policy mglru --set min_ttl_ms=10000 usemem -m 40 2>&1)
if echo "$a" | grep -q '^oom_kill 0$' && echo "$a" | grep -q '^pswpout [1-9]' &&
	echo "$b" | grep -q 'Out of memory: Killed process 1000 (usemem)' && echo "$b" | grep -q '^oom_kill 1$'; then ok
else bad "$(echo "$a" | grep -E 'oom|pswpout') / $(echo "$b" | grep -E 'oom|Out of|pswpout')"; fi


t "file faults mark_page_accessed in 2.4.10-2.6.28 designs only"
msg=""
for pv in aa24:1024 linux26:1024 splitlru:1024 riel24:0 workingset:0 "aa24 --set vm.fault_mark_accessed=0:0"; do
	pol=${pv%%:*}; want=${pv##*:}
	# the file was written once (-c): the fault is its second touch
	got=$($P run --machine vmm-2008 --ram 64M --policy $pol fileio -c -m /f 4M 2>&1 | awk '$1 == "pgactivate" { print $2 }')
	[ "$got" = "$want" ] || msg="$msg $pol: pgactivate $got, want $want;"
done
[ -z "$msg" ] && ok || bad "$msg"

# 4.7's "mm: filemap: only do access activations on reads" (Johannes
# Weiner, 2016): write_begin's folio lookup lost FGP_ACCESSED, so a file
# written and then read once stays inactive.  Measured on this host's
# 6.18 (pagelab kernel --memcg 256M fileio -c -r 1 f1 128M): pgactivate
# 0, all 128 MB inactive_file.  Before 4.7 the read is the second touch.
t "buffered writes mark pages accessed before 4.7 only"
msg=""
for pv in splitlru:1024 workingset:1024 aa24:1024 linux6:0 "linux6 --set vm.write_mark_accessed=1:1024" \
	"splitlru --set vm.write_mark_accessed=0:0"; do
	pol=${pv%:*}; want=${pv##*:}
	got=$($P run --machine vmm-2008 --ram 64M --policy $pol fileio -c -r 1 /f 4M 2>&1 | awk '$1 == "pgactivate" { print $2 }')
	[ "$got" = "$want" ] || msg="$msg $pol: pgactivate $got, want $want;"
done
[ -z "$msg" ] && ok || bad "$msg"

# The same series' first patch (Rik van Riel, "mm: workingset: only do
# workingset activations on reads"): from 4.7 a write that creates a page
# where an evicted one left its shadow is no refault (6.18
# filemap_add_folio(): no workingset_refault() for __GFP_WRITE).  This
# host's 6.18, `pagelab kernel --memcg 16M --swap 0 fileio -c -w -r 1 f
# 24M`: pgsteal_file 8 399, the memcg's workingset_refault_file 0.  The
# 24M file's rewrite in 16M meets a shadow at each of its 6 144 pages.
t "a rewrite of an evicted page is a refault before 4.7 only"
msg=""
for pv in workingset:6144 linux6:0 mglru:0 "linux6 --set vm.write_refault=1:6144" \
	"workingset --set vm.write_refault=0:0"; do
	pol=${pv%:*}; want=${pv##*:}
	got=$($P run --machine vmm-2008 --ram 64M --memcg 16M --policy $pol fileio -c -w -r 1 /f 24M 2>&1 |
		awk '$1 == "workingset_refault_file" { print $2 }')
	[ "$got" = "$want" ] || msg="$msg $pol: workingset_refault_file $got, want $want;"
done
[ -z "$msg" ] && ok || bad "$msg"

t "riel24: drop_behind spares a working set from dd"
on=$($P run --machine vmm-2008 --ram 32M --policy riel24 dd if=/dev/sda bs=1M count=128 + workingset -m 12 2>&1)
off=$($P run --machine vmm-2008 --ram 32M --policy riel24 --set vm.drop_behind=0 dd if=/dev/sda bs=1M count=128 + workingset -m 12 2>&1)
if echo "$on" | grep -q '^pswpout 0$' && echo "$on" | grep -q ' 0 major faults' &&
	echo "$off" | grep -q '^pswpout [1-9]'; then ok
else bad "$(echo "$on" | grep -E 'check|pswpout|major') / $(echo "$off" | grep -E 'pswpout|major')"; fi

