# MGLRU's memcg LRU (issue 41, src/mm/memcg_lru.c, docs/cgroups.md
# "MGLRU's memcg LRU"): the switch memcg_lru, what it changes under a
# --cgroup tree and what it leaves alone.  Sourced by tests/cli_area.sh
# (P, T, t, ok, bad).  About 2 s.

# A hot working set in /hot beside a dd stream in /cold, under global
# pressure (16M of RAM, no limit): docs/mglru.md's measured case, at
# half its size.
hotcold() {
	$P run --ram 16M --swap 32M --policy mglru --make-inputs "$@" \
		--cgroup /hot --cgroup /cold \
		workingset -m 4 -t 1000 -n 3 @/hot + dd if=big of=/dev/null bs=1M count=48 @/cold 2>&1
}
majflt() { sed -n 's/^workingset: .* \([0-9]*\) major faults.*/\1/p' "$1"; }
# memory.events low of a cgroup: the events table's low column
evlow() { awk -v c="$2" '/^# cgroups: memory.current/ { on = 1; next } on && $1 == c { print $6; exit }' "$1"; }

t "memcg_lru: a switch of mglru (default 1), 2 refused, no linux6 tunable"
msg=""
$P policies --tunables mglru | grep -q "^memcg_lru  *1  " || msg="$msg not listed with default 1;"
$P run --policy mglru --set memcg_lru=2 usemem -m 1 >"$T/e2" 2>&1
[ $? -eq 2 ] && [ "$(wc -l <"$T/e2")" -eq 1 ] || msg="$msg memcg_lru=2: $(head -1 "$T/e2");"
$P run --policy linux6 --set memcg_lru=0 usemem -m 1 >"$T/e3" 2>&1
[ $? -eq 2 ] || msg="$msg linux6 took memcg_lru;"
$P ablate --policy mglru --list -- usemem -m 1 2>&1 | grep -q "memcg_lru=0" || msg="$msg not an ablate variant;"
[ -z "$msg" ] && ok || bad "$msg"

t "memcg_lru: without --cgroup, or with --memcg, both settings byte-identical"
$P run --ram 16M --swap 32M --policy mglru usemem -m 12 -r 1 >"$T/n1" 2>&1
$P run --ram 16M --swap 32M --policy mglru --set memcg_lru=0 usemem -m 12 -r 1 >"$T/n0" 2>&1
$P run --ram 32M --swap 32M --policy mglru --memcg 8M usemem -m 12 -r 1 >"$T/m1" 2>&1
$P run --ram 32M --swap 32M --policy mglru --memcg 8M --set memcg_lru=0 usemem -m 12 -r 1 >"$T/m0" 2>&1
if cmp -s "$T/n1" "$T/n0" && cmp -s "$T/m1" "$T/m0" && grep -q "major" "$T/n1"; then ok
else bad "$(cmp "$T/n1" "$T/n0"; cmp "$T/m1" "$T/m0")"; fi

# The same run under both settings; --check holds the memcg LRU's bins
# (each cgroup in one, of its generation) after every event.
hotcold --check >"$T/h1"
rc1=$?
hotcold --set memcg_lru=0 >"$T/h0"
rc0=$?
t "memcg_lru: hot/cold siblings, /hot's major faults 82 (LRU) and 41 (walk)"
# The memcg LRU shrinks the first memcg of its walk for the whole batch;
# the pre-order walk gives /hot and /cold each their own target.
if [ $rc1 -eq 0 ] && [ $rc0 -eq 0 ] && [ "$(majflt "$T/h1")" = 82 ] && [ "$(majflt "$T/h0")" = 41 ]; then ok
else bad "exit $rc1/$rc0, major faults $(majflt "$T/h1") / $(majflt "$T/h0"): $(tail -2 "$T/h1")"; fi

t "memcg_lru: same seed, same output (the bins' draws are the run's)"
hotcold --check >"$T/h1b"
cmp -s "$T/h1" "$T/h1b" && ok || bad "$(cmp "$T/h1" "$T/h1b")"

# memory.low (docs/protection.exp, quick size): shrink_one() passes /a
# over once (TAIL), then reclaims it when the walk comes back, counting
# memory.events low; the pre-order walk skips it every pass.
low() {
	$P run --machine modern --ram 64M --swap 256M --policy mglru "$@" \
		--cgroup /a:low=20M --cgroup /b \
		workingset -m 16 -d 60 @/a + usemem -m 100 -r 3 @/b 2>&1
}
t "memcg_lru: memory.low broken on the walk's return (250 low events; walk 0)"
low >"$T/l1"
low --set memcg_lru=0 >"$T/l0"
if [ "$(evlow "$T/l1" /a)" = 250 ] && [ "$(evlow "$T/l0" /a)" = 0 ] && [ "$(majflt "$T/l0")" = 0 ]; then ok
else bad "low events $(evlow "$T/l1" /a) / $(evlow "$T/l0" /a), walk's major faults $(majflt "$T/l0")"; fi
