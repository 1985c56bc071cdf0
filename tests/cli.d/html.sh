# The HTML reports of run, sweep and compare (src/report/chart.h draws
# them): structure, not pixels - element counts, markers where a run was
# cut short, byte-identical pages for the same command.  Sourced by
# tests/cli.sh.  Cost: a few runs of under a second each on 64 MB machines.

# hcount PATTERN FILE: occurrences of PATTERN (not lines) in FILE.
hcount() { grep -o "$1" "$2" | wc -l; }
# selfcontained FILE: no script, no outside URL (the SVG namespace aside).
selfcontained() {
	[ "$(sed 's#xmlns="http://www.w3.org/2000/svg"##g' "$1" | grep -ciE '<script|src=|href="(https?:)?//|url\(|@import|https?://')" -eq 0 ]
}

HRUN="--ram 64M --swap 32M usemem -m 120 + usemem -m 30"
t "run --html: an OOM-killed workload, a marker on every timeline"
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1700000000 $P run --html "$T/run.html" $HRUN >"$T/run_h.txt" 2>"$T/err"; rc=$?
# shellcheck disable=SC2086
$P run $HRUN >"$T/run_plain.txt" 2>&1
if [ $rc -eq 0 ] && grep -q '^<!DOCTYPE html>' "$T/run.html" && selfcontained "$T/run.html" &&
   [ "$(hcount '<svg class="plot"' "$T/run.html")" -eq 6 ] &&
   [ "$(hcount '<polyline class="series"' "$T/run.html")" -eq 10 ] &&
   [ "$(hcount '<path class="mark-oom"' "$T/run.html")" -eq 12 ] &&
   [ "$(hcount '<line class="mark-line"' "$T/run.html")" -eq 6 ] &&
   [ "$(hcount 'class="mark-maxtime"' "$T/run.html")" -eq 0 ] &&
   [ "$(hcount '<g class="legend-entry"' "$T/run.html")" -eq 16 ] &&
   grep -q '<title>usemem -m 120 OOM-killed at [0-9]' "$T/run.html" &&
   grep -q '&#10005; OOM-killed' "$T/run.html" &&
   grep -q '<p class="prov">pagelab .* &middot; 2023-11-14 22:13 UTC<br><code>pagelab run --html ' "$T/run.html" &&
   grep -q '<td>oom_kill</td><td class="n">1</td>' "$T/run.html" &&
   cmp -s "$T/run_h.txt" "$T/run_plain.txt"; then
	ok
else
	bad "rc $rc $(cat "$T/err"); $(hcount '<svg' "$T/run.html") svg, $(hcount 'mark-oom' "$T/run.html") oom marks"
fi

t "run --html: the same command twice, the same bytes"
mv "$T/run.html" "$T/run1.html"
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1700000000 $P run --html "$T/run.html" $HRUN >/dev/null 2>&1
cmp -s "$T/run.html" "$T/run1.html" && ok || bad "the pages differ"

t "run --html --max-time: exit 3, a flag and no cross"
$P run --ram 64M --swap 128M --max-time 1.5 --html "$T/mt.html" usemem -m 100 -r 5 >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 3 ] && [ "$(hcount '<path class="mark-maxtime"' "$T/mt.html")" -eq 12 ] &&
   [ "$(hcount 'class="mark-oom"' "$T/mt.html")" -eq 0 ] && grep -q 'did not finish (--max-time)' "$T/mt.html"; then
	ok
else
	bad "rc $rc, $(hcount 'mark-maxtime' "$T/mt.html") flags"
fi

t "run --html --vmstat: the vmstat lines printed and drawn"
$P run --ram 64M --swap 128M --vmstat 0.1 --html "$T/vm.html" usemem -m 80 >"$T/out" 2>"$T/err"; rc=$?
n=$(grep -c '^ *[0-9]* *[0-9]* *[0-9]* *[0-9]* *0 *[0-9]*  *[0-9]' "$T/out")
# (the page samples every 0.05 s of its own: twice as many points)
if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && grep -q "^ r  b   swpd" "$T/out" &&
   grep -q "Sampled every 0.05 s of simulated time, $((2 * n + 1)) samples" "$T/vm.html"; then
	ok
else
	bad "rc $rc, $n lines: $(grep vmstat "$T/vm.html" | head -2)"
fi

t "run --html: an unwritable file refused first, exit 2"
$P run --html "$T/no/such/r.html" usemem -m 10 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -q "^pagelab: cannot write $T/no/such/r.html: " "$T/err" && ok || bad "rc $rc: $(cat "$T/err")"

# A sweep whose smallest machine OOM-kills usemem: 2 policies x 3 RAM x 2
# seeds of 0.1-0.5 s runs.
HSW="--no-progress --policy clock,lru --ram 48M,96M,192M --swap 24M --seeds 2 --jobs 2"
t "sweep --html: a chart per figure, both designs, OOM crosses"
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1700000000 $P sweep $HSW -o "$T/hsw.jsonl" --html "$T/sw.html" -- usemem -m 80 >"$T/out" 2>"$T/err"; rc=$?
nsvg=$(hcount '<svg class="plot"' "$T/sw.html")
# 48M + 24M swap cannot hold 80M: one cross per design in every chart,
# and one legend entry for the crosses beside the two designs'.
if [ $rc -eq 0 ] && [ "$nsvg" -ge 10 ] && selfcontained "$T/sw.html" &&
   [ "$(hcount '<polyline class="series"' "$T/sw.html")" -eq $((2 * nsvg)) ] &&
   [ "$(hcount '<path class="mark-oom"' "$T/sw.html")" -eq $((3 * nsvg)) ] &&
   [ "$(hcount '<g class="legend-entry"' "$T/sw.html")" -eq $((3 * nsvg)) ] &&
   [ "$(hcount 'class="mark-maxtime"' "$T/sw.html")" -eq 0 ] &&
   grep -q '<title>clock, ram 48M: mean .* over 2 seeds</title>' "$T/sw.html" &&
   grep -q '<title>lru, ram 48M: .*: OOM kill in 2 of 2 cells</title>' "$T/sw.html" &&
   grep -q '>ram (MB)</text>' "$T/sw.html" && grep -q '12 cells: policy (clock, lru)' "$T/sw.html"; then
	ok
