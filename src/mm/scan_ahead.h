/* scan_ahead.h - a look-ahead for a policy whose scan takes pages from
 * the tail of one list (clock's hand, LRU's victims): a host-speed hint,
 * nothing simulated changes.
 *
 * Why: each page the scan meets costs the host two cache misses in turn
 * (its struct page, then the PTE that rmap finds through it), ~150 ns
 * each once the frames and page tables outgrow the host's L2.  Cursors
 * kept some pages before the tail, each moved one page on each time the
 * scan takes one, fetch both ahead (mm_prefetch_page, mm_prefetch_pte),
 * so the scan finds them in the host's cache.  A cursor is only ever a
 * page on the list: the policy forgets it when that page leaves the list
 * other than through the scan (scan_ahead_forget), and it is checked
 * before each use. */
#ifndef PAGELAB_SCAN_AHEAD_H
#define PAGELAB_SCAN_AHEAD_H

#include "mm.h"

/* Two cursors, because each of the two misses waits on the other: the
 * PTE's address is in the struct page.  The far cursor, SCAN_AHEAD_FAR
 * pages before the tail, fetches a page's struct page and link; the near
 * one, SCAN_AHEAD pages before the tail, reads that struct page (fetched
 * SCAN_AHEAD_FAR - SCAN_AHEAD steps earlier) and fetches the PTE.  With
 * one cursor doing both, the struct page was fetched one step before it
 * was read, and that read was the largest wait of an LRU replay's
 * eviction (perf, docs/trace-format.md "Speed"). */
#define SCAN_AHEAD 4
#define SCAN_AHEAD_FAR 16

struct scan_ahead {
	pfn_t pfn;      /* the near cursor, PFN_NONE: start again from the tail */
	int dist;       /* pages between the tail and the near cursor */
	pfn_t far;      /* the far cursor, PFN_NONE: start again from the near one */
	int far_dist;   /* pages between the tail and the far cursor */
};

static inline void scan_ahead_init(struct scan_ahead *sa)
{
	*sa = (struct scan_ahead){ .pfn = PFN_NONE, .far = PFN_NONE };
}

/* pfn leaves the list other than by being taken from its tail. */
static inline void scan_ahead_forget(struct scan_ahead *sa, pfn_t pfn)
{
	if (sa->pfn == pfn)
		sa->pfn = PFN_NONE;
	if (sa->far == pfn)
		sa->far = PFN_NONE;
}

/* A cursor that stands on the page just taken or on a page no longer on
 * the list (moved without a word) starts again. */
static inline pfn_t scan_ahead_valid(const struct frames *fr, int list, pfn_t cur, pfn_t taken)
{
	return cur == taken || (cur != PFN_NONE && lru_on(fr, cur) != list) ? PFN_NONE : cur;
}

/* Move a cursor towards the head until it stands `to` pages before the
 * tail (or at the head), fetching ahead for each page it reaches: the
 * struct page and link for the far cursor, the PTE for the near one. */
__attribute__((always_inline)) static inline void scan_ahead_walk(const struct mm *mm, pfn_t *cur, int *dist, int to,
								  bool far)
{
	while (*dist < to && lru_prev(&mm->fr, *cur) != PFN_NONE) {
		*cur = lru_prev(&mm->fr, *cur);
		++*dist;
		if (far)
			mm_prefetch_page(mm, *cur);
		else
			mm_prefetch_pte(mm, *cur);
	}
}

/* The scan took `taken` off the tail of `list` (or moved it from there to
 * the head: a second chance): move the cursors on. */
__attribute__((always_inline)) static inline void scan_ahead_step(struct scan_ahead *sa, const struct mm *mm, int list, pfn_t taken)
{
	const struct frames *fr = &mm->fr;
	sa->pfn = scan_ahead_valid(fr, list, sa->pfn, taken);
	sa->far = scan_ahead_valid(fr, list, sa->far, taken);
	if (sa->pfn == PFN_NONE) {
		sa->pfn = lru_tail(fr, list);
		sa->dist = 0;
		sa->far = PFN_NONE;
		if (sa->pfn == PFN_NONE)
			return;
		mm_prefetch_pte(mm, sa->pfn);
	} else if (sa->dist > 0) {
		sa->dist--;
	}
	scan_ahead_walk(mm, &sa->pfn, &sa->dist, SCAN_AHEAD, false);
	if (sa->far == PFN_NONE) {
		sa->far = sa->pfn;
		sa->far_dist = sa->dist;
	} else if (sa->far_dist > 0) {
		sa->far_dist--;
	}
	scan_ahead_walk(mm, &sa->far, &sa->far_dist, SCAN_AHEAD_FAR, true);
}

#endif
