# The threads' CPU claims in reproduce (issue 38, deliverable 6): figures
# from counted work x the era's costs, the 'figure' comparison kind, the
# breakdown under the verdicts.  Sourced by tests/cli.sh.  Cost: two
# usemem runs on a 4 MB P133, well under a second.

cat >"$T/claims.exp" <<'EXP'
experiment 7 cpu-claims
title "CPU claims from counted work"
machine p133-1997
machine-set "ram=4M swap=8M kernel_base=256K"
design A linux22 thread
design B vhand thread
run u "usemem beyond RAM"
  wl "usemem -m 6"
metric share u 0 custom:work_share:aging lower "aging share (%)"
metric sys u 0 custom:work_cpu:task lower "system time (s), counted work"
published B share 10 "10%" n.txt:1
published A sys 1 "1 s" n.txt:2
published B sys 1.1 "1.1 s" n.txt:3
compare share - B figure 3 0 0 n.txt:1 "up to 10%"
compare sys A B ratio 0.25 0.03 0 n.txt:2-3
EXP

t "reproduce: a CPU claim from counted work, its breakdown, 80 columns"
$P reproduce --no-progress "$T/claims.exp" >"$T/claims.txt" 2>"$T/err"; rc=$?
# usemem -m 6 faults 1536 pages: 1536 x 15 us = 0.023 s, 6 MiB cleared;
# the P133's PTE read is this host's 1.0 ns x 2445/133 MHz = 18.4 ns;
# vhand's aging read 836 PTEs (105 lines), 54 present, 138 pages aged.
if [ $rc -eq 0 ] && grep -q '^  \[disagree\]  aging share (%): B$' "$T/claims.txt" &&
   grep -q 'x0\.[0-9]* the thread.s (1 seed): not within x4\.00' "$T/claims.txt" &&
   grep -q '^  \[agree\]     system time (s), counted work: B vs A$' "$T/claims.txt" &&
   grep -qE '^    pgfault +1536 x 15000ns +0\.023s  cost\.fault$' "$T/claims.txt" &&
   grep -qE '^    clear_page_bytes +6291456 x 12ns ' "$T/claims.txt" &&
   grep -qE '^    try_to_swap_out +[0-9]+ x 0ns .* no cost known$' "$T/claims.txt" &&
   grep -q '^  est\.: swap_out_ptes 18\.4 ns: this host.s pte_read 1\.0 ns' "$T/claims.txt" &&
   [ "$(grep -c ', the workload.s system time: ' "$T/claims.txt")" -eq 2 ] &&
   grep -q '^    cache lines these walks read: 297; ' "$T/claims.txt" &&
   grep -q '^  est\.: a cache miss 195 ns: ' "$T/claims.txt" &&
   awk 'length > 80 { bad = 1 } END { exit bad }' "$T/claims.txt"; then
	ok
else
	bad "rc $rc: $(sed -n '/^verdicts/,$p' "$T/claims.txt" | head -12 | tr '\n' ' ') $(cat "$T/err")"
fi

t "reproduce: CPU claims are the same for any --jobs"
$P reproduce --no-progress --jobs 2 --json "$T/claims.exp" >"$T/c2.json" 2>/dev/null
$P reproduce --no-progress --jobs 1 --json "$T/claims.exp" >"$T/c1.json" 2>/dev/null
cmp -s "$T/c1.json" "$T/c2.json" && grep -q '"verdict": "disagree"' "$T/c1.json" && ok || bad "outputs differ"

# --json named a comparison's kind from a table of four: 'figure' read
# past its end.
t "reproduce --json: the figure kind by name, each claim's parts"
if grep -q '"kind": "figure", "tolerance": 3' "$T/c1.json" &&
   grep -q '"cpu_claims": \[' "$T/c1.json" &&
   grep -q '{"op": "pgfault", "count": 1536, "ns_each": 15000, "s": 0.023040000, "source": "cost.fault"}' "$T/c1.json" &&
   grep -q '"source": "this host.s pte_read 1.0 ns (docs/cost.md) x 2445 MHz / 133 MHz, a P133 (thread 003)"' "$T/c1.json"; then
	ok
else
	bad "$(grep -o '"kind": "[^"]*"' "$T/c1.json" | tr '\n' ' ')"
fi

t "reproduce: a figure comparison needs the design's published figure"
sed 's/^published B share .*//' "$T/claims.exp" >"$T/nofig.exp"
$P reproduce --no-progress "$T/nofig.exp" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "figure comparison of 'share' needs a published figure for B" "$T/err" &&
	[ "$(wc -l <"$T/err")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/err")"

t "reproduce: a work metric of an unknown column is n/a, not a crash"
sed 's/work_share:aging/work_share:nobody/' "$T/claims.exp" >"$T/nobody.exp"
$P reproduce --no-progress "$T/nobody.exp" >"$T/nb.txt" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && grep -q '^  \[n/a\]       aging share' "$T/nb.txt" && ok ||
	bad "rc $rc: $(head -3 "$T/err")"

# A claim's figure is the run's time rebuilt from counted work:
# --calibrate fitted it beside the charged time it duplicates.
t "reproduce --calibrate leaves the CPU claims out of the fit"
$P reproduce --calibrate --no-progress "$T/claims.exp" >"$T/cal.txt" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && grep -q '^nothing fitted: the thread gives no figure for the baseline$' "$T/cal.txt" &&
	grep -qE '^    thread 1\.1 +raw 1\.0[0-9]+ +agree' "$T/cal.txt" && ok || bad "rc $rc: $(head -4 "$T/cal.txt")"

t "reproduce --html: the claims' breakdowns folded under the text report"
$P reproduce --no-progress --html "$T/claims.html" "$T/claims.exp" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && grep -q '<details class="output"><summary>CPU from counted work: each CPU claim' "$T/claims.html" &&
	grep -q 'cache lines these walks read: 297; ' "$T/claims.html" && ok || bad "rc $rc: $(cat "$T/err")"
