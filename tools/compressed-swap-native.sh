#!/bin/sh
# tools/compressed-swap-native.sh - docs/compressed-swap.exp's native
# side: the simulation against this host's kernel on disk swap and zram
# (docs/zram.md, "Against the native runs").  Each case of
# docs/compressed-swap-data/cases.txt runs as `pagelab compare` does:
# the kernel's runs are the records in docs/compressed-swap-data/
# kernel.jsonl (taken as root with this script; with them all there it
# needs no root and runs only the simulator), pagelab's on linux6 with
# this host's calibrated costs (docs/fidelity-data/profile) and 1 GB of
# RAM (the host's zram pool has the host's free memory beside the
# cgroup; 384 MB, compare's default, would leave it 64 MB).  Prints the
# matrix's strict count and time table, then each case's counters
# (zram's mm_stat among them).  make compressed-swap-native.
set -e
P=${PAGELAB:-build/pagelab}
D=docs/compressed-swap-data
SIM=${CSWAP_SIM_CACHE:-build/compressed-swap-sim}
O="--policy linux6 --machine docs/fidelity-data/profile --ram 1G --repeat 5 --timeout 120"
O="$O --kernel-cache $D --sim-cache $SIM"
mkdir -p "$SIM"
# shellcheck disable=SC2086
"$P" compare --matrix "$D/cases.txt" $O
tab=$(printf '\t')
while IFS="$tab" read -r name args; do
	printf '\n== %s\n' "$name"
	# shellcheck disable=SC2086
	"$P" compare $O $args
done <"$D/cases.txt"