else
	bad "rc $rc $(cat "$T/err"); $nsvg charts, $(hcount 'mark-oom' "$T/sw.html") crosses"
fi

t "sweep --html of a finished results file: the same page"
mv "$T/sw.html" "$T/sw1.html"
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1700000000 $P sweep $HSW -o "$T/hsw.jsonl" --html "$T/sw.html" -- usemem -m 80 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && cmp -s "$T/sw.html" "$T/sw1.html" && [ "$(wc -l <"$T/hsw.jsonl")" -eq 12 ] && ok || bad "rc $rc: $(head -2 "$T/err")"

t "sweep --html: the same page (but its command) with --jobs 1"
# shellcheck disable=SC2086
$P sweep $HSW --jobs 1 --html "$T/sw_j1.html" -- usemem -m 80 >/dev/null 2>&1
grep -v '^pagelab sweep\|<code>' "$T/sw.html" >"$T/a"
grep -v '^pagelab sweep\|<code>' "$T/sw_j1.html" >"$T/b"
[ -s "$T/a" ] && cmp -s "$T/a" "$T/b" && ok || bad "the pages differ"

t "sweep --html --max-time: flags on the cells that stopped"
$P sweep --no-progress --policy clock,lru --ram 64M,96M --swap 128M --max-time 0.3 --html "$T/swm.html" \
	-- usemem -m 80 -r 3 >/dev/null 2>"$T/err"; rc=$?
nsvg=$(hcount '<svg class="plot"' "$T/swm.html")
# 64M stops at 0.3 s for both designs, 96M finishes: 2 flags + the legend's.
[ $rc -eq 3 ] && [ "$nsvg" -gt 0 ] && [ "$(hcount '<path class="mark-maxtime"' "$T/swm.html")" -eq $((3 * nsvg)) ] &&
	[ "$(hcount 'class="mark-oom"' "$T/swm.html")" -eq 0 ] && ok || bad "rc $rc, $(hcount 'mark-maxtime' "$T/swm.html") flags"

t "sweep --html: an unwritable file refused first, exit 2"
$P sweep --no-progress --html "$T/no/such/s.html" -- usemem -m 10 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q "^pagelab: cannot write $T/no/such/s.html: " "$T/err" && ok || bad "rc $rc: $(cat "$T/err")"

# qsbench draws its data from the seed: 2 designs x 5 seeds (0.1 s each).
t "compare --html: table and bars, a '*' per significant change"
$P sweep --no-progress --policy splitlru,mglru --ram 10M --seeds 5 --jobs 2 -o "$T/hcmp.jsonl" \
	-- qsbench -p 2 -m 2 >/dev/null 2>"$T/err"
$P compare --html "$T/cmp.html" "$T/hcmp.jsonl" >"$T/cmp_h.txt" 2>>"$T/err"; rc=$?
$P compare "$T/hcmp.jsonl" >"$T/cmp.txt" 2>&1
nsig=$(grep '^Amean' "$T/cmp.txt" | grep -c '%)\*')
nsvg=$(hcount '<svg class="plot"' "$T/cmp.html")
if [ $rc -eq 0 ] && cmp -s "$T/cmp.txt" "$T/cmp_h.txt" && selfcontained "$T/cmp.html" && [ "$nsig" -gt 0 ] &&
   [ "$nsvg" -eq "$(grep -c '^Amean' "$T/cmp.txt")" ] &&
   [ "$(hcount '<rect class="base"' "$T/cmp.html")" -eq "$nsvg" ] &&
   [ "$(hcount '<rect class="bar"' "$T/cmp.html")" -eq "$nsvg" ] &&
   [ "$(hcount '<rect class="band"' "$T/cmp.html")" -eq "$nsvg" ] &&
   [ "$(hcount '<line class="ci"' "$T/cmp.html")" -eq $((2 * nsvg)) ] &&
   [ "$(hcount '<text class="mark-sig"' "$T/cmp.html")" -eq "$nsig" ] &&
   [ "$(hcount '<span class="sig"' "$T/cmp.html")" -eq $((nsig + 1)) ] &&
   grep -q '<th>splitlru (baseline)</th><th>mglru</th>' "$T/cmp.html"; then
	ok
else
	bad "rc $rc $(cat "$T/err"); $nsvg charts, $nsig significant, $(hcount 'mark-sig' "$T/cmp.html") marks"
fi

t "compare --html: an unwritable file, exit 2"
$P compare --html "$T/no/such/c.html" "$T/hcmp.jsonl" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q "^pagelab: cannot write $T/no/such/c.html: " "$T/err" && ok || bad "rc $rc: $(cat "$T/err")"
