#!/bin/sh
# The error of pagelab mrc --shards-size (fixed-size SHARDS) against the
# exact LRU curve on a trace (default: the CloudPhysics sample in
# tests/data), over seeds 1-10 at each size S: the final sampling rates,
# the mean over seeds of the mean absolute error over the --auto sizes,
# and the largest error at any size and seed.  docs/mrc.md quotes it.
# Printed, never asserted.  PAGELAB names the binary.
# usage: sh bench/shards_size.sh [TRACE [S...]]
set -u
P=${PAGELAB:-build/pagelab}
TRACE=${1:-tests/data/cloudPhysicsIO.txt.zst}
[ $# -gt 0 ] && shift
SIZES=${*:-1500 2000 3000 4000 5000 8000}
printf '%6s  %-15s  %9s  %9s\n' S rate 'mean MAE' 'max error'
for s in $SIZES; do
	for seed in 1 2 3 4 5 6 7 8 9 10; do
		$P mrc --no-progress --seed "$seed" --shards-size "$s" --csv "$TRACE" >"${TMPDIR:-/tmp}/pagelab-shards.$$" ||
			exit 1
		# The final rate: the references sampled are not in the CSV, so
		# the JSON's figure is read instead (one run more).
		rate=$($P mrc --no-progress --policy none --seed "$seed" --shards-size "$s" --sizes 1p --json "$TRACE" |
			sed -n 's/.*"rate": \([0-9.e-]*\).*/\1/p' | head -1)
		awk -F, -v rate="$rate" '$2 == "exact" { e[$3] = $6 } $2 == "shards-size" { m[$3] = $6 }
			END { for (k in m) { d = m[k] - e[k]; if (d < 0) d = -d; if (d > mx) mx = d; sum += d; n++ }
			      printf "%s %.6f %.6f\n", rate, sum / n, mx }' "${TMPDIR:-/tmp}/pagelab-shards.$$"
	done | awk -v s="$s" '{ if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1; mae += $2; if ($3 > mx) mx = $3 }
		END { printf "%6d  %6.4f-%6.4f  %9.4f  %9.4f\n", s, lo, hi, mae / NR, mx }'
done
rm -f "${TMPDIR:-/tmp}/pagelab-shards.$$"
