# reproduce's quick and full modes, and the inode indexes that made full
# mode finish (src/mm/inode_index.c).  Sourced by tests/cli.sh.
# Cost: a 2 s simulated dbench under --check (~0.5 s of CPU).

t "dbench --check: inode hash and dirty list match the inodes"
$P run --check --machine athlon-2001 --ram 12M --swap 16M --policy aa24 --max-time 2 dbench 2 >"$T/qf_db" 2>"$T/qf_err"; rc=$?
if [ $rc -eq 3 ] && ! grep -q '^check:' "$T/qf_err" && [ "$(counter pgpgout "$T/qf_db")" -gt 0 ] &&
   [ "$(counter dirty_throttle "$T/qf_db")" -gt 0 ]; then ok; else bad "rc $rc: $(grep -m2 . "$T/qf_err")"; fi

# An experiment file of our own (docs/experiments.md) whose runs are cut
# short: usemem beyond RAM + swap is OOM-killed in both designs; with more
# swap and --max-time 0.1 both are stopped.  Cost: 4 runs of ~0.05 s.
cat >"$T/qf_oom.exp" <<'EXP'
experiment 7 oom-check
title "usemem beyond RAM and swap"
machine vmm-2008
machine-set "ram=24M swap=8M kernel_base=1M"
design A fifo thread
design B clock thread
run u "usemem -m 40"
  wl "usemem -m 40"
  repeats 1 1
  max-time 600 unscaled
metric so u 0 counter:pswpout lower "pages swapped out"
published A so 100 "100 pages" notes.txt:1
published B so 102 "102 pages" notes.txt:2
compare so A B ratio 0.25 0.03 0 notes.txt:1-2
EXP

t "reproduce: OOM kills marked in the table, verdict and summary"
$P reproduce --no-progress "$T/qf_oom.exp" >"$T/qf_out" 2>"$T/qf_err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^cut short: killed by OOM: A, u (1 of 1 runs)$' "$T/qf_out" &&
   grep -q '^    pagelab   zsh: killed     usemem -m 40$' "$T/qf_out" &&
   grep -q '^              killed by OOM: A (1 of 1 runs), B (1 of 1 runs)$' "$T/qf_out" &&
   grep -q '^runs cut short: 2 killed by OOM, 0 stopped at the time limit$' "$T/qf_out" &&
   grep -q '"runs_oom_killed": 2' <<EOF2
$($P reproduce --no-progress --json "$T/qf_oom.exp" 2>/dev/null)
EOF2
then ok; else bad "rc $rc: $(grep -m3 'cut short\|killed' "$T/qf_out")"; fi

t "reproduce --max-time: runs marked stopped, exit status 3"
sed 's/swap=8M/swap=32M/' "$T/qf_oom.exp" >"$T/qf_to.exp"
$P reproduce --no-progress --max-time 0.1 "$T/qf_to.exp" >"$T/qf_out" 2>"$T/qf_err"; rc=$?
if [ $rc -eq 3 ] && grep -q '(stopped at the time limit)$' "$T/qf_out" &&
   grep -q '^cut short: stopped at the time limit: B, u (1 of 1 runs)$' "$T/qf_out" &&
   grep -q '^runs cut short: 0 killed by OOM, 2 stopped at the time limit$' "$T/qf_out" &&
   grep -q 'stopped at the simulated time limit' "$T/qf_err"; then ok; else bad "rc $rc: $(head -3 "$T/qf_err")"; fi

t "reproduce --max-time: bad values exit 2 with one line"
$P reproduce --max-time 0 >"$T/qf_out" 2>"$T/qf_err"; rc=$?
if [ $rc -eq 2 ] && [ ! -s "$T/qf_out" ] && [ "$(wc -l <"$T/qf_err")" -eq 1 ]; then ok; else bad "rc $rc"; fi

# Experiment 3 (the cheapest that scales: x1/16 in quick mode) gives the
# same verdict quick and full, and quick mode swaps as the thread did: the
# settle second before mtest01 scales with the machine, so aa24 enters it
# without a swap area already written ahead.  Cost: ~15 s of CPU (--full).
t "reproduce: exp 3 quick and full verdicts match; quick swaps"
$P reproduce --no-progress --only 3 >"$T/qf_q" 2>/dev/null; rq=$?
$P reproduce --no-progress --only 3 --full >"$T/qf_f" 2>/dev/null; rf=$?
grep '^  \[' "$T/qf_q" >"$T/qf_qv"; grep '^  \[' "$T/qf_f" >"$T/qf_fv"
# aa24's own vmstat excerpt is the last one under its label
so=$(awk '/^2.4.14pre3aa3 /{a=1; next} a && $1 == "pagelab" && $2 == "mean" {v=$4; a=0} END {print v}' "$T/qf_q")
if [ $rq -eq 0 ] && [ $rf -eq 0 ] && [ -s "$T/qf_qv" ] && cmp -s "$T/qf_qv" "$T/qf_fv" &&
   [ "${so:-0}" -gt 1000 ]; then ok; else bad "rc $rq/$rf, aa24 si+so '$so': $(diff "$T/qf_qv" "$T/qf_fv" | head -2)"; fi

# quick-note: a comparison's note says why quick mode cannot give --full's
# verdict; printed under the verdict in quick mode only, kept by
# --print-file's format, refused before any compare.  Cost: 4 runs of
# ~0.05 s.
sed 's/swap=8M/swap=32M/' "$T/qf_oom.exp" >"$T/qf_qn.exp"
printf '  quick-note "the scaled machine: a reason"\n' >>"$T/qf_qn.exp"
t "reproduce: quick-note printed in quick mode, not with --full"
$P reproduce --no-progress "$T/qf_qn.exp" >"$T/qf_out" 2>"$T/qf_err"; rq=$?
$P reproduce --no-progress --full "$T/qf_qn.exp" >"$T/qf_fout" 2>/dev/null; rf=$?
jq=$($P reproduce --no-progress --json "$T/qf_qn.exp" 2>/dev/null)
if [ $rq -eq 0 ] && [ $rf -eq 0 ] && grep -q '^              quick mode: the scaled machine: a reason$' "$T/qf_out" &&
   ! grep -q 'quick mode: the scaled' "$T/qf_fout" &&
   printf '%s' "$jq" | grep -q '"quick_note": "the scaled machine: a reason"'; then ok; else bad "rc $rq/$rf: $(grep -m1 'quick mode' "$T/qf_out")"; fi

t "experiment file: quick-note before any compare exits 2"
printf 'quick-note "orphan"\n' | cat - "$T/qf_qn.exp" >"$T/qf_bad.exp"
$P reproduce --no-progress "$T/qf_bad.exp" >"$T/qf_out" 2>"$T/qf_err"; rb=$?
if [ $rb -eq 2 ] && [ ! -s "$T/qf_out" ] && [ "$(wc -l <"$T/qf_err")" -eq 1 ] &&
   grep -q 'quick-note before any compare' "$T/qf_err"; then ok; else bad "rc $rb: $(head -1 "$T/qf_err")"; fi
