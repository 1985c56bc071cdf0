# pagelab ablate's (and compare's) workload throughput and latency
# (issue 41, deliverable 3): the figures of merit a workload prints (fio's
# IOPS and clat percentiles, memtier's ops/sec and p99), carried by the
# records and compared per variant, each saying which way is better; and
# a short option joined to its value (-j2).  Sourced by tests/cli.sh (P,
# T, t, ok, bad).  Cost: about 3 s.

MACH="--ram 24M --swap 64M"
FIO="fio --name=r --rw=randread --bs=4k --size=16M --loops=2"
MT="memtier -t 1 -c 2 -n 300 --key-maximum=20000 --ratio=1:4 --preload"

# figs FILE: the first "figures" object of FILE (a record or run --json)
figs() { grep -o '"figures": {[^}]*}' "$1" | head -1; }
# fmt V: V as the ablate and compare tables print a mean (compare_fmt_value)
fmt() { awk -v v="$1" 'BEGIN { a = v < 0 ? -v : v; printf(a >= 1e7 ? "%.4g\n" : a >= 1000 ? "%.1f\n" : "%.4f\n", v) }'; }

t "ablate -j2, sweep -oFILE: a short option joined to its value"
$P ablate -j2 --policy mglru --seeds 1 --off bloom --list -- usemem -m 8 >"$T/j" 2>"$T/j.err"; rc=$?
$P sweep -j2 -o"$T/s.jsonl" --policy lru --list -- usemem -m 8 >"$T/sw" 2>>"$T/j.err"; rc2=$?
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -s "$T/j.err" ] && [ "$(wc -l <"$T/j")" -eq 2 ] && [ -s "$T/sw" ]
then ok; else bad "rc $rc $rc2: $(head -c 200 "$T/j.err")"; fi

t "ablate -j0: the joined value is checked: one line, exit 2"
$P ablate -j0 --policy mglru -- usemem -m 8 >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$T/e")" = "pagelab: ablate: bad --jobs '0' (1..256)" ] && [ ! -s "$T/o" ] && ok ||
	bad "rc $rc: $(cat "$T/e")"

t "ablate fio: IOPS and clat rows, which way is better"
$P ablate --policy mglru --off walk_mmu --seeds 2 $MACH -o "$T/fio.jsonl" -- $FIO >"$T/fio" 2>"$T/fio.err"; rc=$?
sed -n '/^read_iops (higher is better)$/,/^$/p' "$T/fio" >"$T/iops"
if [ $rc -eq 0 ] && [ ! -s "$T/fio.err" ] && [ "$(wc -l <"$T/iops")" -eq 5 ] &&
	grep -qx 'read_clat_p50_us (lower is better)' "$T/fio" && grep -qx 'read_clat_p99_us (lower is better)' "$T/fio" &&
	[ "$(grep -n '^read_iops ' "$T/fio" | cut -d: -f1)" -gt "$(grep -n '^elapsed_s ' "$T/fio" | cut -d: -f1)" ] &&
	[ "$(grep -n '^read_iops ' "$T/fio" | cut -d: -f1)" -lt "$(grep -n '^pgscan ' "$T/fio" | cut -d: -f1)" ] &&
	! awk 'length > 80' "$T/fio" | grep -q .
then ok; else bad "rc $rc: $(cat "$T/fio.err") $(cat "$T/iops")"; fi

t "ablate fio: records = pagelab run --json, rows their mean"
cmd=$(grep '"seed": 2' "$T/fio.jsonl" | grep -o '"cmd": "[^"]*walk_mmu=0[^"]*"' | head -1)
want="\"cmd\": \"pagelab run --machine vmm-2008 --ram 24M --swap 64M --policy mglru --set walk_mmu=0 --seed 2 $FIO\""
$P run $MACH --policy mglru --set walk_mmu=0 --seed 2 --json $FIO >"$T/run.json" 2>&1
grep '"seed": 2' "$T/fio.jsonl" | grep 'walk_mmu=0' >"$T/rec2"
grep '"seed": 1' "$T/fio.jsonl" | grep 'walk_mmu=0' >"$T/rec1"
v1=$(figs "$T/rec1" | sed 's/.*"read_iops": \([^,}]*\).*/\1/')
v2=$(figs "$T/rec2" | sed 's/.*"read_iops": \([^,}]*\).*/\1/')
mean=$(fmt "$(awk -v a="$v1" -v b="$v2" 'BEGIN { printf("%.17g", (a + b) / 2) }')")
row=$(awk '$1 == "walk_mmu=0" { print $2 }' "$T/iops")
if [ "$cmd" = "$want" ] && [ -n "$(figs "$T/rec2")" ] && [ "$(figs "$T/rec2")" = "$(figs "$T/run.json")" ] &&
	[ -n "$v1" ] && [ "$row" = "$mean" ]
