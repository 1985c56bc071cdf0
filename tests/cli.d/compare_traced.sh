# pagelab compare takes pgactivate/pgdeactivate from a kernel report's
# traced counters (src/native/tracer.c: the cgroup's own reclaim and
# activations) when every run has them and memory.stat does not (v1);
# hand-written reports, no kernel run (about 1 s).

traced_report() {
	{
		echo "# cache: pagelab kernel --memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 80 $KTAG"
		echo "usemem -m 80  0.01s user 0.05s system 90% cpu 0.070 total"
		echo "# cgroup"
		echo "memcg.pgfault 20490"
		[ -n "$3" ] && echo "traced.pgactivate $3"
		echo "traced.pgdeactivate 0"
		echo "# /proc/vmstat"
		echo "pgactivate $2"
		echo "pgdeactivate 400"
	} >"$1"
}

t "compare: traced pgactivate, or the host's if a run lacks it"
mkdir -p "$T/kt" "$T/kt2"
traced_report "$T/kt/kernel.1" 500 2
traced_report "$T/kt/kernel.2" 700 4
traced_report "$T/kt2/kernel.1" 500 2
traced_report "$T/kt2/kernel.2" 700 ""
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
