/* riel24.h - what the two halves of the riel24 design share: riel24.c (the
 * lists, page aging, page_launder, refill_inactive, kswapd/kreclaimd) and
 * riel24_swapout.c (swap_out(), the page-table scan that ages mapped
 * pages and unmaps the old ones into the swap cache).  2.4.0 keeps both
 * in mm/vmscan.c. */
#ifndef PAGELAB_POLICY_RIEL24_H
#define PAGELAB_POLICY_RIEL24_H

#include "../oldvm.h"

/* Indexes of r24_tunables (riel24.c). */
enum { T_START, T_ADV, T_MAX, T_PRIO, T_INACTIVE_SHIFT, T_SWAP_SHIFT, T_SWAP_MIN, T_PAGE_CLUSTER,
       T_FP_MIN, T_FP_LOW, T_FP_HIGH, NR_T };

/* The design's state: its lists, 2.4.0's memory_pressure and freepages. */
struct r24 {
	struct mm *mm;
	int active, inactive_dirty, anon;
	int inactive_clean[MAX_ZONES];
	uint64_t memory_pressure;
	uint64_t fp_min, fp_low, fp_high;   /* freepages */
	int page_cluster;
	uint64_t ticks;
	uint64_t progress;                  /* PTEs aged or unmapped, pages moved */
	struct mmstates ms;
	struct scan_control *sc;            /* the pass being run */
	double t[NR_T];
};

static inline struct frames *FR(struct r24 *r) { return &r->mm->fr; }

/* lru_cache_add(): onto the active list. */
void r24_add_active(struct r24 *r, pfn_t pfn);
/* age_page_up(): activate a page of age 0, then age += PAGE_AGE_ADV. */
void r24_age_page_up(struct r24 *r, pfn_t pfn);
/* deactivate_page(): age 0, and to inactive_dirty if no process maps it;
 * counts as progress. */
void r24_deactivate_page(struct r24 *r, pfn_t pfn);
/* swap_out(priority): scan one mm's PTEs (the one with the largest
 * swap_cnt); 1 if its swap_cnt ran out, so the caller may go on. */
int r24_swap_out(struct r24 *r, int priority);

#endif
