/* scan_ahead.h - a look-ahead for a policy whose scan takes pages from
 * the tail of one list (clock's hand, LRU's victims): a host-speed hint,
 * nothing simulated changes.
 *
 * Why: each page the scan meets costs the host two cache misses in turn
 * (its struct page, then the PTE that rmap finds through it), ~150 ns
 * each once the frames and page tables outgrow the host's L2.  A cursor
 * kept SCAN_AHEAD pages before the tail, moved one page on each time the
 * scan takes one, reads struct pages prefetched SCAN_AHEAD steps earlier
 * and prefetches the PTEs (mm_prefetch_scan), so the scan finds both in
 * the host's cache.  The cursor is only ever a page on the list: the
 * policy forgets it when that page leaves the list other than through
 * the scan (scan_ahead_forget), and it is checked before each use. */
#ifndef PAGELAB_SCAN_AHEAD_H
#define PAGELAB_SCAN_AHEAD_H

#include "mm.h"

#define SCAN_AHEAD 4

struct scan_ahead {
	pfn_t pfn;      /* the cursor, PFN_NONE: start again from the tail */
	int dist;       /* pages between the tail and the cursor */
};

static inline void scan_ahead_init(struct scan_ahead *sa) { sa->pfn = PFN_NONE; sa->dist = 0; }

/* pfn leaves the list other than by being taken from its tail. */
static inline void scan_ahead_forget(struct scan_ahead *sa, pfn_t pfn)
{
	if (sa->pfn == pfn)
		sa->pfn = PFN_NONE;
}

/* The scan took `taken` off the tail of `list` (or moved it from there to
 * the head: a second chance): move the cursor on. */
__attribute__((always_inline)) static inline void scan_ahead_step(struct scan_ahead *sa, const struct mm *mm, int list, pfn_t taken)
{
	const struct frames *fr = &mm->fr;
	if (sa->pfn == taken || (sa->pfn != PFN_NONE && lru_on(fr, sa->pfn) != list))
		sa->pfn = PFN_NONE;
	if (sa->pfn == PFN_NONE) {
		sa->pfn = lru_tail(fr, list);
		sa->dist = 0;
		if (sa->pfn == PFN_NONE)
			return;
		mm_prefetch_scan(mm, sa->pfn);
	} else if (sa->dist > 0) {
		sa->dist--;
	}
	while (sa->dist < SCAN_AHEAD && lru_prev(fr, sa->pfn) != PFN_NONE) {
		sa->pfn = lru_prev(fr, sa->pfn);
		sa->dist++;
		mm_prefetch_scan(mm, sa->pfn);
	}
}

#endif
