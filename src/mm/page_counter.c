/* page_counter.c - effective memory.min / memory.low protection.
 *
 * Models 6.x mm/vmscan.c apply_proportional_protection() (the scan
 * target), and 6.x (6.11 on, where the code moved from mm/memcontrol.c; the
 * same arithmetic since 5.7's recursiveprot) mm/page_counter.c
 * effective_protection() and page_counter_calculate_protection(), and
 * mm/memcontrol.c mem_cgroup_calculate_protection(), which passes
 * cgrp_dfl_root's CGRP_ROOT_MEMORY_RECURSIVE_PROT as recursive_protection.
 * The children_{min,low}_usage sums the kernel keeps up to date on every
 * charge (propagate_protected_usage()) are recomputed here from the
 * nodes' usage, which gives the same figures for a quiescent tree.
 * Integer arithmetic in the kernel's order (unsigned long, 64 bits), so
 * the truncations are the kernel's. */
#include "page_counter.h"

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

uint64_t pc_effective_protection(uint64_t usage, uint64_t parent_usage, uint64_t setting,
				 uint64_t parent_effective, uint64_t siblings_protected,
				 bool recursiveprot)
{
	uint64_t protected = min_u64(usage, setting);
	uint64_t ep;

	/* Overcommitted: the parent's protection shared in proportion to
	 * each child's protected usage (work-conserving: claimed but
	 * unused protection is left to the siblings). */
	if (siblings_protected > parent_effective)
		return protected * parent_effective / siblings_protected;
	ep = protected;
	if (!recursiveprot)
		return ep;
	/* Floating protection the children do not claim goes to them in
	 * proportion to their unprotected usage. */
	if (parent_effective > siblings_protected && parent_usage > siblings_protected &&
	    usage > protected) {
		uint64_t unclaimed = parent_effective - siblings_protected;

		unclaimed *= usage - protected;
		unclaimed /= parent_usage - siblings_protected;
		ep += unclaimed;
	}
	return ep;
}

static bool in_subtree(const struct pc_node *n, int root, int i)
{
	while (i > root)
		i = n[i].parent;
	return i == root;
}

static bool well_formed(const struct pc_node *n, int nr, int root)
{
	if (root < 0 || root >= nr)
		return false;
	for (int i = 0; i < nr; i++)
		if (n[i].parent < -1 || n[i].parent >= i)
			return false;
	return true;
}

/* page_counter_calculate_protection() for node i, its parent's values
 * already computed (a top-down walk). */
static void calculate_one(struct pc_node *n, int root, int i, bool recursiveprot)
{
	struct pc_node *c = &n[i];
	const struct pc_node *p = &n[c->parent];

	c->emin = c->elow = 0;
	if (!c->usage)
		return;
	if (c->parent == root) {
		/* First level of this reclaim: the declared values, not
		 * capped by usage. */
		c->emin = c->min;
		c->elow = c->low;
		return;
	}
	c->emin = pc_effective_protection(c->usage, p->usage, c->min, p->emin,
					  p->children_min_usage, recursiveprot);
	c->elow = pc_effective_protection(c->usage, p->usage, c->low, p->elow,
					  p->children_low_usage, recursiveprot);
}

bool pc_calculate_protection(struct pc_node *n, int nr, int root, bool recursiveprot)
{
	if (!well_formed(n, nr, root))
		return false;
	for (int i = root; i < nr; i++)
		if (in_subtree(n, root, i))
			n[i].children_min_usage = n[i].children_low_usage = 0;
	/* Children come after their parents: sum from the end. */
	for (int i = nr - 1; i > root; i--) {
		if (!in_subtree(n, root, i))
			continue;
		n[n[i].parent].children_min_usage += min_u64(n[i].usage, n[i].min);
		n[n[i].parent].children_low_usage += min_u64(n[i].usage, n[i].low);
	}
	n[root].emin = n[root].elow = 0;
	for (int i = root + 1; i < nr; i++)
		if (in_subtree(n, root, i))
			calculate_one(n, root, i, recursiveprot);
	return true;
}

/* mem_cgroup_unprotected(): the root cgroup and the reclaim target. */
static bool unprotected(const struct pc_node *n, int root, int i)
{
	return n[i].parent < 0 || i == root;
}

bool pc_below_min(const struct pc_node *n, int root, int i)
{
	return !unprotected(n, root, i) && n[i].emin >= n[i].usage;
}

bool pc_below_low(const struct pc_node *n, int root, int i)
{
	return !unprotected(n, root, i) && n[i].elow >= n[i].usage;
}

uint64_t pc_scan_target(const struct pc_node *n, int root, int i, uint64_t scan, bool low_reclaim,
			bool *low_skipped)
{
	uint64_t min = unprotected(n, root, i) ? 0 : n[i].emin;
	uint64_t low = unprotected(n, root, i) ? 0 : n[i].elow;
	uint64_t protection, size;

	if (!min && !low)
		return scan;
	if (!low_reclaim && low > min) {
		protection = low;
		*low_skipped = true;
	} else {
		protection = min;
	}
	/* Pressure in proportion to the unprotected share of usage, not all
	 * or nothing at the protection's edge. */
	size = n[i].usage > protection ? n[i].usage : protection;
	scan -= scan * protection / (size + 1);
	return scan > 32 ? scan : 32; /* SWAP_CLUSTER_MAX: reclaim moves on */
}
