# The experiment engine: pagelab sweep, merge (and compare, reproduce's
# engine).  Sourced by tests/cli.sh.  Cost: about 100 small qsbench runs
# (10-12 MB machines, ~0.1 s of CPU each), about 10 s of CPU in all.

SW="--no-progress --policy splitlru,workingset,mglru --ram 10M:12M:+1M --seeds 5"
SWL="-- qsbench -p 2 -m 2"

t "sweep: 3 policies x 3 RAM x 5 seeds, --jobs 2, CSV rows"
# shellcheck disable=SC2086
$P sweep $SW --jobs 2 -o "$T/sw_direct.jsonl" --csv $SWL >"$T/sw_full.csv" 2>"$T/err"; rc=$?
rows=$(($(wc -l <"$T/sw_full.csv") - 1))
if [ $rc -eq 0 ] && [ "$rows" -eq 45 ] && head -1 "$T/sw_full.csv" | grep -q '^cell,policy,machine,ram,seed,finished,elapsed_s,.*,kswapd_efficiency,direct_reclaim,scan_velocity,swapin_mbs,swapout_mbs,majflt_per_s$' &&
   [ "$(cut -d, -f4 "$T/sw_full.csv" | sort -u | tr '\n' ' ')" = "10M 11M 12M ram " ]; then ok; else bad "rc $rc, $rows rows: $(head -2 "$T/sw_full.csv")"; fi

t "sweep: 3 shards merged give byte-identical CSV and JSONL"
msg=
for k in 1 2 3; do
	# shellcheck disable=SC2086
	$P sweep $SW --shard $k/3 -o "$T/sw_s$k.jsonl" $SWL 2>"$T/err" || msg="$msg shard $k: $(cat "$T/err");"
done
$P merge "$T/sw_m.jsonl" "$T/sw_s1.jsonl" "$T/sw_s2.jsonl" "$T/sw_s3.jsonl" 2>"$T/err" || msg="$msg merge: $(cat "$T/err");"
# shellcheck disable=SC2086
$P sweep $SW -o "$T/sw_m.jsonl" --csv $SWL >"$T/sw_merged.csv" 2>"$T/err" || msg="$msg resume: $(cat "$T/err");"
cmp -s "$T/sw_full.csv" "$T/sw_merged.csv" || msg="$msg CSV differs;"
cmp -s "$T/sw_direct.jsonl" "$T/sw_m.jsonl" || msg="$msg JSONL differs;"
[ "$(wc -l <"$T/sw_s2.jsonl")" -eq 15 ] || msg="$msg shard 2 has $(wc -l <"$T/sw_s2.jsonl") cells;"
[ -z "$msg" ] && ok || bad "$msg"

t "sweep: a rerun skips done cells and redoes a cut line"
head -c "$(($(head -3 "$T/sw_s1.jsonl" | wc -c) + 40))" "$T/sw_s1.jsonl" >"$T/sw_part.jsonl"
# shellcheck disable=SC2086
$P sweep $SW --jobs 3 --shard 1/3 --progress -o "$T/sw_part.jsonl" $SWL >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '15 cells in this shard, 12 to run, the others already in' "$T/err" &&
   cmp -s "$T/sw_part.jsonl" "$T/sw_s1.jsonl" && grep -q 'runs done' "$T/err"; then ok; else bad "rc $rc: $(head -2 "$T/err")"; fi

t "sweep: a cell's figures are those of its pagelab run line"
line=$(sed -n 38p "$T/sw_direct.jsonl")
cmd=$(printf '%s\n' "$line" | sed 's/.*"cmd": "pagelab \([^"]*\)".*/\1/')
# shellcheck disable=SC2086
$P $cmd >"$T/out" 2>&1
msg=
for c in pswpin pswpout pgscan_kswapd pgscan_direct pgsteal_kswapd pgmajfault; do
	want=$(counter $c "$T/out")
	printf '%s\n' "$line" | grep -q "\"$c\": $want[,}]" || msg="$msg $c (run: $want);"
done
[ -n "$cmd" ] && [ -z "$msg" ] && ok || bad "$cmd:$msg"

t "sweep: ranges, lists and --set axes expand as documented"
out=$($P sweep --list --policy splitlru,mglru --ram 256M:1G:x2 --set swappiness=0:100:+50 --seed 3,7 -- usemem -m 1 2>&1)
n=$(printf '%s\n' "$out" | wc -l)
if [ "$n" -eq 36 ] && printf '%s\n' "$out" | head -1 | grep -qx 'pagelab run --machine vmm-2008 --ram 256M --policy splitlru --set swappiness=0 --seed 3 usemem -m 1' &&
   printf '%s\n' "$out" | tail -1 | grep -qx 'pagelab run --machine vmm-2008 --ram 1G --policy mglru --set swappiness=100 --seed 7 usemem -m 1'; then ok; else bad "$n lines: $(printf '%s\n' "$out" | head -2)"; fi

