/* textbook.h - what the single-list textbook policies (fifo, clock, lru,
 * opt) share: handing a chosen victim to the mm core and dealing with the
 * pages it refuses. */
#ifndef PAGELAB_TEXTBOOK_H
#define PAGELAB_TEXTBOOK_H

#include "../mm/mm.h"

enum victim_outcome {
	VICTIM_GONE,      /* reclaimed (freed or under writeback to be freed) */
	VICTIM_CULLED,    /* mlocked: moved to the core's unevictable list */
	VICTIM_REFUSED,   /* busy or no swap space: caller must keep it */
	VICTIM_NOSWAP,    /* swap is full: further anonymous victims will fail too */
};

/* textbook_evict() on a machine (not the cache-only core). */
enum victim_outcome textbook_evict_machine(struct mm *mm, struct scan_control *sc, pfn_t pfn);

/* Evict an isolated page chosen by the policy.  sc->nr_scanned is counted.
 * Inline, with the cache-only core's eviction (always freed) called
 * directly: every miss of a cache-only replay evicts a page, and the two
 * calls into textbook.c and mm_evict() were a seventh of a miss's
 * instructions (callgrind). */
static inline enum victim_outcome textbook_evict(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	if (mm->cache.only) {
		sc_scanned(sc, mm_page(mm, pfn), 1);
		mm_cache_evict(mm, sc, pfn);
		return VICTIM_GONE;
	}
	return textbook_evict_machine(mm, sc, pfn);
}

#endif
