#!/bin/sh
# make bench, miss-ratio curves: the speed of pagelab mrc's exact LRU pass
# (stack distances) and of SHARDS, on a random trace over 10^6 pages in
# pagelab's binary format.  Printed, never asserted.  PAGELAB and GENTRACE
# name the binaries; BENCH_MRC_REFS the trace's length (default 20 M).
set -u
P=${PAGELAB:-./pagelab}
GENTRACE=${GENTRACE:-build/bench/gentrace}
N=${BENCH_MRC_REFS:-20000000}
T=$(mktemp -d "${TMPDIR:-/tmp}/pagelab-bench-mrc.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# A trap that did not exit would let the script go on after ^C or a kill.
trap 'exit 130' INT
trap 'exit 143' TERM
[ -x /usr/bin/time ] || { echo "== mrc: /usr/bin/time (Debian's time) is needed for these figures"; exit 0; }

$GENTRACE 1000000 "$N" 3 | $P trace convert - "$T/z.pgtrace" 2>/dev/null
echo "== mrc: $N uniform random references over 10^6 pages (binary), 24 sizes"
for opts in "--policy lru" "--policy none --shards-rate 0.01" "--policy none --shards-rate 0.001" \
	"--policy none --shards-size 8192" "--policy lru --shards-rate 0.01"; do
	# shellcheck disable=SC2086
	/usr/bin/time -f '%U %S %M' -o "$T/t" $P mrc --no-progress --json $opts "$T/z.pgtrace" >"$T/o" 2>&1
	mae=$(sed -n 's/.*"mae": \([0-9.e-]*\).*/\1/p' "$T/o" | head -1)
	awk -v n="$N" -v o="$opts" -v mae="${mae:-}" '{ s = $1 + $2; if (s <= 0) s = 0.005;
		printf "   %-33s %6.2f M refs/s, max RSS %6d KiB\n", o, n / s / 1e6, $3
		if (mae != "") printf "   %-33s MAE %s\n", "", mae }' "$T/t"
done

# Lockstep: every simulated policy x size is a whole cache held at once
# (its frames, its page table over every page of the trace, the policy's
# own tables), so the host memory grows with sizes x policies.
NL=${BENCH_MRC_LOCKSTEP_REFS:-3000000}
$GENTRACE --out bin 1000000 "$NL" 3 >"$T/l.pgtrace"
echo "== mrc: lockstep, --policy lru,clock,arc --auto,"
echo "   $NL random references to 10^6 pages"
/usr/bin/time -f '%U %S %M' -o "$T/t" $P mrc --no-progress --jobs 1 --policy lru,clock,arc --auto "$T/l.pgtrace" >"$T/o" 2>&1
awk -v n="$NL" 'NR == FNR { if ($1 ~ /^[0-9]/ && NF == 8) { sizes++; frames += $2 } next }
	{ s = $1 + $2; if (s <= 0) s = 0.005
	  printf "   %d sizes x 2 simulated policies: %.2f M references/s\n", sizes, n / s / 1e6
	  printf "   (each to %d caches), max RSS %d KiB:\n", 2 * sizes, $3
	  printf "   %.0f host bytes per simulated frame (%d frames in all; each cache\n", $3 * 1024 / (2 * frames), 2 * frames
	  printf "   also holds a page table over every page, 8 bytes a page)\n" }' "$T/o" "$T/t"