t "sweep/merge: bad input exits 2 with one line"
msg=
for args in "--ram 1G:256M:x2 -- usemem -m 1" "--ram 256M:1G:x1 -- usemem -m 1" "--policy nosuch -- usemem -m 1" \
	"--set nosuchparam=1,2 -- usemem -m 1" "--shard 4/3 -- usemem -m 1" "--seeds 0 -- usemem -m 1" \
	"--ram 64M" "-- nosuchworkload" "-- usemem -t 2" "--policy clock --set swappiness=5 -- usemem -m 1"; do
	# shellcheck disable=SC2086
	$P sweep --no-progress $args >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg sweep $args: rc $rc;"
done
printf '{"cell": 0}\n' >"$T/bad.jsonl"
$P merge "$T/o.jsonl" "$T/bad.jsonl" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'bad.jsonl:1: ' "$T/err" || msg="$msg merge bad file: rc $rc;"
$P merge "$T/o.jsonl" >/dev/null 2>&1; [ $? -eq 2 ] || msg="$msg merge without IN;"
[ -z "$msg" ] && ok || bad "$msg"

t "sweep and merge --help"
$P sweep --help | grep -q '^usage: pagelab sweep' && $P merge --help | grep -q '^usage: pagelab merge' && ok || bad "no usage"

# docs/sweeps.md's examples, with a small sweep: the GNU parallel block and
# the sbatch script (its tasks run by hand), each merged and printed as
# CSV, must equal the unsharded sweep's CSV.
docs=$(dirname "$0")/../docs/sweeps.md
small='SWEEP="--policy splitlru,mglru --ram 10M,12M --seeds 2 -- qsbench -p 2 -m 2"'
example() { sed -n "/^<!-- $1 -->/,/^<!-- \/$1 -->/p" "$docs" | sed '1,2d;$d' | sed '$d' | sed "s/^SWEEP=.*/$small/"; }
bindir=$(cd "$(dirname "$P")" && pwd)
ln -sf "$bindir/$(basename "$P")" "$T/pagelab"
eval "$small"
# shellcheck disable=SC2086
PATH="$T:$PATH" pagelab sweep --no-progress --csv $SWEEP >"$T/ex_want.csv" 2>/dev/null

t "docs/sweeps.md: the GNU parallel example"
if ! command -v parallel >/dev/null 2>&1; then
	skip "no GNU parallel (Debian's parallel; .ci/run installs it)"
else
	mkdir -p "$T/par" && example parallel-example >"$T/par/run.sh"
	(cd "$T/par" && PATH="$T:$PATH" sh ./run.sh >/dev/null 2>"$T/par/err"); rc=$?
	[ $rc -eq 0 ] && [ -s "$T/par/results.csv" ] && cmp -s "$T/par/results.csv" "$T/ex_want.csv" && ok ||
		bad "rc $rc: $(head -2 "$T/par/err")"
fi

t "docs/sweeps.md: the sbatch array script, tasks 1..4"
mkdir -p "$T/sb" && example sbatch-example >"$T/sb/sweep.sbatch"
msg=
for k in 1 2 3 4; do
	(cd "$T/sb" && SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=4 PATH="$T:$PATH" sh ./sweep.sbatch) 2>"$T/sb/err" || msg="$msg task $k: $(head -1 "$T/sb/err");"
done
# shellcheck disable=SC2086
(cd "$T/sb" && PATH="$T:$PATH" pagelab merge results.jsonl shard*.jsonl 2>/dev/null &&
	PATH="$T:$PATH" pagelab sweep --no-progress -o results.jsonl --csv $SWEEP >results.csv) || msg="$msg merge/csv failed;"
cmp -s "$T/sb/results.csv" "$T/ex_want.csv" || msg="$msg CSV differs;"
[ -z "$msg" ] && ok || bad "$msg"

t "compare: % change and significance over 5 seeds, in 80 columns"
$P compare --baseline workingset "$T/sw_direct.jsonl" >"$T/cmp.txt" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^config: --machine vmm-2008 --ram 1[0-2]M qsbench -p 2 -m 2$' "$T/cmp.txt")" -eq 3 ] &&
   grep -q '^ *workingset *splitlru *mglru$' "$T/cmp.txt" &&
   grep -Eq '^Amean elapsed_s +[0-9.]+ +[0-9.]+ \( *[-+][0-9.]+%\)[* ] +[0-9.]+ \( *[-+][0-9.]+%\)[* ]?$' "$T/cmp.txt" &&
   grep -q '^Stddev pswpout ' "$T/cmp.txt" && grep -q ')\*' "$T/cmp.txt" &&
   [ "$(awk 'length > 80' "$T/cmp.txt" | wc -l)" -eq 0 ]; then ok; else bad "rc $rc: $(head -8 "$T/cmp.txt")"; fi

