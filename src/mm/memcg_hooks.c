/* memcg_hooks.c - where the protection and memory.high code plugs into
 * the cgroup tree (cgtree.c); stubs until it does.
 *
 * memcg_protection(): 6.6 mm/vmscan.c shrink_node_memcgs() calls
 * mem_cgroup_calculate_protection(target, memcg) and then skips a memcg
 * mem_cgroup_below_min() or (without memcg_low_reclaim)
 * mem_cgroup_below_low() says is protected: usage <= its effective
 * memory.min / memory.low (mm/memcontrol.c effective_protection()).
 * cgtree_skip() asks this for the cgroup of every page limit or global
 * reclaim would take; 0 protects nothing.
 *
 * memcg_handle_over_high(): 6.6 mm/memcontrol.c
 * mem_cgroup_handle_over_high(), run on the return to user space of a
 * task whose charge left a cgroup above memory.high (reclaim_high() and
 * the penalty sleep); mm_alloc_page() calls it after each charge. */
#include "internal.h"

uint64_t memcg_protection(struct mm *mm, int cg, bool low)
{
	(void)mm;
	(void)cg;
	(void)low;
	return 0;
}

void memcg_handle_over_high(struct mm *mm, struct mm_ctx *ctx, int cg)
{
	(void)mm;
	(void)ctx;
	(void)cg;
}
