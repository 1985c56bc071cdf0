/* riel24_swapout.c - 2.4.0's swap_out() (mm/vmscan.c): the page-table
 * scan of the riel24 design.  One mm per call, the one with the largest
 * swap_cnt (reloaded to max(rss >> SWAP_SHIFT, SWAP_MIN) when all are
 * spent); try_to_swap_out() ages up a young PTE's page, ages down a page
 * that is off the active list, and unmaps a page of age 0 into the swap
 * cache, deactivating it.  No I/O here: page_launder() writes. */
#include "riel24.h"

/* try_to_swap_out(): 1 when the mm's swap_cnt is used up. */
static int try_to_swap_out(struct r24 *r, struct mmstate *st, struct pte_ref *pr)
{
	struct mm *mm = r->mm;
	struct page *pg = mm_page(mm, pr->pfn);
	if (!st->swap_cnt)
		return 1;
	st->swap_cnt--;
	bool onlist = mm_page_lru(r->mm, pg) == r->active;
	if (ptescan_test_and_clear_young(pr)) {
		r24_age_page_up(r, pr->pfn);
		r->progress++;
		return 0;
	}
	if (!onlist && page_age(pg)) {  /* still mapped, so not freeable: age it down only */
		set_page_age(pg, page_age(pg) / 2);
		r->progress++;
	}
	if (page_age(pg) > 0 || (pg->flags & PG_locked))
		return 0;
	bool holding = mm_page_lru(r->mm, pg) == r->anon;
	if (ptescan_unmap(mm, pr) == UNMAP_NOSWAP || !(pg->flags & (PG_swapcache | PG_file)))
		return 0;
	if (holding) {
		/* add_to_swap_cache() -> lru_cache_add(): onto the active
		 * list, and at age 0 straight to inactive_dirty. */
		lru_del(FR(r), pr->pfn);
		r24_add_active(r, pr->pfn);
	}
	r24_deactivate_page(r, pr->pfn);
	return 0;
}

static int swap_out_mm(struct r24 *r, struct aspace *as)
{
	struct mmstate *st = mmstate_get(&r->ms, as->id);
	struct pte_ref pr;
	while (ptescan_next(r->mm, as, &st->addr, &pr)) {
		if (pr.locked_vma)
			continue;
		sc_scanned(r->sc, mm_page(r->mm, pr.pfn), 1);
		if (try_to_swap_out(r, st, &pr))
			return 1;
	}
	st->addr = (struct pte_cursor){ 0, 0 };
	st->swap_cnt = 0;
	return 0;
}

int r24_swap_out(struct r24 *r, int priority)
{
	struct mm *mm = r->mm;
	int64_t counter = ((int64_t)nr_live_aspaces(mm) << (int)r->t[T_SWAP_SHIFT]) >> priority;
	if (counter < 1)
		counter = 1;
	for (; counter >= 0; counter--) {
		struct aspace *best = NULL;
		int64_t max_cnt = 0;
		int found = 0;
		for (int assign = 0; assign < 2 && !best; assign++) {
			if (assign && !found)
				break;
			for (uint32_t i = 0; i < mm->nr_as; i++) {
				struct aspace *as = mm->as[i];
				if (!mm_swappable(as))
					continue;
				found++;
				struct mmstate *st = mmstate_get(&r->ms, as->id);
				if (assign) {
					st->swap_cnt = (int64_t)(as->rss >> (int)r->t[T_SWAP_SHIFT]);
					if (st->swap_cnt < (int64_t)r->t[T_SWAP_MIN])
						st->swap_cnt = (int64_t)r->t[T_SWAP_MIN];
				}
				if (st->swap_cnt > max_cnt) {
					max_cnt = st->swap_cnt;
					best = as;
				}
			}
		}
		if (!best)
			break;
		return swap_out_mm(r, best);  /* one mm per call */
	}
	return 0;
}