then ok; else bad "cmd '$cmd'; record $(figs "$T/rec2"), run $(figs "$T/run.json"); row $row mean $mean"; fi

t "ablate memtier: ops_s, p99_ms = pagelab run's ALL STATS"
$P ablate --policy linux6 --off two_touch --seeds 2 $MACH -o "$T/mt.jsonl" --html "$T/mt.html" -- $MT >"$T/mt" 2>"$T/mt.err"; rc=$?
$P run $MACH --policy linux6 --seed 1 $MT >"$T/mtrun" 2>&1
grep '"seed": 1' "$T/mt.jsonl" | grep -v two_touch >"$T/mrec"
ops=$(figs "$T/mrec" | sed 's/.*"ops_s": \([^,}]*\).*/\1/')
p99=$(figs "$T/mrec" | sed 's/.*"p99_ms": \([^,}]*\).*/\1/')
tot=$(awk '$1 == "Totals" && NF == 6 { print $2 }' "$T/mtrun")
tp99=$(awk '$1 == "Totals" && NF == 4 { print $3 }' "$T/mtrun")
if [ $rc -eq 0 ] && grep -qx 'ops_s (higher is better)' "$T/mt" && grep -qx 'p99_ms (lower is better)' "$T/mt" &&
	grep -qx 'latency_ms (lower is better)' "$T/mt" && [ -n "$tot" ] && grep -q 'p99_ms (lower is better)' "$T/mt.html" &&
	[ "$(awk -v v="$ops" 'BEGIN { printf("%.2f", v) }')" = "$tot" ] &&
	[ "$(awk -v v="$p99" 'BEGIN { printf("%.5f", v) }')" = "$tp99" ]
then ok; else bad "rc $rc: ops $ops / $tot, p99 $p99 / $tp99; $(cat "$T/mt.err")"; fi

t "ablate --json, compare: \"better\"; usemem has none"
$P ablate --policy linux6 --off two_touch --seeds 2 $MACH --json -- $MT >"$T/mt.json" 2>&1
$P compare "$T/mt.jsonl" >"$T/cmp" 2>&1
$P ablate --policy linux6 --off two_touch --seeds 1 $MACH -- usemem -m 8 >"$T/um" 2>&1
if grep -q '{"metric": "ops_s", "better": "higher", "designs": \[{"design": "linux6", "n": 2, "mean": ' "$T/mt.json" &&
	grep -q '{"metric": "p99_ms", "better": "lower", "designs": ' "$T/mt.json" &&
	grep -q '{"metric": "pgscan", "designs": ' "$T/mt.json" &&
	grep -qx 'ops_s (higher is better)' "$T/cmp" && grep -qx 'p99_ms (lower is better)' "$T/cmp" &&
	grep -q '^elapsed_s ' "$T/um" && ! grep -q 'is better' "$T/um"
then
	if have python3; then python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/mt.json" && ok || bad "not JSON"
	else ok; fi
