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
   [ "$(hcount '<svg class="plot"' "$T/run.html")" -eq 5 ] &&
   [ "$(hcount '<polyline class="series"' "$T/run.html")" -eq 10 ] &&
   [ "$(hcount '<path class="mark-oom"' "$T/run.html")" -eq 10 ] &&
   [ "$(hcount '<line class="mark-line"' "$T/run.html")" -eq 5 ] &&
   [ "$(hcount 'class="mark-maxtime"' "$T/run.html")" -eq 0 ] &&
   [ "$(hcount '<g class="legend-entry"' "$T/run.html")" -eq 15 ] &&
   grep -q '<title>usemem -m 120 OOM-killed at 0\.' "$T/run.html" &&
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
if [ $rc -eq 3 ] && [ "$(hcount '<path class="mark-maxtime"' "$T/mt.html")" -eq 10 ] &&
   [ "$(hcount 'class="mark-oom"' "$T/mt.html")" -eq 0 ] && grep -q 'did not finish (--max-time)' "$T/mt.html"; then
	ok
else
	bad "rc $rc, $(hcount 'mark-maxtime' "$T/mt.html") flags"
fi

t "run --html --vmstat: the vmstat lines printed and drawn"
$P run --ram 64M --swap 128M --vmstat 0.1 --html "$T/vm.html" usemem -m 80 >"$T/out" 2>"$T/err"; rc=$?
n=$(grep -c '^ *[0-9]* *[0-9]* *[0-9]* *[0-9]* *0 *[0-9]*  *[0-9]' "$T/out")
if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && grep -q "^ r  b   swpd" "$T/out" && grep -q "vmstat every 0.1 s of simulated time, $n samples" "$T/vm.html"; then
	ok
else
	bad "rc $rc, $n lines: $(grep vmstat "$T/vm.html" | head -2)"
fi

t "run --html: an unwritable file refused before the run, exit 2"
$P run --html "$T/no/such/r.html" usemem -m 10 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -q "^pagelab: cannot write $T/no/such/r.html: " "$T/err" && ok || bad "rc $rc: $(cat "$T/err")"
