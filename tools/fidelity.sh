#!/bin/sh
# fidelity.sh [DOC] - the fidelity matrix (docs/fidelity.md, "The matrix"):
# cases generated from families (tools/fidelity_cases.awk: a seeded,
# balanced sample of working set x stream x swappiness x children x
# backing x write share, picked before any run), each run by pagelab
# compare --matrix on this host's kernel and in the simulator through the
# caches in FIDELITY_DATA, and the strict count written into DOC between
# its "<!-- fidelity-matrix:begin -->" and "<!-- fidelity-matrix:end -->"
# lines, the heat map beside the records.  With every kernel run cached
# (the committed docs/fidelity-data) it needs no root and no kernel run:
# only the simulator runs again.
#   FIDELITY_DATA      the kernel runs' records (kernel.jsonl), the cases
#                      (cases.txt), the heat map (heatmap.html) and the
#                      host's measured TLB flush cost and CPU costs
#                      (default docs/fidelity-data); each record holds
#                      the disk's rates its run met (below)
#   FIDELITY_SIM_CACHE the simulator's records (default build/fidelity-sim)
#   FIDELITY_POLICIES  the designs (default linux6,mglru)
#   FIDELITY_N, FIDELITY_SEED  the sample's size and seed (48, 38): 24 a
#                      block, each balanced, a larger N keeping a smaller's
#   FIDELITY_CASES     a file of cases to use instead of the sample
#   FIDELITY_JOBS      simulator runs at once (default 2)
#   FIDELITY_RETAKE=1  take the kernel side again (as root), and with it
#                      the host's figures the machine is built from: the
#                      records, the profile and its fit and the TLB flush
#                      cost are moved to a directory
#                      under /tmp (named on stderr) first, so all of them
#                      are measured in one session (docs/fidelity.md,
#                      "The kernel against itself")
#   FIDELITY_CAL_RUNS  --calibrate and --tlb-cost runs before the kernel
#                      runs, and as many after; the median of all is the
#                      host's figures (default 3)
#   FIDELITY_MACHINE   the simulated machine (default FIDELITY_DATA/profile-fit:
#                      this host's costs by pagelab kernel --calibrate,
#                      the median of FIDELITY_CAL_RUNS runs, the fault
#                      path's fitted on a
#                      baseline, below; "modern" for the preset)
set -u
P=${PAGELAB:-build/pagelab}
DOC=${1:-docs/fidelity.md}
DATA=${FIDELITY_DATA:-docs/fidelity-data}
SIM=${FIDELITY_SIM_CACHE:-build/fidelity-sim}
POL=${FIDELITY_POLICIES:-linux6,mglru}
HERE=$(dirname "$0")
grep -q '^<!-- fidelity-matrix:begin -->$' "$DOC" && grep -q '^<!-- fidelity-matrix:end -->$' "$DOC" ||
	{ echo "fidelity: $DOC has no fidelity-matrix:begin/end markers" >&2; exit 2; }
if [ "${FIDELITY_RETAKE:-}" = 1 ]; then
	[ "$(id -u)" -eq 0 ] ||
		{ echo "fidelity: FIDELITY_RETAKE=1 needs root (the kernel runs and the host's measurements)" >&2; exit 2; }
	[ -z "${FIDELITY_MACHINE:-}" ] ||
		{ echo "fidelity: FIDELITY_RETAKE=1 measures the machine: not with FIDELITY_MACHINE" >&2; exit 2; }
	KEPT=$(mktemp -d /tmp/fidelity-before-retake.XXXXXX) || exit 1
	for f in kernel.jsonl profile profile-fit tlb_cost disk_bandwidth disk_write_bandwidth; do # the last two: the once-measured disk of older records
		[ ! -e "$DATA/$f" ] || mv "$DATA/$f" "$KEPT/" || exit 1
	done
	echo "fidelity: retaking: the old records and host figures are in $KEPT" >&2
