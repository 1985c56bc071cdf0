/* cachepage.h - the cache-only core's (cacheonly.c, mm->cache.only)
 * eviction of a page, inline where the policy calls it: every miss of a
 * cache-only replay evicts and frees a page (mm_cache_evict, from
 * textbook_evict), and as a call into cacheonly.c its call, entry and
 * exit were a fifth of the eviction's instructions (callgrind: 14 of
 * 62).  Included by mm.h, which the policies include;
 * cache_page_referenced() is beside it there. */
#ifndef PAGELAB_MM_CACHEPAGE_H
#define PAGELAB_MM_CACHEPAGE_H

#include "../lib/util.h"

/* A PTE stops mapping the page: its mapcount and, on the last unmap, the
 * NR_FILE_MAPPED / NR_ANON_PAGES gauges (page_add_rmap, internal.h). */
static inline void page_remove_rmap(struct mm *mm, struct page *p)
{
	if (--p->mapcount == 0) {
		if (p->flags & PG_file)
			mm->stat.nr_file_mapped--;
		else
			mm->stat.nr_anon_mapped--;
	}
}

/* free_frame() of an anonymous page nobody maps, less the tests a cache
 * cannot fail (no memcg, no file pages), and with one step of the free
 * list kept aside: the frame freed last is the one the fault takes next
 * (the free list is LIFO), so it waits in mm->cache.freed instead of being
 * linked onto the list and unlinked again a moment later.  Only an older
 * free frame is linked, behind it - the list's order is the same. */
static inline void cache_free_frame(struct mm *mm, struct page *p, pfn_t pfn)
{
	mm->stat.nr_anon--;
	/* All zero but these, as free_frame() leaves it; an assignment, not
	 * memset(): gcc calls libc's for it, a tenth of an eviction. */
	*p = (struct page){ .flags = PG_free, .zone = p->zone };
	if (mm->cache.freed != PFN_NONE)
		lru_add_head(&mm->fr, mm->zones[0].free_list, mm->cache.freed);
	mm->cache.freed = pfn;
	mm->zones[0].nr_free++;
	mm->stat.nr_free++;
	mm->ev[PGFREE]++;
}

/* Evict an isolated cache page: its PTE becomes PTE_EVICTED, and a page
 * written since it came in (or never stored) counts as written back: a
 * swap-out that reclaim wrote itself, pageout()'s, so nr_vmscan_write
 * too, as the full machine's reclaim_one() counts it (6.18 mm/vmscan.c
 * pageout(), NR_VMSCAN_WRITE). */
static inline enum evict_result cache_drop(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	struct page *p = &mm->fr.pages[pfn];
	struct aspace *as = mm->as[p->owner - 1];
	pte_t *pte = cache_pte(mm, p);
	if ((*pte & PTE_DIRTY) || (p->flags & PG_dirty)) {
		mm->ev[PSWPOUT]++;
		mm->ev[NR_VMSCAN_WRITE]++;
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

/* mm_evict() of the cache-only core, which always frees the page: for a
 * caller that tests mm->cache.only itself (textbook_evict).  A cache page
 * is never locked, under writeback or mlocked: of reclaim_one()'s tests
 * only the first applies. */
static inline void mm_cache_evict(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	if (lru_on(&mm->fr, pfn) != LRU_NONE)
		panic("reclaim: pfn %u is not isolated", pfn);
	cache_drop(mm, sc, pfn);
}

#endif
