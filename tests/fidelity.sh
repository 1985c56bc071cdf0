#!/bin/sh
# fidelity.sh DOC - regenerate the tables of DOC (docs/fidelity.md) between
# its "<!-- fidelity:begin -->" and "<!-- fidelity:end -->" lines: pagelab
# compare on this host for each case of issue 10, with and without memory
# pressure.  Real-kernel runs, one at a time (pagelab kernel's lock), each
# in a cgroup of its own far below half of RAM.
#   FIDELITY_REPEAT    kernel runs per case (default 3; 5, with pagelab
#                      over 5 seeds, for the two cases that are noisy in the
#                      kernel too: qsbench under pressure, and the stream
#                      beside a working set, whose anonymous scan depends on
#                      where the periodic memcg stats flush falls)
#   FIDELITY_POLICIES  default linux6,workingset,mglru
#   FIDELITY_KERNEL_CACHE  directory keeping each case's kernel runs' records
#                      (default build/fidelity-kernel): a case whose kernel
#                      command is unchanged is not run again, so the
#                      simulator side can be rerun alone.  make
#                      fidelity-cases empties it first; make
#                      fidelity-cases-sim keeps it.
#   FIDELITY_CASES     only the cases whose title contains this text (or
#                      one of A|B|...) are run; the other cases' tables are
#                      kept as DOC has them, and the header says which were
#                      run again
#   FIDELITY_JOBS      simulator runs at once (default 2)
#   FIDELITY_CACHED=1  never run the kernel: each case uses the kernel runs
#                      its cache holds (the tables say how many; a case with
#                      none is listed as not measured)
#   FIDELITY_SEEDED_ONLY=1  in the cases over several seeds, only the first
#                      policy (each qsbench simulation is minutes of host
#                      CPU; on a loaded host, tens of minutes)
#   FIDELITY_SIM_CACHE the simulator's reports (default build/fidelity-sim),
#                      keyed by command and pagelab version: empty it after
#                      editing a -dirty tree.  Instances of this script over
#                      disjoint FIDELITY_CASES can fill it side by side.
# About 30 minutes of kernel runs from an empty cache, and the simulator's
# qsbench runs take minutes each on a loaded host; seconds with full caches.
set -u
P=${PAGELAB:-./pagelab}
DOC=${1:-docs/fidelity.md}
N=${FIDELITY_REPEAT:-3}
NQ=${FIDELITY_REPEAT:-5}
POL=${FIDELITY_POLICIES:-linux6,workingset,mglru}
CACHE=${FIDELITY_KERNEL_CACHE:-build/fidelity-kernel}
JOBS=${FIDELITY_JOBS:-2}
SIMCACHE=${FIDELITY_SIM_CACHE:-build/fidelity-sim}
[ "$(id -u)" -eq 0 ] || { echo "fidelity: needs root (pagelab kernel)" >&2; exit 2; }
grep -q '^<!-- fidelity:begin -->$' "$DOC" && grep -q '^<!-- fidelity:end -->$' "$DOC" ||
	{ echo "fidelity: $DOC has no fidelity:begin/end markers" >&2; exit 2; }
mkdir -p "$CACHE" "$SIMCACHE" || exit 2
OUT=$(mktemp) || exit 1
trap 'rm -f "$OUT" "$OUT.new" "$OUT.all" "$OUT.cal"' EXIT
trap 'exit 130' INT TERM
ncase=0

# The simulated disk is each case's own: compare's kernel runs probe the
# disk before and after each run and simulate the case on the median of
# those rates (docs/native.md, "The disk, probed before and after each
# run"): this host's virtual disk moved 2-4x within a day, so one rate
# measured before 30 minutes of runs was the wrong disk for most of them.

