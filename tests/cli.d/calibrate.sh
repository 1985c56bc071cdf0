# reproduce --calibrate (issue 14): the fit of the unknown machine
# parameters to the baseline's published figures.  Sourced by tests/cli.sh.
# Cost: three fits of 46 usemem runs on a 24 MB machine, ~1 s of CPU.

cat >"$T/calib.exp" <<'EXP'
experiment 9 calib-cli
title "calibration check"
machine vmm-2008
machine-set "ram=24M swap=64M"
design base linux26 thread
design other splitlru thread
run u "usemem beyond RAM"
  wl "usemem -m 30"
metric el u 0 elapsed lower "usemem elapsed (s)"
metric sy u 0 sys lower "usemem system time (s)"
published base el 3.0 "x" t.txt:1
published base sy 0.2 "x" t.txt:1
published other el 4.0 "x" t.txt:2
published other sy 0.3 "x" t.txt:2
compare el base other ratio 0.25 0.03 0 t.txt:1-2
compare sy base other ratio 0.25 0.03 0 t.txt:1-2
EXP

t "reproduce --calibrate FILE: the fit, both verdicts, 80 columns"
$P reproduce --calibrate --full --jobs 1 "$T/calib.exp" >"$T/calib.txt" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^baseline base \[linux26\]: 2 published figures, 46 runs of it$' "$T/calib.txt" &&
   [ "$(grep -cE '^  (cost\.fault|cost\.zero_page|disk\.bandwidth|disk\.seek|kernel_base) ' "$T/calib.txt")" -eq 5 ] &&
   grep -qE '^    thread 1\.33 +raw [0-9.]+ +(agree|disagree) +calibrated [0-9.]+ +(agree|disagree)' "$T/calib.txt" &&
   grep -q '^summary: 1 experiment; ' "$T/calib.txt" &&
   awk 'length > 80 { bad = 1 } END { exit bad }' "$T/calib.txt"
then ok; else bad "rc $rc: $(head -3 "$T/calib.txt") $(cat "$T/err")"; fi

t "--calibrate --json: other design's figures leave the fit"
$P reproduce --calibrate --full --jobs 2 --json "$T/calib.exp" >"$T/calib1.json" 2>"$T/err"; rc1=$?
sed -e 's/^published other el 4.0/published other el 40.0/' -e 's/^published other sy 0.3/published other sy 9/' \
	"$T/calib.exp" >"$T/calib2.exp"
$P reproduce --calibrate --full --jobs 1 --json "$T/calib2.exp" >"$T/calib2.json" 2>>"$T/err"; rc2=$?
p1=$(grep -o '"params": \[[^]]*\]' "$T/calib1.json")
p2=$(grep -o '"params": \[[^]]*\]' "$T/calib2.json")
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ -n "$p1" ] && [ "$p1" = "$p2" ] &&
   grep -q '"evaluations": 46' "$T/calib1.json" && grep -q '"baseline": "base"' "$T/calib1.json" &&
   grep -q '"thread_ratio": 13.3333,' "$T/calib2.json" && grep -q '"calibrated_verdict": ' "$T/calib1.json"
then ok; else bad "rc $rc1/$rc2: $p1 / $p2 $(cat "$T/err")"; fi

t "reproduce --calibrate --html: refused with one line, exit 2"
$P reproduce --calibrate --html "$T/c.html" "$T/calib.exp" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -e "$T/c.html" ] && ok ||
	bad "rc $rc: $(cat "$T/err")"

t "machines --show: the parameters --calibrate may fit"
$P machines --show vmm-2008 >"$T/out" 2>&1
grep -q '^# unknown (reproduce --calibrate fits them): cost.fault cost.zero_page' "$T/out" && ok || bad "$(head -5 "$T/out")"

# docs/reproduce.md, "Why each disagreement": experiment 1's OOM kills
# under workingset happen with the swap area full (what a 6.x kernel
# does: no swap slot, no file pages left), and 80 MB of swap avoids them.
# Cost: two simulated kernel builds, ~2 s of CPU.
t "exp 1 OOM: workingset kills with swap full, none with 80M"
$P run --no-progress --machine p133-1997 --policy workingset --vmstat 1 kbuild -j 10 >"$T/kb64" 2>&1
$P run --no-progress --machine p133-1997 --swap 80M --policy workingset kbuild -j 10 >"$T/kb80" 2>&1
k64=$(counter oom_kill "$T/kb64"); k80=$(counter oom_kill "$T/kb80")
# Swap full at the kill: the last vmstat line before it, with the second
# of swap-outs (so) that followed it, reaches all 64 MiB (the kill may
# come between two samples).
full=$(awk 'NF == 16 && $3 ~ /^[0-9]+$/ { last = $3 + $8 } /Out of memory: Killed/ { print last + 0; exit }' "$T/kb64")
[ "$k64" -ge 1 ] && [ "${full:-0}" -ge 65536 ] && [ "$k80" -eq 0 ] && grep -q 'Out of memory: Killed process' "$T/kb64" &&
	ok || bad "oom_kill $k64 (swpd + so before the kill $full kB) / $k80"
