# pagelab compare takes pgactivate/pgdeactivate from a kernel report's
# traced counters (src/native/tracer.c: the cgroup's own reclaim and
# activations) when every run has them and memory.stat does not (v1);
# hand-written records of kernel runs, no kernel run (about 1 s).

# traced_report DIR N PGACTIVATE [TRACED_PGACTIVATE]: run N's record,
# appended to DIR/kernel.jsonl.
traced_report() {
	kernel_record "$2" "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 80" m:pgfault=20490 \
		${4:+"t:pgactivate=$4"} t:pgdeactivate=0 "c:pgactivate=$3" c:pgdeactivate=400 >>"$1/kernel.jsonl"
}

t "compare: traced pgactivate, or the host's if a run lacks it"
mkdir -p "$T/kt" "$T/kt2"
traced_report "$T/kt" 1 500 2
traced_report "$T/kt" 2 700 4
traced_report "$T/kt2" 1 500 2
traced_report "$T/kt2" 2 700 ""
$P compare --repeat 2 --kernel-cache "$T/kt" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/t1" 2>"$T/t1.err"
rc1=$?
$P compare --repeat 2 --kernel-cache "$T/kt2" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/t2" 2>"$T/t2.err"
rc2=$?
msg=""
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || msg="exit $rc1/$rc2: $(cat "$T/t1.err" "$T/t2.err")"
# The host's 500/700 are other jobs' activations; the cgroup's own 2 and 4.
grep -Eq '^pgactivate +3 \(2\.\.4\) ' "$T/t1" || msg="$msg; pgactivate not the traced one"
grep -Eq '^pgdeactivate +0 \(0\.\.0\) ' "$T/t1" || msg="$msg; pgdeactivate not the traced one"
tr '\n' ' ' <"$T/t1" | grep -q "kernel: the cgroup's own memory.stat for pgfault; its tasks' reclaim and folios, traced, for pgactivate, pgdeactivate; the host's /proc/vmstat for the rest" ||
	msg="$msg; the header does not name the traced counters"
awk 'length > 80 { exit 1 }' "$T/t1" || msg="$msg; a line over 80 columns"
# One run without traced.pgactivate: the host's figure for both runs.
grep -Eq '^pgactivate +600 \(500\.\.700\) ' "$T/t2" || msg="$msg; mixed sources for pgactivate"
grep -Eq '^pgdeactivate +0 \(0\.\.0\) ' "$T/t2" || msg="$msg; pgdeactivate (traced in both) not taken"
[ -z "$msg" ] && ok || bad "$msg"
