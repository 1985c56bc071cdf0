/* page_counter.h - memory.min / memory.low effective protection over a
 * cgroup tree, as 6.x reclaim computes it (mm/page_counter.c
 * page_counter_calculate_protection(), effective_protection(); mm/
 * memcontrol.c mem_cgroup_calculate_protection(); include/linux/
 * memcontrol.h mem_cgroup_below_min/low()).  Pure arithmetic on a small
 * array of nodes: the cgroup tree (src/mm/memcg.c) fills usage/min/low,
 * calls pc_calculate_protection() from the reclaim root down, and reads
 * emin/elow back. */
#ifndef PAGELAB_MM_PAGE_COUNTER_H
#define PAGELAB_MM_PAGE_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/* One cgroup's page_counter.  parent: index of the parent node, -1 for
 * the tree's top (the root cgroup).  Parents come before their children
 * in the array (parent < own index), as a pre-order walk
 * (mem_cgroup_iter) visits them.  Counts are pages. */
struct pc_node {
	int parent;
	uint64_t usage;         /* page_counter_read(): hierarchical usage */
	uint64_t min, low;      /* memory.min, memory.low as set */
	uint64_t emin, elow;    /* out: effective protection */
	/* out: the sum over the children of min(usage, min) and of
	 * min(usage, low): propagate_protected_usage()'s
	 * children_min_usage / children_low_usage. */
	uint64_t children_min_usage, children_low_usage;
};

/* Fill emin/elow of every node in root's subtree, root excluded, the way
 * shrink_node_memcgs() calls mem_cgroup_calculate_protection(root, memcg)
 * for each memcg it visits.  recursiveprot: the cgroup2 mount option
 * memory_recursiveprot (unclaimed parental protection handed down in
 * proportion to unprotected usage).  The kernel leaves a node's values
 * stale when it returns early (the root itself; usage 0); here they are
 * set to 0, which reclaim cannot tell apart: the root's are never read
 * (mem_cgroup_protection() returns 0 for the target) and a node with no
 * usage has nothing to reclaim and children with no usage.  Returns
 * false (and changes nothing) if a parent index is out of order or
 * root is not a node. */
bool pc_calculate_protection(struct pc_node *n, int nr, int root, bool recursiveprot);

/* mem_cgroup_below_min() / mem_cgroup_below_low(): node i is entirely
 * protected from reclaim aimed at root (never the root itself, nor the
 * top of the tree: the root cgroup supports no protection). */
bool pc_below_min(const struct pc_node *n, int root, int i);
bool pc_below_low(const struct pc_node *n, int root, int i);

/* mm/vmscan.c apply_proportional_protection(): how much of scan (an LRU
 * list's pages to scan) reclaim aimed at root scans in node i, over its
 * protection (elow in the first pass, emin once low_reclaim: the retry
 * that breaks memory.low; *low_skipped set when elow held it back), at
 * least SWAP_CLUSTER_MAX.  mem_cgroup_protection(): none for the root
 * cgroup and the target itself. */
uint64_t pc_scan_target(const struct pc_node *n, int root, int i, uint64_t scan, bool low_reclaim,
			bool *low_skipped);

/* The kernel's effective_protection() for one counter: exported for the
 * tests' hand-checked steps. */
uint64_t pc_effective_protection(uint64_t usage, uint64_t parent_usage, uint64_t setting,
				 uint64_t parent_effective, uint64_t siblings_protected,
				 bool recursiveprot);

#endif
