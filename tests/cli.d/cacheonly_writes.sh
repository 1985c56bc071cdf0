# cacheonly_writes.sh - the cache-only replay's write-backs are reclaim's
# pageout() writes, counted in nr_vmscan_write as the full machine counts
# them (src/mm/cachepage.h, cache_drop()).  Sourced by tests/cli_area.sh:
# uses P, T, t, ok, bad.  Cost: under 1 s.

# LRU in 2 frames on 1w 2 3 1 2w 3 1: 7 misses, 5 evictions, of 1
# (written), 2 and 3 (never stored yet), 1 (read back unchanged: its copy
# is stored, no write) and 2 (written): 4 writes on both paths.
printf '1 w\n2 r\n3 r\n1 r\n2 w\n3 r\n1 r\n' >"$T/w.trace"
t "cache-only: nr_vmscan_write = pswpout = 4, as full machine"
$P run --machine ideal --ram 2p --policy lru trace "$T/w.trace" >"$T/c" 2>&1
$P run --machine ideal --ram 2p --policy lru --full-machine trace "$T/w.trace" >"$T/f" 2>&1
got=""
for f in c f; do
	got="$got $f:$(counter pgfault "$T/$f")/$(counter pswpout "$T/$f")/$(counter nr_vmscan_write "$T/$f")"
done
grep -q 'cache-only replay' "$T/c" && ! grep -q 'cache-only replay' "$T/f" &&
	[ "$got" = " c:7/4/4 f:7/4/4" ] && ok || bad "pgfault/pswpout/nr_vmscan_write:$got"

# --json stays on the replay with --warmup (docs/trace-format.md)
t "cache-only replay --json: nr_vmscan_write 4"
$P run --machine ideal --ram 2p --policy lru --json --warmup 1 trace "$T/w.trace" >"$T/j" 2>&1
grep -q '"replay": "cache-only"' "$T/j" && grep -q '"nr_vmscan_write": 4[,}]' "$T/j" &&
	grep -q '"pswpout": 4[,}]' "$T/j" && ok \
	|| bad "$(grep -o '"nr_vmscan_write": [0-9]*' "$T/j")"
