#!/bin/sh
# The test runner of make check (POSIX sh).  It runs, J at a time, each as a
# job of its own:
#   - the unit tests (UNIT_TESTS, the binary): the slow ones each in a job
#     of their own, the rest in one;
#   - every area file of CLI tests, tests/cli.d/*.sh, each in its own shell
#     with its own T (tests/cli_area.sh; the shared functions are in
#     tests/cli_lib.sh);
#   - INSTALLCHECK, a command (make installcheck), when given.
# Each job's output is kept and printed whole when it ends, in name order;
# then a summary: the slowest jobs, every skipped and every failed check
# with its file, and "N passed, F failed, K skipped".  Exit 1 if anything
# failed; with CI=true a skipped check counts as a failure too.
#
# Environment:
#   PAGELAB        the binary under test (default ./pagelab)
#   UNIT_TESTS     the unit-test binary (none: no unit tests)
#   INSTALLCHECK   a command run as the job "installcheck" (none: no job)
#   J              jobs at once (default: nproc)
#   PAGELAB_TESTS  run only the jobs whose names contain one of these
#                  words (space- or comma-separated); the unit tests get
#                  them as their name filter
#   PAGELAB_QUICK  1: leave out the slow jobs (QUICK_OUT below)
#   PAGELAB_SANITIZED  set (make sancheck): leave out SAN_OUT (below)
#   PAGELAB_TIMES  a file of each job's last wall time, read to start the
#                  longest jobs first and rewritten at the end
#   CI             true: skips fail
#   PAGELAB_KERNEL_TESTS  1: run the tests on the host kernel (root, a
#                  memory cgroup, swap; tests/kernel_lib.sh)
set -u
dir=$(dirname "$0")
export PAGELAB=${PAGELAB:-./pagelab}

# The unit tests that take most of the unit tests' time (about 34 of 53 s
# on a loaded 2-CPU host), each a job of its own; make check-quick leaves
# them out, with the area files below.
# (One line: make distcheck reads it with sed.)
UNIT_SLOW="test_sched_eevdf_whole_run test_integrity_every_policy test_sched_percpu_whole_run test_codecs_cut_everywhere test_engine_exp_files test_mutated_readers"
# The area files make check-quick leaves out: each takes 7 s of CPU or
# more (fit80.sh, tlb_ipi.sh and grain.sh: their own simulations).
QUICK_OUT="matrix core_reproduce fit80 tlb_ipi grain"
# The area files make sancheck (PAGELAB_SANITIZED) leaves to make check
# unless PAGELAB_TESTS names them: their own long simulations (about 100 s
# of CPU under the sanitizers, CI's twenty minutes) on code the other
# areas run sanitized too (reproduce's experiments in report.sh, every
# design and workload in matrix.sh; outputs.sh's 72 s of CPU under them
# are mostly its four calibrate-user benchmarks and waits for signals,
# and every area that writes a file goes through output.c sanitized;
# quickfull.sh's reproduce modes run in report.sh, fresh.sh's codecs in
# the unit tests cut at every byte (test_codecs_cut_everywhere) and
# fuzz_trace, install.sh is the shell's, cgwire.sh's protection
# semantics run in cgprot.sh: 165 s of CPU under the sanitizers that
# took CI past its twenty minutes, 2026-12-07).
SAN_OUT="core_reproduce fit80 tlb_ipi grain outputs quickfull fresh install cgwire"

# The area files whose wall time is mostly waiting on the host kernel
# (their real runs, serialised by pagelab kernel's lock; under CI=true or
# KERNEL=1): they run one after another in a lane of their own beside the
# J workers, instead of holding a CPU's slot while they wait (in make
# check they were about 150 s of two workers' time for 20 s of CPU).
# With J=1 there is no lane: one job at a time.
KERNEL_LANE="kernel kernel_cgroups kernel_zram kernel_knobs kernel_trace kernel_agents memcg provenance fidelity_keep"

# The runner's settings are its own: a job (regress.sh runs this script
# nested) must not inherit them.
unit_tests=${UNIT_TESTS:-} installcheck=${INSTALLCHECK:-} times_file=${PAGELAB_TIMES:-}
quick=${PAGELAB_QUICK:-} filter=$(echo "${PAGELAB_TESTS:-}" | tr ',' ' ') nj=${J:-}
unset UNIT_TESTS INSTALLCHECK PAGELAB_TIMES PAGELAB_QUICK PAGELAB_TESTS J

