# Policy plugins that break the rules of include/pagelab_policy.h
# (tests/plugins/shape.c, one .so per shape, built by make check into
# build/tests/plugins): each run under --check on a small machine ends as
# docs/policies.md ("What pagelab checks") says - the exit status, and for
# 1 and 2 exactly one line on stderr naming the plugin and the call -
# never a crash (134, 139) or a sanitizer report.
type skip >/dev/null 2>&1 || skip() { echo "skipped: $1"; }
SHAPES_DIR=${SHAPES_DIR:-$(dirname "${EXAMPLES:-build/examples}")/tests/plugins}

# plugin_shape NAME EXIT PATTERN [BOUND]: the ending of shape NAME (EXIT
# 0: stderr empty; 1: one line "pagelab: plugin PATH: PATTERN"; 2: one
# line "pagelab: PATTERN", PATTERN an extended regular expression), run
# with PAGELAB_PLUGIN_TIMEOUT=BOUND (default 10s: only the shapes that
# never return get a short one).
plugin_shape() {
	name=$1 want=$2 pat=$3 bound=${4:-10s} so="$SHAPES_DIR/$1.so"
	t "plugin shape $name: exit $want"
	if [ ! -f "$so" ]; then
		skip "no $so (make check builds it)"
		return
	fi
	PAGELAB_PLUGIN_TIMEOUT=$bound $P run --ram 16M --swap 32M --check --policy "$so" usemem -m 24 \
		>"$T/shape.out" 2>"$T/shape.err"
	rc=$?
	line=$(head -n 1 "$T/shape.err")
	msg=""
	[ $rc -eq "$want" ] || msg="exit $rc, not $want;"
	grep -Eq 'Sanitizer|runtime error|internal error' "$T/shape.err" && msg="$msg a crash report;"
	case $want in
	0) [ -s "$T/shape.err" ] && msg="$msg stderr not empty;" ;;
	1) prefix="pagelab: plugin $so: " ;;
	2) prefix="pagelab: " ;;
	esac
	if [ "$want" -ne 0 ]; then
		[ "$(wc -l <"$T/shape.err")" -eq 1 ] || msg="$msg not one line on stderr;"
		case $line in
		"$prefix"*) printf '%s\n' "${line#"$prefix"}" | grep -Eq "^$pat" || msg="$msg unexpected message;" ;;
		*) msg="$msg line does not start with '$prefix';" ;;
		esac
	fi
	[ -z "$msg" ] && ok || bad "$msg $(head -c 300 "$T/shape.err")"
}

