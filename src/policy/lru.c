/* lru.c - exact least-recently-used.  Needs every reference, so it uses the
 * idealized-MMU access hook (POLICY_ACCESS_HOOK): each touch moves the page
 * to the head of the list; victims come from the tail.  No real MMU can do
 * this; it is the yardstick the kernel's approximations are measured by. */
#include "lru.h"
#include "textbook.h"
#include "../lib/util.h"

#include <stdlib.h>

static void *lru_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct lru *l = xcalloc(1, sizeof(*l));
	l->mm = mm;
	l->list = lru_register(&mm->fr, "lru");
	scan_ahead_init(&l->ahead);
	return l;
}

static void lru_destroy(void *p) { free(p); }

static void lru_pol_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct lru *l = p;
	(void)why;
	lru_add_head(&l->mm->fr, l->list, pfn);
}

static void lru_remove(void *p, pfn_t pfn)
{
	struct lru *l = p;
	scan_ahead_forget(&l->ahead, pfn);
	lru_del(&l->mm->fr, pfn);
}

static void lru_access(void *p, pfn_t pfn, bool write)
{
	struct lru *l = p;
	(void)write;
	lru_hit(l, &l->mm->fr, pfn);
}

static void lru_shrink(void *p, struct scan_control *sc)
{
	struct lru *l = p;
	struct frames *fr = &l->mm->fr;
	uint64_t budget = lru_count(fr, l->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget--) {
		pfn_t pfn = lru_tail(fr, l->list);
		lru_del(fr, pfn);
		scan_ahead_step(&l->ahead, l->mm, l->list, pfn);
		enum victim_outcome o = textbook_evict(l->mm, sc, pfn);
		/* An anonymous page with no swap slot left stays, and the
		 * hand goes on: a file page further on can still be
		 * evicted (stopping here OOM-killed with the page cache
		 * full; docs/reproduce.md, "Why each disagreement"). */
		if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP)
			lru_add_head(fr, l->list, pfn);
	}
}

const struct policy_ops lru_policy = {
	.name = "lru",
	.summary = "exact least-recently-used through the per-reference hook (textbook)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = lru_init,
	.destroy = lru_destroy,
	.add = lru_pol_add,
	.remove = lru_remove,
	.access = lru_access,
	.shrink = lru_shrink,
};
