# tools/profile_median.sh: the host's figures tools/fidelity.sh keeps are
# the median of several --calibrate (and --tlb-cost) runs.  Hand-made
# files: each cost's median, the lower middle of an even count, a value
# without ns or missing from a file left as the first file's, the runs
# listed above each profile cost.  Sourced by tests/cli_area.sh: uses T,
# t, ok, bad.  Cost: milliseconds.

M="sh $(dirname "$0")/../tools/profile_median.sh"
printf '# a profile\nmachine = modern\n# cost.fault: bench\ncost.fault = 900ns\ncost.io_complete = 3us\ncost.scan = 10ns\n' >"$T/p1"
printf 'machine = modern\ncost.fault = 1200ns\ncost.io_complete = 4us\ncost.scan = 30ns\n' >"$T/p2"
printf 'machine = modern\ncost.fault = 1000ns\ncost.io_complete = 5us\n' >"$T/p3"
printf 'cost.tlb_ipi=19800ns cost.tlb_ipi_recv=13600ns\n' >"$T/t1"
printf 'cost.tlb_ipi=20500ns cost.tlb_ipi_recv=13100ns\n' >"$T/t2"
printf 'cost.tlb_ipi=18800ns cost.tlb_ipi_recv=12300ns\n' >"$T/t3"

t "profile_median: each cost the median of the runs, the runs above it"
$M "$T/p1" "$T/p2" "$T/p3" >"$T/pm" 2>"$T/pm.err"; rc=$?
want='# a profile
machine = modern
# cost.fault: bench
#   (the median of 3 runs of --calibrate: 900, 1200, 1000 ns)
cost.fault = 1000ns
cost.io_complete = 3us
cost.scan = 10ns'
[ $rc -eq 0 ] && [ "$(cat "$T/pm")" = "$want" ] && [ ! -s "$T/pm.err" ] && ok || bad "$(cat "$T/pm" "$T/pm.err")"

t "profile_median: --tlb-cost's line, and two runs give the lower middle"
a=$($M "$T/t1" "$T/t2" "$T/t3") b=$($M "$T/t1" "$T/t2")
[ "$a" = "cost.tlb_ipi=19800ns cost.tlb_ipi_recv=13100ns" ] &&
	[ "$b" = "cost.tlb_ipi=19800ns cost.tlb_ipi_recv=13100ns" ] && ok || bad "'$a' '$b'"

t "profile_median: no file, an unreadable one: one line, exit 2"
$M >"$T/o0" 2>&1; r0=$?
$M "$T/p1" "$T/nope" >"$T/o1" 2>&1; r1=$?
[ $r0 -eq 2 ] && [ $r1 -eq 2 ] && [ "$(wc -l <"$T/o0")" -eq 1 ] && [ "$(wc -l <"$T/o1")" -eq 1 ] &&
	ok || bad "$r0 $r1 $(cat "$T/o0" "$T/o1")"