fi
mkdir -p "$DATA" "$SIM" || exit 2
OUT=$(mktemp) || exit 1
trap 'rm -f "$OUT" "$OUT.new"' EXIT
trap 'exit 130' INT TERM

if [ -n "${FIDELITY_CASES:-}" ]; then
	[ "$FIDELITY_CASES" -ef "$DATA/cases.txt" ] || cp "$FIDELITY_CASES" "$DATA/cases.txt" || exit 2
else
	awk -v N="${FIDELITY_N:-48}" -v SEED="${FIDELITY_SEED:-38}" -f "$HERE/fidelity_cases.awk" >"$DATA/cases.txt" ||
		exit 2
fi

# The host's remote TLB flush cost, once (compare measures it itself when
# its cache has none, and keeps it only when the measurement worked: on
# a loaded host it may fail one time and not the next, and the simulated
# machine would change between two regenerations).
# Both it and the CPU costs below are the median of FIDELITY_CAL_RUNS
# measurements taken back to back before the kernel runs and as many
# again after them (tools/profile_median.sh), and the matrix simulated
# again on that: this guest's CPU ran a third slower for half a minute
# between two bursts of --calibrate on an idle host, while the kernel's
# runs held still (docs/fidelity.md, "One calibration is not the host"),
# so the host's figures sample the records' own period.
RUNS=${FIDELITY_CAL_RUNS:-3}
case $RUNS in '' | *[!0-9]* | 0) echo "fidelity: FIDELITY_CAL_RUNS must be a count, not '$RUNS'" >&2; exit 2 ;; esac
CAL=$(mktemp -d) || exit 1
trap 'rm -f "$OUT" "$OUT.new"; rm -rf "$CAL"' EXIT
MEASURED=""
# measure NAME CMD...: CMD FILE RUNS more times into $CAL/NAME.K, the
# median of all of NAME's runs so far into $DATA/NAME; false if a run
# failed.
measure() {
	name=$1
	shift
	k=$(ls "$CAL" | grep -c "^$name\.")
	i=1
	while [ $i -le "$RUNS" ]; do
		"$@" "$CAL/$name.$((k + i))" && [ -s "$CAL/$name.$((k + i))" ] || return 1
		i=$((i + 1))
	done
	# shellcheck disable=SC2046 # the runs' files, in order
	sh "$HERE/profile_median.sh" $(i=1; while [ $i -le $((k + RUNS)) ]; do echo "$CAL/$name.$i"; i=$((i + 1)); done) \
		>"$CAL/$name.tmp" && mv "$CAL/$name.tmp" "$DATA/$name" && MEASURED="$MEASURED $name"
}
tlb_cost() { $P kernel --tlb-cost 2>/dev/null | sed 's/--set //g' >"$1"; }
calibrate() { $P kernel --calibrate "$1" >/dev/null 2>&1; }
if [ ! -s "$DATA/tlb_cost" ]; then
	measure tlb_cost tlb_cost || exit 1
fi
# The disk: no rate measured once here.  Every kernel run compare takes
# is preceded and followed by a probe of the disk (pagelab kernel
# --disk-probe, src/native/diskprobe.c: 128 MiB written in 4 KiB calls
# and fsync()ed, read back cold in 1 MiB calls), kept in its record, and
# each case is simulated on the median of its runs' probes: this host's
# virtual disk wrote at 818 MB/s at 12:05 and 463-523 MB/s at 14:25 on
# 2026-12-07, and a rate measured once before 20 minutes of runs was the
# wrong disk for most cases (docs/fidelity.md, "The disk's rate, run by run").
# The simulated CPU costs are this host's (pagelab kernel --calibrate:
# microbenchmarks of the operations pagelab charges, docs/cost.md),
# measured at normal priority, the median of FIDELITY_CAL_RUNS runs, and
# kept with the records as a machine profile; FIDELITY_MACHINE=modern
# runs the preset.
if [ -z "${FIDELITY_MACHINE:-}" ] && [ ! -s "$DATA/profile" ]; then
	echo "fidelity: measuring this host's CPU costs (pagelab kernel --calibrate, $RUNS runs)" >&2
	measure profile calibrate || exit 1
