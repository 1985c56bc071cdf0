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

exit $fail
