# Whatever pagelab run accepts, sweep, an experiment file and the library
# accept too (one run spec, src/engine/runspec.h): walk the options of
# `pagelab run --help` and take each through sweep (sweep --list: nothing
# runs) and an experiment file (a 2-second reproduce), or say why not.
# The library's side is tests/test_run_options.c, one row per option:
# here, that each option has its row.  About 5 s.

TESTS_DIR="$(dirname "$0")"

# OPTION|SWEEP ARGS or why:...|EXPERIMENT LINE (in the run) or a
# reproduce option (reproduce:ARGS) or why:...
ROWS='--machine|--machine modern|why:an experiment has one machine line, its profile (machine PROFILE)
--ram|--ram 32M|  machine-set "ram=32M"
--swap|--swap 64M|  machine-set "swap=64M"
--cpus|--cpus 2|  machine-set "cpus=2"
--disk|--disk ssd|  machine-set "disk=ssd"
--set|--set vm.dirty_ratio=5|  machine-set "vm.dirty_ratio=5"
--memcg|--memcg 16M|  machine-set "memcg=16M"
--cgroup|--cgroup /a:max=16M|  machine-set "cgroup=/a:max=16M"
--policy|--policy clock,fifo|why:a design line names its policy (design LABEL POLICY KIND)
--seed|--seed 3,4|why:repeats give the seeds, 1 + 1000 k for every design alike, so designs face the same workloads
--vmstat|--set vmstat=0.5|  vmstat 0.5
--check|--check|reproduce:--check
--json|why:JSON lines are what sweep prints (-o FILE, or stdout)|reproduce:--json
--html|--html HTML|reproduce:--html HTML
--max-time|--max-time 30|  max-time 30 unscaled
--progress|--progress|reproduce:--progress
--no-progress|--no-progress|reproduce:--no-progress
--make-inputs|--set make-inputs=1|  machine-set "make-inputs=1"
--full-machine|why:every cell runs the whole machine (the cache-only replay is run'"'"'s shortcut; mrc draws its curves)|why:every run of an experiment runs the whole machine
--warmup|why:a cell runs the whole machine, which counts whole runs (run and mrc take it on the cache-only replay)|why:every run of an experiment runs the whole machine
--window|why:a cell runs the whole machine, which counts whole runs (run and mrc take it on the cache-only replay)|why:every run of an experiment runs the whole machine
--help|why:not a run option|why:not a run option'

opts=$($P run --help | grep -E '^  --' | grep -oE -- '--[a-z][a-z-]*')

t "run --help lists the options this test walks"
n=$(printf '%s\n' "$opts" | wc -l)
[ "$n" -ge 15 ] && printf '%s\n' "$opts" | grep -qx -- '--make-inputs' && ok || bad "$n options: $opts"

row() { printf '%s\n' "$ROWS" | grep -m1 -- "^$1|"; }

t "each run option: a row here and in test_run_options.c"
msg=
for o in $opts; do
	row "$o" >/dev/null || msg="$msg $o: no row here;"
	grep -q "{ \"$o\"," "$TESTS_DIR/test_run_options.c" || msg="$msg $o: no row in tests/test_run_options.c;"
done
[ -z "$msg" ] && ok || bad "$msg"

for o in $opts; do
	r=$(row "$o") || continue
	sw=$(printf '%s' "$r" | cut -d'|' -f2)
	ex=$(printf '%s' "$r" | cut -d'|' -f3)
	t "run $o: sweep ${sw%%:*}"
	case $sw in
	why:?????*) ok ;;
	why:*) bad "a why without a reason" ;;
	*)
		# shellcheck disable=SC2086
		$P sweep --list $(printf '%s' "$sw" | sed "s|HTML|$T/sw.html|") -- usemem -m 8 >"$T/sw" 2>"$T/sw.err"
		rc=$?
		[ $rc -eq 0 ] && [ -s "$T/sw" ] && ok || bad "rc $rc: $(head -1 "$T/sw.err")" ;;
	esac
	t "run $o: an experiment file"
	cat >"$T/o.exp" <<'EXP'
experiment 7 run-options
title "each run option in an experiment file"
machine vmm-2008
machine-set "ram=24M swap=32M"
design A fifo thread
run u "usemem"
  wl "usemem -m 8"