R=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-check.XXXXXX") || exit 1
workers=""
# On a TERM or ^C: stop the workers and the jobs they run (R/JOB.pid), and
# wait up to 10 s for the jobs, whose own traps remove their temporary
# directories.
cleanup() {
	for w in $workers; do kill "$w" 2>/dev/null; done
	for f in "$R"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
	for f in "$R"/*.pid; do
		[ -f "$f" ] || continue
		p=$(cat "$f") i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	done
	rm -rf "$R"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# wanted NAME: the filter lets NAME run.
wanted() {
	[ -n "$filter" ] || return 0
	for w in $filter; do
		case $1 in *"$w"*) return 0 ;; esac
	done
	return 1
}
quick_out() {
	if [ -n "${PAGELAB_SANITIZED:-}" ] && [ -z "$filter" ]; then
		for q in $SAN_OUT; do [ "$1" = "$q" ] && return 0; done
	fi
	[ "$quick" = 1 ] || return 1
	for q in $QUICK_OUT; do [ "$1" = "$q" ] && return 0; done
	return 1
}

# The jobs, in name order: "unit", "unit-TEST" for each slow unit test,
# "area-NAME" for tests/cli.d/NAME.sh, "installcheck".
jobs=""
if [ -n "$unit_tests" ]; then
	if [ -n "$filter" ]; then
		jobs="unit"
	else
		jobs="unit"
		[ "$quick" = 1 ] || for u in $UNIT_SLOW; do jobs="$jobs unit-$u"; done
	fi
fi
for f in "$dir"/cli.d/*.sh; do
	[ -f "$f" ] || continue
	n=$(basename "$f" .sh)
	wanted "$n" && ! quick_out "$n" && jobs="$jobs area-$n"
done
[ -n "$installcheck" ] && wanted installcheck && jobs="$jobs installcheck"

# The order jobs start in: longest first by the last full run's wall
# times, so that the last to end is a short one.  Without them (a fresh
# tree, as in CI), every job of 12 s or more in a CI=true make check on
# the 2-CPU development host at load 5-8 (2026-12-07; only their order
# matters); any other job as if 5.  (Before, only nine were listed: jobs
# of 20-40 s such as outputs.sh and report.sh started as if 5, among the
# last, and the run waited on them at its end.)
LONG="area-matrix 109 area-outputs 99 unit 79 area-core_reproduce 72 area-tlb_ipi 71
area-report 68 area-kernel 64 area-cgwire 42 area-python 41 area-kernel_zram 41
area-benchwl 40 area-zram 34 area-swarm 31 area-grain 27 area-fit80 27
unit-test_integrity_every_policy 26 area-swap_cluster 24 area-costmodel 22
area-quickfull 21 area-fastpath 20 installcheck 19 area-kernel_trace 19 area-engine 19
unit-test_sched_percpu_whole_run 18 area-zswap 18 area-kernel_knobs 18
unit-test_codecs_cut_everywhere 12 unit-test_engine_exp_files 12 unit-test_mutated_readers 12
area-kernel_cgroups 15 area-core 14 area-bpf_hooks 14 area-layers 13 area-regress 13
area-robust 12"
order=$({ echo "$LONG" | tr ' ' '\n' | paste - - | sed 's/^/0 /'
	  [ -f "$times_file" ] && awk '{ print 1, $1, $2 }' "$times_file"
	  for j in $jobs; do echo "2 $j 5"; done
	} | awk '{ k = $2 } $1 == 2 { if (!(k in t)) t[k] = $3; print t[k], k; next }
		{ if (!(k in t) || $1 == 1) t[k] = $3 }' | sort -k1,1nr -k2 | awk '{ print $2 }')

# job_file JOB: the file a job's lines in the summary name; job_title JOB:
# the job in the headers and the slowest list.
job_file() {
	case $1 in
	unit*) echo "unit-tests" ;;
	area-*) echo "tests/cli.d/${1#area-}.sh" ;;
	*) echo "$1" ;;
	esac
}
job_title() {
	case $1 in
	unit) [ -n "$filter" ] && echo "unit-tests (names with: $filter)" || echo "unit-tests (all but the slow ones)" ;;
	unit-*) echo "unit-tests ${1#unit-}" ;;
	*) job_file "$1" ;;
	esac
}

# run_job JOB: its output in $R/JOB.out, its checks in $R/JOB.res, its
# exit status and wall time in $R/JOB.done (written last: the printer
# waits for it).
run_job() {
	start=$(date +%s.%N)
	: >"$R/$1.res"
	times >"$R/$1.t0"
	# Each job a simple command in the background, so that $! is its pid.
	out="$R/$1.out" res="$R/$1.res"
	case $1 in
	unit)
		if [ -n "$filter" ]; then
			# shellcheck disable=SC2086
			"$unit_tests" $filter >"$out" 2>&1 </dev/null &
		else
			# shellcheck disable=SC2046
			"$unit_tests" $(for u in $UNIT_SLOW; do echo "-$u"; done) >"$out" 2>&1 </dev/null &
		fi ;;
	unit-*) "$unit_tests" "${1#unit-}" >"$out" 2>&1 </dev/null & ;;
	area-*) PAGELAB_RESULTS=$res sh "$dir/cli_area.sh" "$dir/cli.d/${1#area-}.sh" >"$out" 2>&1 </dev/null & ;;
	installcheck) PAGELAB_RESULTS=$res sh -c "$installcheck" >"$out" 2>&1 </dev/null & ;;
	esac
	echo $! >"$R/$1.pid"
	wait $!
	rc=$?
	rm -f "$R/$1.pid"
	# Its CPU time: what this worker's children used meanwhile.
	times >"$R/$1.t1"
	cpu=$(cat "$R/$1.t0" "$R/$1.t1" | awk 'FNR % 2 == 0 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); t += a[1] * 60 + a[2] }
		c[NR] = t } END { printf "%.1f", c[4] - c[2] }')
	case $1 in
	unit*)	# build/unit-tests prints "test_NAME   ok" or "FAILED" per test,
		# and "WHAT: skipped, WHY" for a part it cannot run in this build.
		awk '/^test_[a-z0-9_]+ +ok$/ { print "pass\t" $1 }
		     /^test_[a-z0-9_]+ +FAILED$/ { print "fail\t" $1 "\tits CHECK lines are above" }
		     /^[^ ]+: skipped, / { i = index($0, ": skipped, "); print "skip\t" substr($0, 1, i - 1) "\t" substr($0, i + 11) }' \
			"$R/$1.out" >>"$R/$1.res" ;;
	esac
	# A job that failed without a failed check (a crash, a syntax error,
	# a build step of installcheck) is a failure of its own.
	if [ $rc -ne 0 ] && ! grep -q '^fail' "$R/$1.res"; then
		printf 'fail\t(the job)\texited with status %s\n' "$rc" >>"$R/$1.res"
	fi
	end=$(date +%s.%N)
	echo "$rc $(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }') $cpu" >"$R/$1.tmp" && mv "$R/$1.tmp" "$R/$1.done"
}

# A worker takes the next job of its list nobody has taken (mkdir is
# atomic) until none is left.
worker() {
	for j in $1; do
		mkdir "$R/$j.taken" 2>/dev/null || continue
		run_job "$j"
	done
}

nj=${nj:-$(nproc 2>/dev/null || echo 2)}
[ "$nj" -ge 1 ] 2>/dev/null || nj=1
# The kernel lane's jobs (KERNEL_LANE) and the others, each longest
# first.  The lane's worker takes only its own; the J workers take the
# others, then any of the lane's still waiting (their real runs queue on
# the lock, the rest of them overlaps).
lanejobs="" cpujobs=""
for j in $order; do
	l=""
	if [ "$nj" -ge 2 ]; then
		for k in $KERNEL_LANE; do [ "$j" = "area-$k" ] && l=1; done
	fi
	if [ -n "$l" ]; then lanejobs="$lanejobs $j"; else cpujobs="$cpujobs $j"; fi
done
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
start=$(date +%s.%N)
echo "tests: $(echo $jobs | wc -w) jobs, $nj at a time (J=$nj)$([ -n "$lanejobs" ] && echo " and the $(echo $lanejobs | wc -w) host-kernel areas in a lane of their own"); each job's output is printed whole when it ends, in name order"
i=0
while [ $i -lt "$nj" ]; do
	worker "$cpujobs $lanejobs" &
	workers="$workers $!"
	i=$((i + 1))
done
if [ -n "$lanejobs" ]; then
	worker "$lanejobs" &
	workers="$workers $!"
fi

for j in $jobs; do
	while [ ! -e "$R/$j.done" ]; do sleep 0.2; done
	read -r rc secs cpu <"$R/$j.done"
	echo "== $(job_title "$j"): $secs s ($cpu s CPU)"
	cat "$R/$j.out"
done
wait
workers=""
end=$(date +%s.%N)

# --- The summary ---------------------------------------------------------
wall=$(echo "$start $end" | awk '{ printf "%.0f", $2 - $1 }')
# The CPU time of every job (times: the shell's, then its children's; not
# in $(...), whose subshell has no children of its own).
times >"$R/times"
cpu=$(awk 'NR == 2 { u = $1; s = $2; sub(/s$/, "", u); sub(/s$/, "", s)
	split(u, a, "m"); split(s, b, "m"); printf "%.0f s user, %.0f s system", a[1] * 60 + a[2], b[1] * 60 + b[2] }' "$R/times")
echo
echo "== summary: $wall s wall, $cpu, J=$nj (load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) at the end)"
for j in $jobs; do
	read -r rc secs cpu <"$R/$j.done"
	echo "$secs	$cpu	$(job_title "$j")"
done | sort -k1,1nr | head -10 | awk -F '\t' '{ s = s sep $3 " " $1 " s (" $2 " CPU)"; sep = ", " } END { print "slowest (wall, CPU): " s }'
# (Not after a filtered run, whose unit-tests job is another.)
if [ -n "$times_file" ] && [ -z "$filter" ]; then
	# This run's times, and the last ones of the jobs it did not run.
	{ for j in $jobs; do read -r rc secs cpu <"$R/$j.done"; echo "$j $secs $cpu"; done
	  [ -f "$times_file" ] && for j in $jobs; do echo "$j"; done |
		awk 'NR == FNR { ran[$1] = 1; next } !($1 in ran)' - "$times_file"
	} >"$times_file.tmp"
	mv "$times_file.tmp" "$times_file"
fi

# Every check's line with its file: KIND<TAB>FILE<TAB>DESC<TAB>WHY.
for j in $jobs; do
	f=$(job_file "$j")
	awk -F '\t' -v f="$f" '{ print $1 "\t" f "\t" $2 "\t" $3 }' "$R/$j.res"
done >"$R/all"
npass=$(grep -c '^pass' "$R/all")
nfail=$(grep -c '^fail' "$R/all")
nskip=$(grep -c '^skip' "$R/all")
# A unit test's file is the tests/test_*.c that defines it.
unit_src() { grep -l "^void $1(void)" "$dir"/test_*.c 2>/dev/null | head -1; }
if [ "$nskip" -gt 0 ]; then
	echo "skipped ($nskip):"
	awk -F '\t' '$1 == "skip" { print "  " $2 ": " $3 ": " $4 }' "$R/all"
fi
if [ "$nfail" -gt 0 ]; then
	echo "FAILED ($nfail):"
	awk -F '\t' '$1 == "fail" { print $2 "\t" $3 "\t" $4 }' "$R/all" | while IFS='	' read -r f d why; do
		case $d in test_*) f="$(unit_src "$d") ($f)" ;; esac
		echo "  $f: $d: $why"
	done
fi
status=0
[ "$nfail" -eq 0 ] || status=1
# Under the sanitizers some checks are left to make check on purpose
# (PAGELAB_SANITIZED): CI's make check is where nothing may be skipped.
if [ "${CI:-}" = true ] && [ -z "${PAGELAB_SANITIZED:-}" ] && [ "$nskip" -gt 0 ]; then
	echo "CI=true: each skipped check counts as a failure (CI must run everything)"
	status=1
fi
echo "$npass passed, $nfail failed, $nskip skipped"
exit $status
