# --set swap.cluster=1 (issue 40, docs/zram.md): 6.18's cluster slot
# allocator beside the next-fit one; off, nothing changes.  About 1 s.

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
