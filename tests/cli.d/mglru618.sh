# mglru's 6.18 version switches folio_seq and workingset_rework
# (docs/mglru.md, "6.18 switches"): listed with default 0 (6.6), 0 and 1
# accepted, 2 refused in one line with exit 2; ablate does not take them
# for mechanism switches.  Their behaviour is tests/test_mglru618.c's.
# Sourced by tests/cli.sh (P, T, t, ok, bad).  Cost: under 1 s.

t "mglru618: 6.18 switches: default 0, 1 taken, 2 refused"
msg=""
for k in folio_seq workingset_rework; do
	$P policies --tunables mglru | grep -q "^$k  *0  " || msg="$msg $k: not listed with default 0;"
	$P run --policy mglru --set "$k=1" usemem -m 1 >/dev/null 2>&1 || msg="$msg $k=1 refused;"
	$P run --policy mglru --set "$k=2" usemem -m 1 >"$T/out" 2>&1
	[ $? -eq 2 ] || msg="$msg $k=2 not refused;"
	[ "$(wc -l <"$T/out")" -eq 1 ] || msg="$msg $k=2: not one line;"
done
[ -z "$msg" ] && ok || bad "$msg"

t "mglru618: not ablate switches"
$P ablate --policy mglru --off folio_seq -- usemem -m 1 >"$T/out" 2>&1
[ $? -eq 2 ] && [ "$(wc -l <"$T/out")" -eq 1 ] && grep -qF "folio_seq is a tunable of mglru (0..1, default 0), not a switch" "$T/out" && ok ||
	bad "$(head -2 "$T/out")"
