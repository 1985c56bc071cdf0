# compare_percpu.sh - pagelab compare simulates a kernel of 2.6 or later
# on more than one CPU with a run queue per CPU (sched_percpu=1,
# src/engine/kcompare_rechost.c), as the kernel schedules: usemem -n 3's
# three children on two CPUs run two and one, and the one alone ends
# before the cgroup fills (docs/fidelity.md, "Three children on two
# CPUs").  Hand-written kernel records, no kernel run (about 1 s).

# prec DIR CPUS RELEASE: a cached kernel run of usemem -n 3 -r 2 32m in
# 80M whose host has CPUS CPUs and runs RELEASE.
prec() {
	mkdir -p "$1"
	kernel_record 1 "--memcg 80M --swap 128M --seed 1 --timeout 600 usemem -n 3 -r 2 32m" c:pgmajfault=0 |
		sed "s/\"cpus\": [0-9]*, \"release\": \"[^\"]*\"/\"cpus\": $2, \"release\": \"$3\"/" >"$1/kernel.jsonl"
	echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$1/tlb_cost"
}
# pcmp DIR OUT [ARG...]: the cached compare into $T/OUT and $T/OUT.err.
pcmp() {
	_pd=$1 _po=$2
	shift 2
	$P compare --repeat 1 --kernel-cache "$_pd" --memcg 80M --swap 128M --policy linux6 "$@" \
		-- usemem -n 3 -r 2 32m >"$T/$_po" 2>"$T/$_po.err"
}
# setup OUT: the setup lines of $T/OUT, joined.
setup() { sed -n "2,/^kernel:/p" "$T/$1" | tr '\n' ' '; }
# majflt OUT: linux6's pgmajfault in $T/OUT's table (after the kernel's
# median and range).
majflt() { awk '$1 == "pgmajfault" { print $4; exit }' "$T/$1"; }

t "compare: 6.18 on 2 CPUs: a run queue per CPU (sched_percpu=1)"
prec "$T/p2" 2 6.18.44
pcmp "$T/p2" q1
rc=$?
s=$(setup q1)
if [ $rc -ne 0 ]; then
	bad "exit $rc: $(cat "$T/q1.err")"
elif ! echo "$s" | grep -q "with .*sched_percpu=1 "; then
	bad "no sched_percpu=1 in '$s'"
elif [ -s "$T/q1.err" ] || ! awk 'length > 80 { exit 1 }' "$T/q1"; then
	bad "stderr '$(cat "$T/q1.err")' or a line over 80 columns"
else
	ok
fi

t "compare: one CPU, or before 2.6: one queue, nothing set"
prec "$T/p1" 1 6.18.44
pcmp "$T/p1" q2
rc2=$?
prec "$T/p24" 2 2.4.37
pcmp "$T/p24" q3
rc3=$?
if [ $rc2 -ne 0 ] || [ $rc3 -ne 0 ]; then
	bad "exit $rc2/$rc3: $(cat "$T/q2.err" "$T/q3.err")"
elif setup q2 | grep -q sched_percpu || setup q3 | grep -q sched_percpu; then
	bad "'$(setup q2)' / '$(setup q3)'"
else
	ok
fi

t "compare: usemem -n 3 on 2 CPUs: no swap-in with a queue per CPU"
# 3 x 32 MB in 80 MB.  One queue: the children fault in lockstep and
# all three are in when the cgroup fills: reclaim swaps their pages out
# and they fault them back.  A queue per CPU: one child runs alone and
# exits (32 MB freed) while the two sharing a CPU hold about 21 MB each:
# 32 + 2 x 21 < 80, nothing swapped back in.  --set sched_percpu=0 is
# the one queue, on the same host.
pcmp "$T/p2" q4 --set sched_percpu=0
rc4=$?
a=$(majflt q1) b=$(majflt q4)
if [ $rc4 -ne 0 ]; then
	bad "exit $rc4: $(cat "$T/q4.err")"
elif [ "$a" != 0 ] || [ -z "$b" ] || [ "$b" -lt 100 ]; then
	bad "pgmajfault $a with a queue per CPU, $b with one"
elif setup q4 | grep -q "sched_percpu=1"; then
	bad "sched_percpu=1 beside --set sched_percpu=0: '$(setup q4)'"
else
	ok
fi
