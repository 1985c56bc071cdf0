# tools/fidelity_fit.sh: the fault path's three costs scaled by the
# ratio of the kernel's median system time on a baseline to pagelab's,
# from compare's record caches, every other line of the profile kept;
# no runs, one line and exit 1.  Hand-made records, no run (about 0.1 s).

R=$(dirname "$0")/..
CFG="--memcg 512M --swap 512M usemem -n 1 -r 1 200m"
mkdir -p "$T/fit/sim"
printf 'machine = modern\n# the fault\ncost.fault = 1000ns\ncost.zero_page = 100ns\ncost.scan = 7ns\ncost.free_page = 50ns\n' \
	>"$T/fit/prof"
# Three kernel runs (system 0.30, 0.20, 0.25 s: median 0.25), a workload's
# own sys_s after each run's; one of another configuration; pagelab's run
# on the profile at 0.125 s, and an older one on another profile.
krec() { printf '{"cell": 0, "cmd": "x", "design": "kernel", "config": "%s", "params": {"a": 1}, "user_s": 0.1, "sys_s": %s, "workloads": [{"sys_s": 9}]}\n' "$1" "$2"; }
{ krec "$CFG" 0.30; krec "$CFG" 0.20; krec "--memcg 256M --swap 512M usemem -n 1 -r 1 200m" 5; krec "$CFG" 0.25; } >"$T/fit/k.jsonl"
srec() { printf '{"cell": 0, "config": "--machine %s --ram 1 --swap 512M --memcg %s --set a=1 usemem -n 1 -r 1 200m", "params": {"b": 2}, "sys_s": %s}\n' "$1" "$2" "$3"; }
{ srec other/prof 512M 1; srec "$T/fit/prof" 256M 3; srec "$T/fit/prof" 512M 0.125; } >"$T/fit/sim/sim-1.jsonl"

t "fidelity_fit: the fault path's costs x the system-time ratio"
sh "$R/tools/fidelity_fit.sh" "$T/fit/prof" "$T/fit/k.jsonl" "$T/fit/sim" "$CFG" >"$T/fit/out" 2>"$T/fit/err"
rc=$?
got=$(grep -v '^#' "$T/fit/out" | tr '\n' ' ')
want="machine = modern cost.fault = 2000ns cost.zero_page = 200ns cost.scan = 7ns cost.free_page = 100ns "
[ $rc -eq 0 ] && [ "$got" = "$want" ] && [ ! -s "$T/fit/err" ] && grep -q '^# the fault$' "$T/fit/out" &&
	[ "$(grep -c '1000ns x 2.000, the kernel.s median system time$' "$T/fit/out")" -eq 1 ] &&
	[ "$(grep -c '0.250 s / 0.125 s,$' "$T/fit/out")" -eq 3 ] &&
	[ "$(grep -c '^#   3 kernel runs of `pagelab compare --memcg 512M' "$T/fit/out")" -eq 3 ] &&
	ok || bad "exit $rc: $got; $(cat "$T/fit/err")"

t "fidelity_fit: no kernel runs of the baseline: one line, exit 1"
sh "$R/tools/fidelity_fit.sh" "$T/fit/prof" "$T/fit/k.jsonl" "$T/fit/sim" "--memcg 1G --swap 512M usemem -m 1" \
	>"$T/fit/out2" 2>"$T/fit/err2"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/fit/out2" ] && [ "$(wc -l <"$T/fit/err2")" -eq 1 ] &&
	grep -q '^fidelity_fit: no runs of ' "$T/fit/err2" && ok || bad "exit $rc; $(cat "$T/fit/err2")"