fi
MACHINE=${FIDELITY_MACHINE:-$DATA/profile}
# The fault path fitted on a baseline (docs/fidelity.md, "The fault
# path fitted on a baseline"): the microbenchmarks' fault, clear and free
# costs charge usemem without pressure about three quarters of the
# system time the kernel takes for it, whatever the case.  One workload
# that is in no case of the matrix, run without pressure (FIT_WL in a
# 512M cgroup, five kernel runs, cached with the records), gives the
# ratio of the kernel's median system time to pagelab's on the profile,
# and cost.fault, cost.zero_page and cost.free_page (the only costs it
# charges) are scaled by it in FIDELITY_DATA/profile-fit, which the
# matrix then runs on; every other cost stays as measured.
FIT_CFG="--memcg 512M --swap 512M"
FIT_WL="usemem -n 1 -r 1 200m"
fit() {
	echo "fidelity: fitting the fault path on $FIT_WL without pressure" >&2
	# shellcheck disable=SC2086 # the configuration and workload are words
	$P compare $FIT_CFG --repeat 5 --policy linux6 --timeout 120 --machine "$DATA/profile" --kernel-cache "$DATA" \
		--sim-cache "$SIM" -- $FIT_WL >/dev/null || exit $?
	sh "$HERE/fidelity_fit.sh" "$DATA/profile" "$DATA/kernel.jsonl" "$SIM" "$FIT_CFG $FIT_WL" >"$DATA/profile-fit.tmp" &&
		mv "$DATA/profile-fit.tmp" "$DATA/profile-fit" || { rm -f "$DATA/profile-fit.tmp"; exit 1; }
}
if [ -z "${FIDELITY_MACHINE:-}" ] && [ ! -s "$DATA/profile-fit" ]; then
	fit
fi
[ -z "${FIDELITY_MACHINE:-}" ] && MACHINE=$DATA/profile-fit
case $MACHINE in */*) ;; *[!A-Za-z0-9_.-]*) echo "fidelity: bad FIDELITY_MACHINE" >&2; exit 2 ;; esac

matrix() {
	$P compare --matrix "$DATA/cases.txt" --repeat 3 --seeds 3 --policy "$POL" --floor 100 --timeout 120 \
		--machine "$MACHINE" --jobs "${FIDELITY_JOBS:-2}" --kernel-cache "$DATA" --sim-cache "$SIM" \
		--html "$DATA/heatmap.html" >"$OUT" || exit $?
}
matrix
# The host's figures measured here: as many runs again after the kernel
# runs, all of them merged, the fit redone, the matrix simulated again
# (its kernel runs cached).
if [ -n "$MEASURED" ]; then
	echo "fidelity: measuring$MEASURED again after the kernel runs ($RUNS runs each)" >&2
	case $MEASURED in *tlb_cost*) measure tlb_cost tlb_cost || exit 1 ;; esac
	case $MEASURED in *profile*) { measure profile calibrate && fit; } || exit 1 ;; esac
	matrix
fi

{
	echo
	echo "Generated by \`make fidelity\` (tools/fidelity.sh) from the $(grep -c "$(printf '\t')" "$DATA/cases.txt") cases of $DATA/cases.txt; the heat map is $DATA/heatmap.html." |
		fold -s -w 79 | sed 's/ $//'
	echo
	echo '```'
	cat "$OUT"
	echo '```'
} >"$OUT.new" && mv "$OUT.new" "$OUT"
awk -v gen="$OUT" '
	/^<!-- fidelity-matrix:begin -->$/ { print; while ((getline l < gen) > 0) print l; skip = 1; next }
	/^<!-- fidelity-matrix:end -->$/ { skip = 0 }
	!skip' "$DOC" >"$OUT.new" && cat "$OUT.new" >"$DOC"
echo "fidelity: $DOC updated" >&2
