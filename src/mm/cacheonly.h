/* cacheonly.h - the cache-only mm's (cacheonly.c) operations that run
 * inside reclaim, inline: a clock hand calls page_referenced() on every
 * page it passes and every miss evicts and frees a page, and as calls
 * from reclaim.c into cacheonly.c, then into mm.c's free_frame(), these
 * layers were a fifth of a cache-only replay's instructions (callgrind).
 * For the mm core's files only (internal.h includes it). */
#ifndef PAGELAB_MM_CACHEONLY_H
#define PAGELAB_MM_CACHEONLY_H

#include <string.h>

/* free_frame() of an anonymous page nobody maps, less the tests a cache
 * cannot fail (no memcg, no file pages), and with one step of the free
 * list kept aside: the frame freed last is the one the fault takes next
 * (the free list is LIFO), so it waits in mm->cache_freed instead of being
 * linked onto the list and unlinked again a moment later.  Only an older
 * free frame is linked, behind it - the list's order is the same. */
static inline void cache_free_frame(struct mm *mm, struct page *p, pfn_t pfn)
{
	mm->nr_anon--;
	/* All zero but these, as free_frame() leaves it; an assignment, not
	 * memset(): gcc calls libc's for it, a tenth of an eviction. */
	*p = (struct page){ .flags = PG_free, .zone = p->zone };
	if (mm->cache_freed != PFN_NONE)
		lru_add_head(&mm->fr, mm->zones[0].free_list, mm->cache_freed);
	mm->cache_freed = pfn;
	mm->zones[0].nr_free++;
	mm->nr_free++;
	mm->ev[PGFREE]++;
}

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

/* Evict an isolated cache page: its PTE becomes PTE_EVICTED, and a page
 * written since it came in (or never stored) counts as written back. */
static inline enum evict_result cache_drop(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	struct aspace *as = mm->as[p->owner - 1];
	struct vma *v;
	pte_t *pte = cache_pte(mm, p, &v);
	if ((*pte & PTE_DIRTY) || (p->flags & PG_dirty)) {
		mm->ev[PSWPOUT]++;
		mm->ev[PGPGOUT] += PAGE_SIZE / 1024;
	}
	*pte = PTE_EVICTED;
	as->rss--;
	as->swapents++;
	as->nswap++;
	page_remove_rmap(mm, p);
	sc->nr_reclaimed++;
	cache_free_frame(mm, p, pfn);
	return EVICT_FREED;
}

#endif