# What a remote TLB flush costs on this host (reclaim interrupts the other
# CPUs before it writes a mapped page: src/mm/reclaim.c), measured once and
# kept in the cache, so that the simulator's runs are the same
# commands from one regeneration to the next.
if [ ! -s "$CACHE/tlb_cost" ]; then
	echo "fidelity: measuring the host's remote TLB flush" >&2
	$P kernel --tlb-cost >"$CACHE/tlb_cost.tmp" && mv "$CACHE/tlb_cost.tmp" "$CACHE/tlb_cost" ||
		{ echo "fidelity: could not measure the host's remote TLB flush" >&2; exit 1; }
fi
TLB=$(cat "$CACHE/tlb_cost")

# compare_ REPEAT SEEDS CACHEDIR POLICIES WORKLOAD...: one pagelab compare
# (with the CPU costs of the last calibrate_on, CAL, if any).
CAL="" CALNOTE=""
compare_() {
	rep=$1 seeds=$2 dir=$3 pols=$4
	shift 4
	# shellcheck disable=SC2086 # CAL and TLB are lists of --set arguments
	if ! $P compare --repeat "$rep" --seeds "$seeds" --floor 100 --jobs "$JOBS" --kernel-cache "$dir" --sim-cache "$SIMCACHE" \
		$CAL $TLB --memcg "$memcg" --swap "$swap" --policy "$pols" --timeout 900 -- "$@" 2>&1; then
		echo "(pagelab compare failed)"
	fi
}