plugin_shape ok 0 ''
plugin_shape double_del 0 ''
plugin_shape core_clobber 0 ''
plugin_shape double_add 1 'add: pagelab_lru_add_head\(list shape, page [0-9]+\): the page is already on list shape '
plugin_shape del_unknown 1 "shrink: pagelab_lru_del\(page [0-9]+\): not one of the policy's pages "
plugin_shape lost_add 1 'add: returned with 1 of its pages on none of its lists \(page [0-9]+ first\)'
plugin_shape lost_shrink 1 'shrink: returned with 1 of its pages on none of its lists \(page [0-9]+ first\)'
plugin_shape victim_none 1 'shrink: pagelab_evict\(PAGELAB_PFN_NONE\): no page$'
plugin_shape victim_range 1 'shrink: pagelab_evict\(page 101992\): out of range \(the machine has 1992 frames\)$'
plugin_shape victim_foreign 1 "shrink: pagelab_evict\(page [0-9]+\): not one of the policy's pages "
plugin_shape victim_twice 1 "shrink: pagelab_evict\(page [0-9]+\): not one of the policy's pages "
plugin_shape victim_onlist 1 'shrink: pagelab_evict\(page [0-9]+\): the page is still on list shape '
plugin_shape evict_outside 1 'add: pagelab_evict: called outside shrink$'
plugin_shape evict_badsc 1 'shrink: pagelab_evict: sc [0-9a-fx]+ is not the pass shrink was given$'
plugin_shape word_write 1 'add: pagelab_page_word\(page 1992\): out of range \(the machine has 1992 frames\)$'
plugin_shape word_read 1 'add: pagelab_page_word\(PAGELAB_PFN_NONE\): no page$'
plugin_shape state_range 1 'add: pagelab_page_state\(page 1999\): out of range '
plugin_shape referenced_foreign 1 "shrink: pagelab_page_referenced\(page [0-9]+\): not one of the policy's pages "
plugin_shape next_range 1 'add: pagelab_lru_next\(page 1992\): out of range '
plugin_shape list_bad 1 'add: pagelab_lru_head\(list 99\): not a list the policy registered '
plugin_shape list_core 1 'add: pagelab_lru_add_head\(list 1\): not a list the policy registered '
plugin_shape mm_bad 1 'add: pagelab_lru_count: called with mm .*, not the one init\(\) was given$'
plugin_shape call_outside 1 'pagelab_policy_entry: called pagelab_nr_frames before init\(\)$'
plugin_shape register_late 1 'shrink: pagelab_lru_register: lists are registered in init\(\) or cgroup_init\(\)$'
plugin_shape register_many 1 'init: pagelab_lru_register\("many"\): no room for another list '
plugin_shape register_null 1 'init: pagelab_lru_register\(NULL\): a list needs a name$'
plugin_shape counter_reclaimed 1 'shrink: sc->nr_reclaimed was changed to [0-9]+ \(pagelab_evict\(\) keeps it: [0-9]+\)$'
plugin_shape counter_rotated 1 'shrink: sc->nr_rotated went from 0 to 18446744073709551615 '
plugin_shape init_null 1 'init: returned NULL '
plugin_shape huge_alloc 1 'init: returned NULL '
plugin_shape init_crash 1 'init: crashed \(SIGSEGV\)$'
plugin_shape shrink_crash 1 'shrink: crashed \(SIGSEGV\)$'
plugin_shape add_abort 1 'add: aborted \(SIGABRT\)$'
plugin_shape sleeps 1 'shrink: did not return within 0.5 s of host time \(PAGELAB_PLUGIN_TIMEOUT\)$' 500ms
plugin_shape spins 1 'shrink: did not return within 0.5 s of host time \(PAGELAB_PLUGIN_TIMEOUT\)$' 500ms
plugin_shape no_entry 2 "$SHAPES_DIR/no_entry.so: not a pagelab policy plugin \(no pagelab_policy_entry\(\)\)$"
plugin_shape entry_null 2 "$SHAPES_DIR/entry_null.so: pagelab_policy_entry\(\) returned NULL$"
plugin_shape abi_wrong 2 "$SHAPES_DIR/abi_wrong.so: built for policy interface version 99, newer than this pagelab's 2 "
plugin_shape ops_null 2 "$SHAPES_DIR/ops_null.so: the plugin lacks a name, summary, init, add, remove or shrink$"
plugin_shape missing_symbol 2 'cannot load policy plugin: .*undefined symbol: pagelab_no_such_function$'
plugin_shape tunable_bad 2 "$SHAPES_DIR/tunable_bad.so: tunable 't' has no name, or a default outside its range$"
plugin_shape flags_bad 2 "$SHAPES_DIR/flags_bad.so: flags 0x40000000 unknown to this pagelab$"

t "plugin shape never_evicts: the OOM killer, exit 0"
if [ -f "$SHAPES_DIR/never_evicts.so" ]; then
	$P run --ram 16M --swap 32M --check --policy "$SHAPES_DIR/never_evicts.so" usemem -m 24 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$T/err" ] && [ "$(counter oom_kill "$T/out")" -ge 1 ] && ok ||
		bad "exit $rc, oom_kill $(counter oom_kill "$T/out"): $(head -c 300 "$T/err")"
else
	skip "no never_evicts.so"
fi