t "compare --json: means, stddevs and p-values per design"
$P compare --json --metric elapsed_s,pswpout "$T/sw_direct.jsonl" >"$T/cmp.json" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '"baseline": "splitlru"' "$T/cmp.json" &&
   grep -Eq '"design": "mglru", "n": 5, "mean": [0-9.e+-]+, "stddev": [0-9.e+-]+, "change_pct": [-0-9.e+]+, "test": "welch", "p": [0-9.e+-]+, "significant": (true|false)' "$T/cmp.json" &&
   [ "$(grep -c '"metric": ' "$T/cmp.json")" -eq 6 ]; then ok; else bad "rc $rc: $(head -c 300 "$T/cmp.json")"; fi

t "compare: bad input exits 2 with one line"
msg=
for args in "" "--baseline nosuch $T/sw_direct.jsonl" "--metric nosuch $T/sw_direct.jsonl" "$T/nosuch.jsonl" \
	"$T/bad.jsonl" "--frobnicate $T/sw_direct.jsonl"; do
	# shellcheck disable=SC2086
	$P compare $args >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg compare $args: rc $rc;"
done
$P compare --help | grep -q '^usage: pagelab compare' || msg="$msg no --help;"
[ -z "$msg" ] && ok || bad "$msg"

t "reproduce: the five experiments load from experiments/*.exp"
msg=
for n in 1 2 3 4 5; do
	f=$(ls "$(dirname "$0")"/../experiments/$n-*.exp 2>/dev/null)
	# the file less its comments is what pagelab parsed from it
	$P reproduce --print-file $n 2>"$T/err" | grep -v '^#' >"$T/exp$n" && [ -n "$f" ] &&
		grep -v '^#' "$f" | cmp -s "$T/exp$n" - ||
		msg="$msg $n: $(head -1 "$T/err") $(diff "$T/exp$n" "$f" 2>&1 | head -2);"
done
[ -z "$msg" ] && ok || bad "$msg"

t "reproduce FILE: two designs, one run, one published figure"
cat >"$T/my.exp" <<'EXP'
# Two names for the same design: pagelab must call it a tie.
experiment 7 my-question
title "Does fifo swap out as much as fifo?"
machine vmm-2008
machine-set "ram=24M swap=32M kernel_base=1M"
design A fifo thread
design B fifo thread
run u "usemem beyond RAM"
  wl "usemem -m 30"
  repeats 3 3
metric so u 0 counter:pswpout lower "pages swapped out"
published A so 100 "100 pages" notes.txt:1
published B so 102 "102 pages" notes.txt:2
compare so A B ratio 0.25 0.03 0 notes.txt:1-2
EXP
$P reproduce --no-progress "$T/my.exp" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^== Experiment 7: Does fifo swap out as much as fifo? ==$' "$T/out" &&
   grep -q '^  \[agree\]     pages swapped out: B vs A$' "$T/out" &&
   # a verdict wrapped to 80 columns continues at column 22: join it
   awk '/^                      [^ ]/ { sub(/^ +/, ""); line = line " " $0; next }
        { if (NR > 1) print line; line = $0 } END { print line }' "$T/out" |
   grep -Eq '^ +pagelab [0-9]+ / [0-9]+ = 1 \(95%: 1-1, 3 seeds\): a tie, ratio within x1.25$'; then ok; else bad "rc $rc: $(cat "$T/err") $(grep -A3 agree "$T/out")"; fi

t "reproduce FILE: a bad file is one line and exit 2"
msg=
for bad in 'experiment 7 x\ntitle t\nmachine nosuchbox\n' 'experiment 7 x\ntitle "t\n' \
	'experiment 7 x\ntitle t\nmachine vmm-2008\ndesign A fifo thread\nrun u t\n  wl "usemem -m {Q:1}"\n' \
	'experiment 7 x\ntitle t\nmachine vmm-2008\ndesign A fifo thread\nrun u t\n  wl "usemem -m 1"\nmetric m u 0 custom:nosuchfn lower "m"\n' \
	'experiment 7 x\ntitle t\nmachine vmm-2008\ndesign A fifo thread\nrun u t\n  wl "usemem -m 1"\nmetric m u 0 elapsed lower "m"\ncompare m A B ratio 0.1 0.1 0 s:1\n'; do
	printf "$bad" >"$T/bad.exp"
	$P reproduce --no-progress "$T/bad.exp" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "bad.exp:[0-9]*: " "$T/err" ||
		msg="$msg rc $rc: $(head -1 "$T/err");"
done
$P reproduce --no-progress "$T/nosuch.exp" >/dev/null 2>&1; [ $? -eq 2 ] || msg="$msg missing file;"
[ -z "$msg" ] && ok || bad "$msg"