EXP
	rargs=
	case $ex in
	why:?????*) ok; continue ;;
	why:*) bad "a why without a reason"; continue ;;
	reproduce:*) rargs=$(printf '%s' "${ex#reproduce:}" | sed "s|HTML|$T/ex.html|") ;;
	*) printf '%s\n' "$ex" >>"$T/o.exp" ;;
	esac
	printf 'metric e u 0 elapsed lower "elapsed"\n' >>"$T/o.exp"
	# shellcheck disable=SC2086
	$P reproduce $rargs "$T/o.exp" >"$T/ex" 2>"$T/ex.err"
	rc=$?
	[ $rc -eq 0 ] && [ -s "$T/ex" ] && ok || bad "rc $rc: $(head -1 "$T/ex.err")"
done

t "sweep --set make-inputs=1: as run --make-inputs"
$P sweep --no-progress --set make-inputs=1 --ram 64M -- dd if=data bs=64K count=32 >"$T/mi" 2>"$T/mi.err"; rc=$?
$P run --make-inputs --ram 64M dd if=data bs=64K count=32 >"$T/mr" 2>/dev/null
pi=$(sed -n 's/.*"pgpgin": \([0-9]*\).*/\1/p' "$T/mi")
[ $rc -eq 0 ] && [ -n "$pi" ] && [ "$pi" = "$(counter pgpgin "$T/mr")" ] && [ "$pi" -ge 2048 ] && ok ||
	bad "rc $rc, pgpgin $pi vs run's $(counter pgpgin "$T/mr"): $(head -1 "$T/mi.err")"

t "run --set make-inputs=1; not --disk with --set disk="
$P run --set make-inputs=1 --ram 64M dd if=data bs=64K count=32 >"$T/ms" 2>/dev/null
$P run --disk ssd --set disk=ssd usemem -m 1 >/dev/null 2>"$T/dd.err"; rc=$?
cmp -s "$T/mr" "$T/ms" && [ $rc -eq 2 ] && grep -q 'give --disk or --set disk=, not both' "$T/dd.err" && ok ||
	bad "rc $rc: $(cat "$T/dd.err")"

t "--set start.1=2: a delayed start in run and in a sweep cell"
$P run --ram 64M --json --set start.1=2 usemem -m 8 + usemem -m 8 >"$T/st" 2>"$T/st.err"; rc=$?
$P sweep --no-progress --ram 64M --set start.1=2 -- usemem -m 8 + usemem -m 8 >"$T/sst" 2>&1
sim=$(sed -n 's/.*"simulated_s": \([0-9]*\)\..*/\1/p' "$T/st")
grep -q '"cmd": "pagelab run --machine vmm-2008 --ram 64M --set start.1=2 --policy clock --seed 1 usemem' "$T/sst" &&
	[ $rc -eq 0 ] && [ "$sim" = 2 ] && ok || bad "rc $rc, $sim s: $(head -c 300 "$T/sst")"

t "--set residency=0 --vmstat: resident_kb in --json's samples"
$P run --ram 64M --vmstat 0.001 --set residency=0 --json usemem -m 20 -r 4 >"$T/rs" 2>"$T/rs.err"; rc=$?
$P run --ram 64M --set residency=1 usemem -m 1 >/dev/null 2>"$T/rs2.err"; rc2=$?
n=$(grep -c '"resident_kb": [1-9]' "$T/rs")
[ $rc -eq 0 ] && [ "$n" -ge 1 ] && [ $rc2 -eq 2 ] && grep -q 'residency=1: the run has 1 workload' "$T/rs2.err" &&
	ok || bad "rc $rc/$rc2, $n samples: $(cat "$T/rs.err" "$T/rs2.err")"

t "an experiment file's machine-set make-inputs=1 makes dd's input"
msg=
for mi in 1 0; do
	cat >"$T/mi.exp" <<EXP
experiment 7 make-inputs
title "dd of an input made first"
machine vmm-2008
machine-set "ram=64M make-inputs=$mi"
design A clock thread
run d "dd"
  wl "dd if=data bs=64K count=32"
metric e d 0 counter:pgpgin lower "read"
EXP
	$P reproduce --json "$T/mi.exp" >"$T/mi$mi" 2>"$T/mi$mi.err"
	echo "rc $?" >>"$T/mi$mi"
done
grep -q 'rc 0' "$T/mi1" || msg="make-inputs=1: $(head -c 200 "$T/mi1.err")"
grep -q '"counters": {"pgpgin": 2048,' "$T/mi1" || msg="$msg; not the 2048 KB of the input read"
grep -q 'rc 2' "$T/mi0" && grep -q 'workload dd opens data, which does not exist' "$T/mi0.err" ||
	msg="$msg; without it: $(tail -c 200 "$T/mi0")"
[ -z "$msg" ] && ok || bad "$msg"
