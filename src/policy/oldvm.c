/* oldvm.c - see oldvm.h. */
#include "oldvm.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct mmstate *mmstate_get(struct mmstates *ms, uint32_t id)
{
	if (id >= ms->n) {
		uint32_t n = ms->n ? ms->n : 8;
		while (n <= id)
			n *= 2;
		ms->s = xrealloc(ms->s, n * sizeof(*ms->s));
		memset(ms->s + ms->n, 0, (n - ms->n) * sizeof(*ms->s));
		ms->n = n;
	}
	return &ms->s[id];
}

void mmstates_free(struct mmstates *ms)
{
	free(ms->s);
	ms->s = NULL;
	ms->n = 0;
}

bool mm_swappable(const struct aspace *as)
{
	return !as->dead && as->rss > 0;
}

uint32_t nr_live_aspaces(const struct mm *mm)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < mm->nr_as; i++)
		n += !mm->as[i]->dead;
	return n;
}

void freepages_22(uint64_t pages, uint64_t *min, uint64_t *low, uint64_t *high)
{
	uint64_t i = pages >> 7;
	i = i < 10 ? 10 : i > 256 ? 256 : i;
	*min = i;
	*low = 2 * i;
	*high = 3 * i;
}

void zone_watermarks_24(struct zone *z)
{
	uint64_t mask = z->managed / 128;
	mask = mask < 20 ? 20 : mask > 255 ? 255 : mask;
	/* A zone smaller than its watermarks (tiny test machines) keeps a
	 * quarter of itself free at most. */
	if (3 * mask > z->managed / 4)
		mask = z->managed / 12;
	z->wmark_min = mask;
	z->wmark_low = 2 * mask;
	z->wmark_high = 3 * mask;
}

void oldvm_io_catch_up(struct mm *mm, struct scan_control *sc, uint64_t *mark)
{
	if (sc->nr_writeback - *mark < SWAP_CLUSTER_MAX)
		return;
	*mark = sc->nr_writeback;
	mm_reclaim_io_catch_up(mm, NULL, sc);
}

enum evict_result oldvm_reclaim(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	lru_del(&mm->fr, pfn);
	return mm_reclaim_page(mm, sc, pfn);
}