# cpu_times FILE...: the median user and system seconds of the time(1) lines
# ("... 9.09s user 2.02s system 196% cpu 5.642 total") in FILEs.
cpu_times() {
	for f in "$@"; do grep -m1 ' total$' "$f"; done | awk '
		{ for (i = 2; i <= NF; i++) { if ($i == "user") u[++n] = $(i - 1) + 0; if ($i == "system") y[n] = $(i - 1) + 0 } }
		function med(a,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { if (n) printf "%.2f %.2f\n", med(u), med(y) }'
}

# record_times FILE: the median user and system seconds of the records of
# a records file (compare's kernel cache: each line's first "user_s" and
# "sys_s" are the run's, its workloads' come after).
record_times() {
	[ -s "$1" ] || return 0
	awk 'match($0, /"user_s": [0-9.e+-]+/) { u[++n] = substr($0, RSTART + 10, RLENGTH - 10) + 0
		if (match($0, /"sys_s": [0-9.e+-]+/)) y[n] = substr($0, RSTART + 9, RLENGTH - 9) + 0 }
		function med(a,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		END { if (n) printf "%.2f %.2f\n", med(u), med(y) }' "$1"
}

# calibrate_on NCASE MEMCG SWAP REPEAT WORKLOAD...: the CPU of this host,
# fitted on the workload's run without pressure (case NCASE, whose kernel
# runs are made here if not cached) and used to predict the run with
# pressure: CAL gets cost.ref scaled by the kernel's user time over
# pagelab's with the modern profile's costs, and every system-time cost
# (faults, page clearing and copying, reclaim's scan and rmap, I/O
# submission and completion) by the kernel's system time over pagelab's.
# Only where the kernel's baseline runs at least a second of user time:
# a shorter one (usemem, mtest01, the stream) is too noisy to fit.
# CALNOTE says what was fitted, for the case's table.
calibrate_on() {
	bdir=$CACHE/$1 bmemcg=$2 bswap=$3 brep=$4
	shift 4
	CAL="" CALNOTE=""
	mkdir -p "$bdir"
	if [ "${FIDELITY_CACHED:-0}" != 1 ]; then
		# shellcheck disable=SC2086 # TLB is a list of --set arguments
		$P compare --repeat "$brep" --kernel-cache "$bdir" --sim-cache "$SIMCACHE" $TLB \
			--memcg "$bmemcg" --swap "$bswap" --policy linux6 --timeout 900 -- "$@" >/dev/null 2>&1 || return 0
	fi
	kt=$(record_times "$bdir/kernel.jsonl")
	[ -n "$kt" ] || return 0
	st=$($P run --machine modern --cpus "$(nproc)" --ram "$((${bmemcg%M} * 5 / 4 + 64))M" --swap "$bswap" \
		--memcg "$bmemcg" --policy linux6 --no-progress "$@" 2>/dev/null >"$OUT.cal" &&
		cpu_times "$OUT.cal")
	[ -n "$st" ] || return 0
	CAL=$($P machines --show modern | awk -v k="$kt" -v s="$st" '
		BEGIN { split(k, kk, " "); split(s, ss, " ")
			if (kk[1] < 1 || ss[1] <= 0 || ss[2] <= 0) exit
			u = kk[1] / ss[1]; y = kk[2] / ss[2] }
		$1 ~ /^cost\./ && $1 != "cost.syscall" && $1 !~ /^cost\.tlb_ipi/ {
			v = $2; m = 1
			if (v ~ /ms$/) m = 1e6; else if (v ~ /us$/) m = 1e3; else if (v ~ /ps$/) m = 1e-3
			sub(/[a-z]+$/, "", v); ns = v * m
			if ($1 == "cost.ref") printf " --set cost.ref=%dps", ns * 1000 * u + 0.5
			else printf " --set %s=%dns", $1, ns * y + 0.5 }')
	[ -n "$CAL" ] && CALNOTE="CPU fitted on the case without pressure (kernel median ${kt% *} s user, ${kt#* } s system; pagelab with modern's costs ${st% *} s, ${st#* } s):$CAL"
}

# selected TITLE: FIDELITY_CASES is unset, or one of its |-separated
# texts is part of TITLE.
selected() {
	[ -z "${FIDELITY_CASES:-}" ] && return 0
	rest=$FIDELITY_CASES
	while :; do
		one=${rest%%|*}
		case "$1" in *"$one"*) return 0 ;; esac
		[ "$one" = "$rest" ] && return 1
		rest=${rest#*|}
	done
}

# keep_case TITLE: the case's section as DOC has it (from its "### TITLE"
# line to the next case or the end of the tables).
keep_case() {
	awk -v t="### $1" '
		/^<!-- fidelity:end -->$/ { p = 0 }
		/^### / { p = ($0 == t); if (p) print "" }
		p && !NF { blank++; next }
		p { for (; blank; blank--) print ""; print }' "$DOC" >>"$OUT"
}

# case_ TITLE MEMCG SWAP REPEAT SEEDS WORKLOAD...: with SEEDS > 1 only the
# first policy (linux6, whose bar it is) runs over SEEDS seeds, the others
# over one (a qsbench run is minutes of host time); the kernel runs are
# shared through the cache.
case_() {
	title=$1 memcg=$2 swap=$3 rep=$4 seeds=$5
	shift 5
	ncase=$((ncase + 1))
	if ! selected "$title"; then
		keep_case "$title"
		return
	fi
	echo "fidelity: $title" >&2
	mkdir -p "$CACHE/$ncase"
	if [ "${FIDELITY_CACHED:-0}" = 1 ]; then
		have=$(grep -c '"executor": "kernel"' "$CACHE/$ncase/kernel.jsonl" 2>/dev/null)
		have=${have:-0}
		if [ "$have" -lt 1 ]; then
			printf '\n### %s\n\n(no kernel run was cached: not measured in this regeneration)\n' "$title" >>"$OUT"
			return
		fi
		[ "$have" -lt "$rep" ] && rep=$have
	fi
	{
		echo
		echo "### $title"
		echo
		[ -n "$CALNOTE" ] && echo "$CALNOTE" | fold -s -w 79 | sed 's/ $//' && echo
		echo '```'
		if [ "$seeds" -gt 1 ]; then
			compare_ "$rep" "$seeds" "$CACHE/$ncase" "${POL%%,*}" "$@"
			case "${FIDELITY_SEEDED_ONLY:-0}$POL" in 1*)
				echo
				echo "(${POL#*,}: not run for this case in this regeneration)" ;;
			0*,*)
				echo
				compare_ "$rep" 1 "$CACHE/$ncase" "${POL#*,}" "$@" | sed -n '/^# policy/,$p' ;;
			esac
		else
			compare_ "$rep" 1 "$CACHE/$ncase" "$POL" "$@"
		fi
		echo '```'
	} >>"$OUT"
}

