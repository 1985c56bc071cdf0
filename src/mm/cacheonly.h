/* cacheonly.h - the cache-only mm's (cacheonly.c) allocation of a frame,
 * inline (what it does to a page in reclaim, for the policies too:
 * cachepage.h).  For the mm core's files only (internal.h includes it). */
#ifndef PAGELAB_MM_CACHEONLY_H
#define PAGELAB_MM_CACHEONLY_H

#include <string.h>

/* take_zone_frame() of the cache's one zone: the frame freed last. */
static inline pfn_t cache_take_frame(struct mm *mm)
{
	pfn_t pfn = mm->cache_freed;
	if (pfn != PFN_NONE) {
		mm->cache_freed = PFN_NONE;
	} else {
		pfn = lru_head(&mm->fr, mm->zones[0].free_list);
		lru_del(&mm->fr, pfn);
	}
	mm_page(mm, pfn)->flags = 0;
	mm->zones[0].nr_free--;
	mm->nr_free--;
	mm->ev[PGALLOC]++;
	return pfn;
}

#endif
