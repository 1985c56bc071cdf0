# One page writer for both comparisons (src/engine/html_compare.c):
# `compare RESULTS --html` and `compare --html -- WORKLOAD` (its kernel
# records written by hand into the kernel cache: no kernel run, no root;
# the simulator side is usemem -m 80 in 64M, twice).  Both pages carry the
# one style (the records' '*', the kernel's verdict colours) and write a
# figure missing on one side the same way.

t "compare pages: one style, a missing figure alike in both"
$P sweep --policy lru,fifo --ram 16M -o "$T/res" -- usemem -m 4 >/dev/null 2>&1
mkdir -p "$T/kc"
echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$T/kc/tlb_cost"
for n in 1 2; do
	kernel_record "$n" "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 80" user=0.01 sys=0.05 \
		"m:pgfault=$((20490 + 10 * n))" "c:pswpout=100$n" "c:pgactivate=5$n"
done >"$T/kc/kernel.jsonl"
$P compare --html "$T/r.html" "$T/res" >"$T/r.txt" 2>"$T/r.err"
rc1=$?
$P compare --repeat 2 --kernel-cache "$T/kc" --memcg 64M --swap 128M --policy linux6 --html "$T/k.html" \
	-- usemem -m 80 >"$T/k.txt" 2>"$T/k.err"
rc2=$?
msg=
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || msg="exit $rc1/$rc2: $(cat "$T/r.err" "$T/k.err")"
style() { sed -n '/^<style>/,/^<\/style>/p' "$1" | grep -E '^\.(sig|v0)'; }
[ -n "$(style "$T/r.html")" ] && [ "$(style "$T/r.html")" = "$(style "$T/k.html")" ] ||
	msg="$msg; not one style: $(style "$T/r.html" | tr '\n' ' ')"
[ "$(style "$T/r.html" | wc -l)" -eq 2 ] || msg="$msg; not the two rules"
# usemem -m 4 in 16M never reclaims: kswapd_efficiency has no value.
grep -q '^<tr><td>kswapd_efficiency</td><td class="na">-</td><td class="na">-</td></tr>$' "$T/r.html" ||
	msg="$msg; records page: $(grep kswapd_efficiency "$T/r.html")"
grep -q '^<tr><td>pgscan_anon</td><td class="na">-</td><td class="na">-</td>' "$T/k.html" ||
	msg="$msg; kernel page: $(grep '<td>pgscan_anon' "$T/k.html")"
grep -c '<section class="config">' "$T/r.html" | grep -qx 1 && grep -c '<section class="policy">' "$T/k.html" |
	grep -qx 1 || msg="$msg; sections"
[ -z "$msg" ] && ok || bad "$msg"