{
	echo
	echo "Generated by \`make fidelity-cases\` on $(date -u +%Y-%m-%d), Linux $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo) RAM,"
	echo "$(test -e /sys/kernel/mm/lru_gen/enabled && echo MGLRU || echo 'classic split LRU'), swappiness $(cat /proc/sys/vm/swappiness), page-cluster $(cat /proc/sys/vm/page-cluster), cgroup v$(test -e /sys/fs/cgroup/cgroup.controllers && echo 2 || echo 1),"
	echo "$N kernel runs per case ($NQ for qsbench and the stream under pressure, with ${POL%%,*} over $NQ seeds), pagelab $($P --version | cut -d' ' -f2);"
	if [ -n "${FIDELITY_CASES:-}" ]; then
		echo "Run again in this regeneration, on the pagelab above: the cases whose title contains \"$(echo "$FIDELITY_CASES" | sed 's/|/" or "/g')\"; the other cases' tables are kept from the one before, whose header was:" |
			fold -s -w 79 | sed 's/ $//'
		awk '/^<!-- fidelity:begin -->$/ { p = 1; next } p && /^$/ && n { exit } p && NF { n++; print "> " $0 }' "$DOC"
	fi
	echo "the simulated disk: modern's NVMe at the median rates of each case's disk probes."
} >"$OUT"
case_ "usemem -m 1000 in a 900 MB cgroup, 1 GB swap" 900M 1G "$N" 1 usemem -m 1000
case_ "usemem -m 1000 without pressure (1200 MB cgroup)" 1200M 1G "$N" 1 usemem -m 1000
case_ "mtest01: 4 children writing 512 MB in a 384 MB cgroup" 384M 1G "$N" 1 \
	mtest01 --fork --children 4 -b 512M -w
case_ "mtest01: the same 512 MB without pressure (768 MB cgroup)" 768M 1G "$N" 1 \
	mtest01 --fork --children 4 -b 512M -w
if selected "qsbench -p 4 -m 230 --distinct"; then
	calibrate_on $((ncase + 2)) 1200M 1G "$N" qsbench -p 4 -m 230 --distinct
fi
case_ "qsbench -p 4 -m 230 --distinct in an 836 MB cgroup" 836M 1G "$NQ" "$NQ" qsbench -p 4 -m 230 --distinct
case_ "qsbench -p 4 -m 230 --distinct without pressure (1200 MB cgroup)" 1200M 1G "$N" 1 \
	qsbench -p 4 -m 230 --distinct
CAL="" CALNOTE=""
case_ "2 GB sequential read beside a 200 MB working set, 512 MB cgroup" 512M 1G "$NQ" "$NQ" \
	dd if=big bs=1M count=2048 + workingset -m 200 -t 100 -n 20
case_ "the same read and working set without pressure (3 GB cgroup)" 3G 1G "$N" 1 \
	dd if=big bs=1M count=2048 + workingset -m 200 -t 100 -n 20

# The header, the summary, then every table.
{
	sed -n '1,/^the simulated disk/p' "$OUT"
	echo
	echo "#### Summary: the key counters (pages), kernel median beside each policy"
	echo
	awk -f "$(dirname "$0")/fidelity_summary.awk" "$OUT"
	sed '1,/^the simulated disk/d' "$OUT"
} >"$OUT.all" && mv "$OUT.all" "$OUT"

awk -v gen="$OUT" '
	/^<!-- fidelity:begin -->$/ { print; while ((getline l < gen) > 0) print l; skip = 1; next }
	/^<!-- fidelity:end -->$/ { skip = 0 }
	!skip' "$DOC" >"$OUT.new" && mv "$OUT.new" "$DOC"
echo "fidelity: $DOC updated" >&2
