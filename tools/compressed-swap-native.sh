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
# CSWAP_DATA (default docs/compressed-swap-data) and CSWAP_CASES (default
# its cases.txt) name other records and cases, CSWAP_OPTS adds compare
# options (tests/cli.d/cswap_records.sh: the records' host's settings).
set -e
P=${PAGELAB:-build/pagelab}
D=${CSWAP_DATA:-docs/compressed-swap-data}
CASES=${CSWAP_CASES:-$D/cases.txt}
SIM=${CSWAP_SIM_CACHE:-build/compressed-swap-sim}
O="--policy linux6 --machine docs/fidelity-data/profile --ram 1G --repeat 5 --timeout 120"
O="$O --kernel-cache $D --sim-cache $SIM ${CSWAP_OPTS:-}"
# A record is found by its command, which names the executor's revision
# (NATIVE_EXECUTOR_REV): a pagelab whose executor has moved on would find
# none and take every run again on the kernel, as root.  Refused instead,
# in one line, unless CSWAP_RERUN=1 asks for new runs.  This pagelab's
# revision is in the command sweep --list gives a kernel cell.
rev=$("$P" sweep --executor kernel --memcg 256M --swap 512M --list -- usemem -m 1 |
	sed -n 's/.* # run 1, executor \([0-9][0-9]*\)$/\1/p')
held=$(sed -n 's/^{"cell": [0-9]*, "cmd": "[^"]* # run [0-9]*, executor \([0-9][0-9]*\)".*/\1/p' "$D/kernel.jsonl" |
	sort -u | tr '\n' ' ')
if [ "${CSWAP_RERUN:-}" != 1 ] && [ "$held" != "$rev " ]; then
	echo "compressed-swap-native: $D/kernel.jsonl has runs of executor ${held% }, this pagelab's is ${rev:-unknown}: not taking them again (CSWAP_RERUN=1, as root, does)" >&2
	exit 2
fi
mkdir -p "$SIM"
# shellcheck disable=SC2086
"$P" compare --matrix "$CASES" $O
tab=$(printf '\t')
while IFS="$tab" read -r name args; do
	printf '\n== %s\n' "$name"
	# shellcheck disable=SC2086
	"$P" compare $O $args
done <"$CASES"
