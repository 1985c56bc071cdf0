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

/* Evict an isolated page chosen by the policy.  sc->nr_scanned is counted. */
enum victim_outcome textbook_evict(struct mm *mm, struct scan_control *sc, pfn_t pfn);

#endif