t "plugin shape check_false: --check fails, exit 1, plugin named"
if [ -f "$SHAPES_DIR/check_false.so" ]; then
	$P run --ram 16M --swap 32M --check --policy "$SHAPES_DIR/check_false.so" usemem -m 24 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] &&
		grep -qxF "pagelab: plugin $SHAPES_DIR/check_false.so: check: returned false (its own state is broken)" "$T/err" &&
		grep -q '^pagelab: --check failed' "$T/err" && ok || bad "exit $rc: $(head -c 300 "$T/err")"
else
	skip "no check_false.so"
fi

t "PAGELAB_PLUGIN_TIMEOUT=soon: bad input, exit 2"
PAGELAB_PLUGIN_TIMEOUT=soon $P run --ram 16M --policy "${EXAMPLES:-build/examples}/lifo.so" usemem -m 4 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -qx 'pagelab: PAGELAB_PLUGIN_TIMEOUT=soon: not a duration (e.g. 10s, 500ms; 0 for no bound)' "$T/err" &&
	ok || bad "exit $rc: $(cat "$T/err")"

# SIGTERM while a plugin call is stuck: the run ends at once with 143
# (the watchdog's bound is off, so only the signal can end it).  The
# plugin makes SHAPE_STUCK_FILE when it is stuck; the test waits for it.
t "plugin stuck in shrink, one SIGTERM: exit 143, one line"
if [ -f "$SHAPES_DIR/interrupt.so" ]; then
	rm -f "$T/stuck"
	SHAPE_STUCK_FILE="$T/stuck" PAGELAB_PLUGIN_TIMEOUT=0 $P run --ram 16M --swap 32M \
		--policy "$SHAPES_DIR/interrupt.so" usemem -m 24 >"$T/out" 2>"$T/err" &
	pid=$!
	n=0
	while [ ! -f "$T/stuck" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	kill -TERM $pid
	wait $pid
	rc=$?
	[ $rc -eq 143 ] &&
		[ "$(cat "$T/err")" = "pagelab: plugin $SHAPES_DIR/interrupt.so: shrink: interrupted by SIGTERM while this call had not returned" ] &&
		ok || bad "exit $rc: $(head -c 300 "$T/err")"
else
	skip "no interrupt.so"
fi

# The same in a sweep: the cells that finished before are in its results
# (sweep does not catch SIGTERM: the signal itself ends it, and each cell
# was written when it finished).
t "sweep, a plugin's cell stuck, SIGTERM: 143, clock's cell kept"
if [ -f "$SHAPES_DIR/interrupt.so" ]; then
	rm -f "$T/stuck" "$T/stuck.jsonl"
	SHAPE_STUCK_FILE="$T/stuck" PAGELAB_PLUGIN_TIMEOUT=0 $P sweep --policy clock,"$SHAPES_DIR/interrupt.so" \
		--ram 16M --swap 32M --jobs 1 -o "$T/stuck.jsonl" -- usemem -m 24 >"$T/out" 2>"$T/err" &
	pid=$!
	n=0
	while [ ! -f "$T/stuck" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	kill -TERM $pid
	wait $pid 2>/dev/null # (not the shell's "Terminated")
	rc=$?
	[ $rc -eq 143 ] && [ "$(wc -l <"$T/stuck.jsonl")" -eq 1 ] && grep -q '"design": "clock"' "$T/stuck.jsonl" &&
		ok || bad "exit $rc: $(head -c 300 "$T/err")"
else
	skip "no interrupt.so"
fi

# --- A plugin's path wherever a policy name goes (issue 35) ---------------
LIFO="${EXAMPLES:-build/examples}/lifo.so"
CPT="$(dirname "$0")/data/cloudPhysicsIO.txt.zst"

t "sweep --policy LIFO.so,clock -o: both designs; compare RESULTS"
$P sweep --policy "$LIFO",clock --ram 16M --swap 32M --seeds 2 --jobs 1 -o "$T/lifo.jsonl" -- usemem -m 24 \
	>"$T/out" 2>"$T/err"
rc=$?
$P compare "$T/lifo.jsonl" >"$T/cmp" 2>>"$T/err"
rc2=$?
[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(grep -c "\"design\": \"$LIFO\"" "$T/lifo.jsonl")" -eq 2 ] &&
	[ "$(grep -c '"design": "clock"' "$T/lifo.jsonl")" -eq 2 ] &&
	grep -q "^2 designs, 4 runs (about 2 per design); baseline $LIFO$" "$T/cmp" && ok ||
	bad "exit $rc/$rc2: $(head -c 300 "$T/err")"

t "mrc --policy LIFO.so: the curve = pagelab run at 500p"
if needs codec:zstd; then
$P mrc --csv --policy "$LIFO" --sizes 500p "$CPT" >"$T/mrc.csv" 2>"$T/err"
rc=$?
want=$($P run --machine ideal --ram 500p --policy "$LIFO" trace "$CPT" 2>&1 | awk '$1 == "pgfault" { print $2 }')
got=$(awk -F, -v p="$LIFO" '$1 == p && $2 == "simulated" && $3 == 500 { print $5 }' "$T/mrc.csv")
[ $rc -eq 0 ] && [ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "exit $rc, run $want, mrc $got: $(head -c 300 "$T/err")"
fi

# compare -- WORKLOAD with the kernel's side from its cache (no kernel run,
# no root): the simulator runs the plugin.
t "compare --policy LIFO.so -- WORKLOAD: a table for the plugin"
mkdir -p "$T/plkc"
for n in 1 2; do
	kernel_record "$n" "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 80" "c:pgfault=9000$n" \
		c:pswpout=1000 >>"$T/plkc/kernel.jsonl"
done
$P compare --repeat 2 --kernel-cache "$T/plkc" --memcg 64M --swap 128M --policy "$LIFO" -- usemem -m 80 \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^# policy $LIFO; within" "$T/out" &&
	grep -Eq '^pswpout +1000 \(1000\.\.1000\) +[1-9][0-9]* ' "$T/out" && ok || bad "exit $rc: $(head -c 300 "$T/err")"

t "reproduce FILE with a design LIFO.so: runs it, no n/a"
cat >"$T/lifo.exp" <<EXP
experiment 7 lifo
title "Does lifo swap out as much as fifo?"
machine vmm-2008
machine-set "ram=24M swap=32M kernel_base=1M"
design A fifo thread
design B $LIFO thread
run u "usemem beyond RAM"
  wl "usemem -m 30"
metric so u 0 counter:pswpout lower "pages swapped out"
published A so 100 "100 pages" notes.txt:1
published B so 100 "100 pages" notes.txt:2
compare so A B ratio 0.25 0.03 0 notes.txt:1-2
EXP
$P reproduce --jobs 1 "$T/lifo.exp" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^experiment 7: 1 agree, 0 disagree, 0 too noisy to tell, 0 n/a$' "$T/out" && ok ||
	bad "exit $rc: $(grep -m 3 'n/a\|not in' "$T/out") $(head -c 300 "$T/err")"

# The library: pagelab_set_policy() takes a path; a plugin that breaks a
# rule is an error of pagelab_run(), and the program goes on.
t "library: a plugin runs; a broken one is an error, not an exit"
if [ -x "$SHAPES_DIR/library" ] && [ -f "$SHAPES_DIR/victim_none.so" ]; then
	"$SHAPES_DIR/library" "$LIFO" "$SHAPES_DIR/victim_none.so" clock >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(sed -n 1p "$T/out" | sed 's/pswpout [1-9][0-9]*$/pswpout N/')" = "$LIFO: rc 0 pswpout N" ] &&
		[ "$(sed -n 2p "$T/out")" = "$SHAPES_DIR/victim_none.so: error plugin $SHAPES_DIR/victim_none.so: shrink: pagelab_evict(PAGELAB_PFN_NONE): no page" ] &&
		sed -n 3p "$T/out" | grep -q '^clock: rc 0 pswpout [1-9]' && ok || bad "exit $rc: $(cat "$T/out" "$T/err")"
else
	skip "no $SHAPES_DIR/library (make check builds it)"
fi
