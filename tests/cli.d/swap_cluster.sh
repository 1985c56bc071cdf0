# --set swap.cluster=1 (issue 40, docs/zram.md): 6.18's cluster slot
# allocator beside the next-fit one; off, nothing changes; swap.discard,
# swap_reclaim_full_clusters().  About 1.5 s.

t "swap.cluster=0 is the default: the same bytes"
$P run --ram 128M --memcg 16M --swap 64M qsbench -m 24 >"$T/a" 2>&1
$P run --ram 128M --memcg 16M --swap 64M --set swap.cluster=0 qsbench -m 24 >"$T/b" 2>&1
cmp -s "$T/a" "$T/b" && ! grep -q '^# swap clusters' "$T/a" && ok || bad "differs"

t "swap.cluster=1: the lists at the end, fragmented mid-run"
$P run --ram 128M --memcg 16M --swap 64M --set swap.cluster=1 --max-time 1.5 qsbench -m 24 -p 2 >"$T/c" 2>&1
rc=$?
# 64M = 16384 slots + the header: 33 clusters, the last of 1 offset
n=$(( $(counter clusters_free "$T/c") + $(counter clusters_nonfull "$T/c") +
	$(counter clusters_frag "$T/c") + $(counter clusters_full "$T/c") ))
[ $rc -eq 3 ] && [ "$n" -eq 33 ] && [ "$(counter clusters_full "$T/c")" -gt 0 ] &&
	[ "$(counter free_slots_scattered "$T/c")" -gt 0 ] && ok ||
	bad "exit $rc, $n clusters: $(grep -E '^(clusters|free_slots)' "$T/c" | tr '\n' ' ')"

# at the end every slot is free: 31 free clusters, and nonfull cluster
# 0 (the header) and cluster 32 (one offset, 511 past the end), which
# setup_clusters() marks taken for good: 511 + 1 slots scattered
t "swap.cluster=1: the same run twice, byte-identical; --json has its object"
$P run --ram 128M --memcg 16M --swap 64M --set swap.cluster=1 --max-time 1.5 qsbench -m 24 -p 2 >"$T/d" 2>&1
$P run --ram 128M --memcg 16M --swap 64M --set swap.cluster=1 --json qsbench -m 24 >"$T/j" 2>/dev/null
cmp -s "$T/c" "$T/d" && grep -q '"swap_clusters": {"clusters_free": 31, "clusters_nonfull": 2, "clusters_frag": 0, "clusters_full": 0, "free_slots_scattered": 512' "$T/j" && ok || bad "differs or no json"

# swap.discard=1 (swapon --discard=pages): on an SSD each emptied
# cluster waits for its discard; the run's exit empties them all, and
# the worker discards one at a time, so most are still waiting at the
# end: 32M = 8192 slots + the header, 17 clusters
t "swap.discard: without swap.cluster one line, exit 2; on an SSD discards, lists add up"
R="--machine modern --ram 64M --memcg 8M"
$P run $R --swap 32M --set swap.discard=1 usemem -n 2 -Z 12m >"$T/e" 2>&1
rc=$?
$P run $R --swap 32M --set swap.cluster=1 --set swap.discard=1 usemem -n 2 -Z 12m >"$T/f" 2>&1
n=$(( $(counter clusters_free "$T/f") + $(counter clusters_nonfull "$T/f") + $(counter clusters_frag "$T/f") +
	$(counter clusters_full "$T/f") + $(counter clusters_discard "$T/f") ))
[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ "$n" -eq 17 ] && [ "$(counter discards "$T/f")" -gt 0 ] &&
	[ "$(counter clusters_discard "$T/f")" -gt 0 ] && ok ||
	bad "exit $rc, $n clusters: $(grep -E '^(clusters|discard)' "$T/f" | tr '\n' ' ')"

t "swap.discard: a rotating disk takes no discards (swapon ignores it): the same bytes"
$P run --ram 64M --memcg 8M --swap 32M --set swap.cluster=1 usemem -n 2 -Z 12m >"$T/g" 2>&1
$P run --ram 64M --memcg 8M --swap 32M --set swap.cluster=1 --set swap.discard=1 usemem -n 2 -Z 12m >"$T/h" 2>&1
cmp -s "$T/g" "$T/h" && ! grep -q '^discards' "$T/h" && ok || bad "differs"

# 4500K: past half full with every list drained the allocator scans a
# full cluster (swap_reclaim_full_clusters(si, false)); 4M fills the
# area, which schedules swap_reclaim_work() (force).  Nothing is freed
# here: a page swapped in while the area is past half full gives its
# slot back at once (aspace.c), and one swapped in before is evicted
# again (its slot referenced) by the time the area fills.
t "swap.cluster: a filling area reclaims full clusters' swap cache"
$P run $R --swap 4500K --set swap.cluster=1 usemem -n 2 -Z 6m >"$T/i" 2>&1
$P run $R --swap 4M --set swap.cluster=1 usemem -n 2 -Z 6m >"$T/k" 2>&1
[ "$(counter reclaim_full_works "$T/i")" -eq 0 ] && [ "$(counter reclaim_full_scans "$T/i")" -gt 0 ] &&
	[ "$(counter reclaim_full_works "$T/k")" -gt 0 ] && ok ||
	bad "$(grep -h '^reclaim_full' "$T/i" "$T/k" | tr '\n' ' ')"
