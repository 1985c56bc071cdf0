# pagelab reproduce's printer for experiment files that name none
# (exp_print_generic, src/reproduce/exp_named.c) keeps to 80 columns: a
# workload's command is printed once, wrapped; each time line names only
# its program.

t "reproduce, no printer named: a long command fits 80 columns"
cat >"$T/g.exp" <<'X'
experiment 8 generic-wide
title "a workload with a long command line"
machine ideal
machine-set "ram=4M swap=4M"
design linux6 linux6 modern
design mglru mglru modern
run r "usemem with every option spelled out"
  wl "usemem -n 1 -r 2 -j 4096 -s 0 -a -R -Z 200k"
  wl "usemem -n 1 -r 1 -j 4096 -s 0 -a -R -Z -O 100k"
  repeats 2 2
metric maj r 0 counter:pgmajfault lower "major faults"
compare maj linux6 mglru not-worse 0 0 0 x:1 "no more faults"
X
$P reproduce "$T/g.exp" >"$T/g" 2>&1; rc=$?
w=$(awk 'length > 80 { print NR ": " length }' "$T/g" | head -2)
[ $rc -le 1 ] && [ -z "$w" ] && [ "$(grep -c '^    pagelab   usemem  [0-9.]*s user ' "$T/g")" -eq 8 ] &&
grep -q "^  \$ usemem -n 1 -r 2" "$T/g" && ok || bad "rc $rc: $w: $(head -20 "$T/g")"
