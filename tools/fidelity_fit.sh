#!/bin/sh
# fidelity_fit.sh PROFILE KERNEL_JSONL SIM_DIR CONFIG - the profile with
# its fault path fitted on a baseline (tools/fidelity.sh): CONFIG is the
# baseline's compare configuration and workload ("--memcg 512M --swap
# 512M usemem ..."), its kernel runs in KERNEL_JSONL and pagelab's run on
# PROFILE in SIM_DIR's records (compare's caches).  The ratio of the
# kernel's median system time to pagelab's scales cost.fault,
# cost.zero_page and cost.free_page, each under a line saying so; the
# rest of PROFILE is copied as it is.  Prints the new profile; exit 1 if
# a side has no runs or too little system time to fit on.
set -u
[ $# -eq 4 ] || { echo "usage: fidelity_fit.sh PROFILE KERNEL_JSONL SIM_DIR CONFIG" >&2; exit 2; }
PROF=$1 KJ=$2 SIMD=$3 CFG=$4
# The records' top-level sys_s (the first: the workloads' own follow).
first_sys() { awk '{ i = index($0, "\"sys_s\": "); if (i) { v = substr($0, i + 9); sub(/[,}].*/, "", v); print v } }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
ks=$(grep -F "\"config\": \"$CFG\"" "$KJ" | grep -F '"design": "kernel"' | first_sys | median)
# pagelab's run: the newest record of the baseline's workload on PROFILE
# (the config holds the machine, its settings and the workload).
mem=$(printf '%s\n' "$CFG" | sed -n 's/^--memcg \([^ ]*\) .*/\1/p')
wl=$(printf '%s\n' "$CFG" | sed 's/^--memcg [^ ]* --swap [^ ]* //; s/^--set [^ ]* //g')
ss=$(cat "$SIMD"/sim-*.jsonl 2>/dev/null | grep -F -- "\"config\": \"--machine $PROF " |
	grep -F -- " --memcg $mem " | grep -F -- " $wl\"" | tail -1 | first_sys)
n=$(grep -F "\"config\": \"$CFG\"" "$KJ" | grep -cF '"design": "kernel"')
[ -n "$ks" ] && [ -n "$ss" ] || { echo "fidelity_fit: no runs of '$CFG' (kernel: ${ks:-none}, pagelab: ${ss:-none})" >&2; exit 1; }
awk -v k="$ks" -v s="$ss" -v n="$n" -v cfg="$CFG" -v prof="$PROF" '
	BEGIN { if (s < 0.05 || k < 0.05) { print "fidelity_fit: too little system time to fit on" > "/dev/stderr"; exit 1 }
		r = k / s }
	/^cost\.(fault|zero_page|free_page) = [0-9]+ns$/ {
		name = $1; v = $3; sub(/ns$/, "", v)
		printf "# (fitted on a baseline: %s x %.3f, the kernel'"'"'s median system time\n", v "ns", r
		printf "#   over pagelab'"'"'s on %s, %.3f s / %.3f s,\n", prof, k, s
		printf "#   %d kernel runs of `pagelab compare %s`,\n", n, cfg
		printf "#   no pressure: tools/fidelity.sh, docs/fidelity.md)\n"
		printf "%s = %dns\n", name, v * r + 0.5
		next }
	{ print }' "$PROF"
