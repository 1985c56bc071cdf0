# The add_to_swap row (src/mm/work.h, docs/cost.md): one per anonymous
# page reclaim gives a swap slot, in the text report, the JSON and the
# machine's parameters (cost.add_to_swap, charged per row).

t "run: add_to_swap is pswpout when each page is written out once"
# usemem -m 24 in 16M writes each page once and never reads it back:
# every page written was given its slot just before (linux6, and 2.2's
# swap_out walk).
msg=""
for pol in linux6 linux22; do
	$P run --memcg 16M --policy $pol usemem -m 24 >"$T/$pol" 2>&1 || msg="$msg; $pol exit $?"
	a=$(awk '$1 == "add_to_swap" && NF == 6 { print $2 + $3 + $4 + $5 + $6 }' "$T/$pol")
	w=$(counter pswpout "$T/$pol")
	[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" = "$w" ] || msg="$msg; $pol: add_to_swap '$a', pswpout $w"
done
[ -z "$msg" ] && ok || bad "$msg"

t "run --json: add_to_swap in reclaim_work's total"
$P run --json --memcg 16M --policy linux6 usemem -m 24 >"$T/j" 2>/dev/null &&
	grep -q '"total": {[^}]*"add_to_swap": [1-9]' "$T/j" && ok || bad "$(grep -o '"total": {[^}]*}' "$T/j")"

t "machines --show: cost.add_to_swap, 0 in a preset, set by a profile"
$P machines --show modern >"$T/m" 2>&1 &&
	grep -qE '^cost\.add_to_swap +0ns' "$T/m" &&
	printf 'machine = modern\ncost.add_to_swap = 1490ns\n' >"$T/p.profile" &&
	$P machines --show "$T/p.profile" 2>&1 | grep -qE '^cost\.add_to_swap +1490ns' &&
	ok || bad "$(grep add_to_swap "$T/m")"
