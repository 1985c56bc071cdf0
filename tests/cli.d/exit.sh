# Exit status 3 when a run stopped at --max-time (issue 15), for sweep as
# for run.  A second.

t "sweep: a cell stopped at --max-time exits 3, saying how many"
rm -f "$T/exit.jsonl"
$P sweep --no-progress --policy lru,clock --ram 32M --max-time 0.01 -o "$T/exit.jsonl" -- usemem -m 40 \
	>/dev/null 2>"$T/err"; rc=$?
$P sweep --no-progress --policy lru --ram 32M -- usemem -m 4 >/dev/null 2>&1; rc2=$?
[ $rc -eq 3 ] && [ $rc2 -eq 0 ] && grep -q '^pagelab: 2 of 2 cells stopped at --max-time' "$T/err" &&
	[ "$(grep -c '"timed_out": true' "$T/exit.jsonl")" -eq 2 ] && ok || bad "rc $rc / $rc2: $(head -1 "$T/err")"