else bad "$(grep -o '"metric": "ops_s[^[]*' "$T/mt.json") $(head -c 300 "$T/cmp")"; fi

t "ablate applaunch + fio: NAME.K rows, = pagelab run's lines"
AL="applaunch -n 3 -a 4 -f 2 -l 2 -s 4 -t 10 + fio --name=r --rw=randread --bs=4k --size=8M"
$P ablate --policy mglru --off bloom --seeds 2 $MACH -o "$T/al.jsonl" -- $AL >"$T/al" 2>&1; rc=$?
$P run $MACH --policy mglru --seed 1 $AL >"$T/alrun" 2>&1
grep '"seed": 1' "$T/al.jsonl" | grep -v bloom >"$T/arec"
got=$(figs "$T/arec" | awk -F'[:,}]' '{ printf("%.3f %.3f %.3f", $3, $5, $7) }')
want=$(awk '$1 == "launch" && $2 == "time" { l = $5 } $1 == "switch" && $2 == "time" { s = $5 " " $9 }
	END { print l, s }' "$T/alrun")
if [ $rc -eq 0 ] && grep -qx 'switch_p99_ms.0 (lower is better)' "$T/al" && grep -qx 'read_iops.1 (higher is better)' "$T/al" &&
	! grep -q '^switch_p99_ms (' "$T/al" && [ -n "$want" ] && [ "$got" = "$want" ] &&
	grep -q '"figures": {"launch_p50_ms": [0-9.]*, "switch_p50_ms": [0-9.]*, "switch_p99_ms": [0-9.]*}' "$T/arec"
then ok; else bad "rc $rc: record $got, run $want; $(grep 'is better' "$T/al" | tr '\n' ' ')"; fi

t "ablate dd + dbench: mb_s.0, mb_s.1 = their rate lines"
DB="dd if=/dev/sda of=/dev/null bs=1M count=16 + dbench 1"
$P ablate --policy mglru --off bloom --seeds 1 $MACH -o "$T/db.jsonl" -- $DB >"$T/db" 2>&1; rc=$?
$P run $MACH --policy mglru --seed 1 $DB >"$T/dbrun" 2>&1
grep -v bloom "$T/db.jsonl" | grep -o '"figures": {[^}]*}' | sed 's/.*: \([0-9.e+-]*\)}$/\1/' >"$T/dbv"
dd=$(sed -n 1p "$T/dbv") db=$(sed -n 2p "$T/dbv")
# dd prints the rate as "1.2 MB/s" (one decimal from 1 to 10 MB/s)
ddl=$(awk '$1 == 16777216 && $9 == "MB/s" { print $8 }' "$T/dbrun")
dbl=$(awk '$1 == "Throughput" { print $2 }' "$T/dbrun")
if [ $rc -eq 0 ] && grep -qx 'mb_s.0 (higher is better)' "$T/db" && grep -qx 'mb_s.1 (higher is better)' "$T/db" &&
	[ "$(wc -l <"$T/dbv")" -eq 2 ] && [ "$(awk -v v="$db" 'BEGIN { printf("%g", v) }')" = "$dbl" ] &&
	[ -n "$ddl" ] && [ "$(awk -v v="$dd" 'BEGIN { printf("%.1f", v) }')" = "$ddl" ]
then ok; else bad "rc $rc: dd $dd ($ddl), dbench $db / $dbl"; fi

# On the host kernel (only when asked: tests/kernel_lib.sh).
. "$(dirname "$0")/kernel_lib.sh"

t "kernel: a kernel record has the figures, compare shows them"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	$P sweep --executor kernel --memcg 64M --swap 64M -o "$T/k.jsonl" -- fio --name=r --rw=randread --bs=4k \
		--size=8M + memtier -t 1 -c 2 -n 200 >"$T/k.out" 2>"$T/k.err"
	rc=$?
	n=$(grep -c '"figures": {"read_iops": [0-9.e+]*, "read_clat_p50_us": [0-9.e+]*, "read_clat_p99_us": [0-9.e+]*}, "better": {"read_iops": "higher"' "$T/k.jsonl")
	m=$(grep -c '"figures": {"ops_s": [0-9.e+]*, "latency_ms": [0-9.e+-]*, "p99_ms": [0-9.e+-]*}' "$T/k.jsonl")
	$P compare "$T/k.jsonl" >"$T/k.cmp" 2>&1
	[ $rc -eq 0 ] && [ "$n" = 1 ] && [ "$m" = 1 ] && grep -qx 'read_iops.0 (higher is better)' "$T/k.cmp" && ok ||
		bad "rc $rc: $n $m $(kernel_err "$T/k.err") $(head -c 300 "$T/k.jsonl")"
fi
