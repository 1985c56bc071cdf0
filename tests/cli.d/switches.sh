# Mechanism switches of mglru and linux6 (issue 41, docs/policies.md):
# each turned off, on a whole run, changes the work or the counters its
# mechanism is responsible for.  The switches no printed figure shows
# (tiers, refault_activate, cost_balance, bailout, cache_trim) are tested
# in tests/test_switches.c.  Sourced by tests/cli.sh (P, T, t, ok, bad,
# counter).  Cost: about 3 s.

# A row of the reclaim work table, summed over who ran it.
work() {
	awk -v r="$1" '$1 == r { s = 0; for (i = 2; i <= NF; i++) s += $i; print s }' "$2"
}

mg() {
	$P run --machine vmm-2008 --ram 12M --swap 64M --check --policy mglru "$@" usemem -m 16 -r 2 2>&1
}

t "switches: listed with default 1, 0 and 1 accepted, 2 refused"
msg=""
for pair in mglru:walk_mmu mglru:look_around mglru:bloom mglru:tiers mglru:aging_trigger \
	linux6:two_touch linux6:cache_trim linux6:refault_activate linux6:cost_balance linux6:bailout; do
	pol=${pair%%:*} k=${pair#*:}
	$P policies --tunables "$pol" | grep -q "^$k  *1  " || msg="$msg $k: not listed with default 1;"
	$P run --policy "$pol" --set "$k=0" usemem -m 1 >/dev/null 2>&1 || msg="$msg $k=0 refused;"
	$P run --policy "$pol" --set "$k=2" usemem -m 1 >/dev/null 2>&1
	[ $? -eq 2 ] || msg="$msg $k=2 not refused;"
done
[ -z "$msg" ] && ok || bad "$msg"

mg >"$T/on"
t "switches: mglru walk_mmu=0: no page-table walks, more rmap walks"
mg --set walk_mmu=0 >"$T/nowalk"
if [ "$(work walk_mm "$T/on")" -gt 0 ] && [ "$(work walk_mm "$T/nowalk")" -eq 0 ] &&
	[ "$(work walk_pte_range "$T/nowalk")" -eq 0 ] &&
	[ "$(work folio_referenced "$T/nowalk")" -gt "$(work folio_referenced "$T/on")" ]; then ok
else bad "walk_mm $(work walk_mm "$T/on") -> $(work walk_mm "$T/nowalk"), folio_referenced $(work folio_referenced "$T/on") -> $(work folio_referenced "$T/nowalk")"; fi

t "switches: mglru look_around=0: no PTE read by look-around, more rmap walks"
mg --set look_around=0 >"$T/nola"
if [ "$(work lru_gen_look_around_ptes "$T/on")" -gt 0 ] && [ "$(work lru_gen_look_around_ptes "$T/nola")" -eq 0 ] &&
	[ "$(work lru_gen_look_around "$T/nola")" -eq 0 ] &&
	[ "$(work folio_referenced "$T/nola")" -gt "$(work folio_referenced "$T/on")" ]; then ok
else bad "look-around PTEs $(work lru_gen_look_around_ptes "$T/on") -> $(work lru_gen_look_around_ptes "$T/nola")"; fi

t "switches: mglru bloom=0: no PTE table skipped, more PTEs walked"
mg --set bloom=0 >"$T/nobloom"
if [ "$(work walk_pmd_range_skipped "$T/on")" -gt 0 ] && [ "$(work walk_pmd_range_skipped "$T/nobloom")" -eq 0 ] &&
	[ "$(work walk_pte_range "$T/nobloom")" -gt "$(work walk_pte_range "$T/on")" ]; then ok
else bad "skipped $(work walk_pmd_range_skipped "$T/on") -> $(work walk_pmd_range_skipped "$T/nobloom")"; fi

t "switches: mglru aging_trigger=0: fewer agings"
mg --set aging_trigger=0 >"$T/noage"
if [ "$(work inc_max_seq "$T/noage")" -gt 0 ] &&
	[ "$(work inc_max_seq "$T/noage")" -lt "$(work inc_max_seq "$T/on")" ] && ! grep -q 'check:' "$T/noage"; then ok
else bad "inc_max_seq $(work inc_max_seq "$T/on") -> $(work inc_max_seq "$T/noage")"; fi

t "switches: linux6 two_touch=0: activates at the first young PTE"
$P run --machine vmm-2008 --ram 12M --swap 64M --policy linux6 usemem -m 16 -r 2 >"$T/l6" 2>&1
$P run --machine vmm-2008 --ram 12M --swap 64M --policy linux6 --set two_touch=0 usemem -m 16 -r 2 >"$T/l6t" 2>&1
a=$(counter pgactivate "$T/l6"); b=$(counter pgactivate "$T/l6t")
[ "$a" -ge 0 ] && [ "$b" -gt $((a * 4)) ] && ok || bad "pgactivate $a -> $b"
