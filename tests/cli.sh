#!/bin/sh
# End-to-end runs of the pagelab command.  PAGELAB names the binary.
set -u
P=${PAGELAB:-./pagelab}
fail=0
t() { printf '%-60s' "$1"; }
ok() { echo ok; }
bad() { echo "FAILED: $1"; fail=1; }

t "usemem fits in RAM: no swapping"
out=$($P run --machine vmm-2008 --check usemem -m 64 2>&1)
echo "$out" | grep -q '^pswpout 0$' && echo "$out" | grep -q '^pgmajfault 0$' && ok || bad "$out"

t "bad input exits 2"
for args in "--ram 0 usemem -m 1" "--ram 99999999T usemem -m 1" "--policy nosuch usemem -m 1" "nosuch" "--bogus usemem -m 1"; do
	$P run $args >/dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] || { bad "pagelab run $args exited $rc"; continue 2; }
done
ok

for pol in linux26 splitlru workingset; do
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

exit $fail
