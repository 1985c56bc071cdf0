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

exit $fail
