/* lifo.c - last in, first out: evict the page that arrived most recently.
 *
 * A deliberately bad policy (it throws out the page a program is most
 * likely to use next) that shows the whole plugin interface: one list,
 * pages added at the head, victims taken from the head, refused pages
 * put back at the tail so one pass looks at each page once.  Build it
 * with this folder's Makefile and run it with
 *
 *	pagelab run --policy ./lifo.so --check usemem -m 100
 */
#include <pagelab_policy.h>

#include <stdlib.h>

struct lifo {
	struct pagelab_mm *mm;
	int list;
	int keep_mapped;          /* the tunable: spare mapped pages once */
};

static const struct pagelab_tunable lifo_tunables[] = {
	{ "keep_mapped", "(none: a plugin example)", 0, 0, 1,
	  "1 = a page whose accessed bit is set gets one more round" },
	{ 0 },
};

static void *lifo_init(struct pagelab_mm *mm, const double *tun)
{
	struct lifo *l = calloc(1, sizeof(*l));
	if (!l)
		abort();
	l->mm = mm;
	l->list = pagelab_lru_register(mm, "lifo");
	l->keep_mapped = tun[0] != 0;
	return l;
}

static void lifo_destroy(void *p)
{
	free(p);
}

static void lifo_add(void *p, pagelab_pfn pfn, enum pagelab_add_reason why)
{
	struct lifo *l = p;
	(void)why;
	pagelab_lru_add_head(l->mm, l->list, pfn);
}

static void lifo_remove(void *p, pagelab_pfn pfn)
{
	struct lifo *l = p;
	pagelab_lru_del(l->mm, pfn);
}

static void lifo_shrink(void *p, struct pagelab_scan *sc)
{
	struct lifo *l = p;
	uint64_t budget = pagelab_lru_count(l->mm, l->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget--) {
		pagelab_pfn pfn = pagelab_lru_head(l->mm, l->list);
		pagelab_lru_del(l->mm, pfn);
		if (l->keep_mapped && pagelab_page_referenced(l->mm, pfn)) {
			pagelab_lru_add_tail(l->mm, l->list, pfn);
			sc->nr_rotated++;
			continue;
		}
		enum pagelab_evict_result r = pagelab_evict(l->mm, sc, pfn);
		if (r == PAGELAB_EVICT_REFUSED || r == PAGELAB_EVICT_NOSWAP)
			pagelab_lru_add_tail(l->mm, l->list, pfn);
		if (r == PAGELAB_EVICT_NOSWAP)
			break;
	}
}

static const struct pagelab_policy lifo = {
	.abi = PAGELAB_POLICY_ABI,
	.name = "lifo",
	.summary = "last in, first out (a plugin example)",
	.tunables = lifo_tunables,
	.init = lifo_init,
	.destroy = lifo_destroy,
	.add = lifo_add,
	.remove = lifo_remove,
	.shrink = lifo_shrink,
};

const struct pagelab_policy *pagelab_policy_entry(void)
{
	return &lifo;
}
