/* clock.c - second chance (Corbato's clock, 1968): the hand sweeps the
 * resident pages in FIFO order; a page whose accessed bit is set gets the
 * bit cleared and another trip round, an unreferenced page is evicted.  It
 * sees references only through the PTE accessed bit, tested and cleared
 * through rmap as the kernel does - no per-reference hook.  The circle is a
 * list: the hand is its tail, a second chance moves the page to the head. */
#include "policy.h"
#include "textbook.h"
#include "../lib/util.h"

#include <stdlib.h>

struct clock {
	struct mm *mm;
	int list;
};

static void *clock_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct clock *c = xcalloc(1, sizeof(*c));
	c->mm = mm;
	c->list = lru_register(&mm->fr, "clock");
	return c;
}

static void clock_destroy(void *p) { free(p); }

static void clock_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct clock *c = p;
	(void)why;
	lru_add_head(&c->mm->fr, c->list, pfn);
}

static void clock_remove(void *p, pfn_t pfn)
{
	struct clock *c = p;
	lru_del(&c->mm->fr, pfn);
}

static void clock_shrink(void *p, struct scan_control *sc)
{
	struct clock *c = p;
	struct frames *fr = &c->mm->fr;
	/* Two trips round the clock find a victim if any page can go.  The
	 * budget counts pages as they were at the start, so on a machine
	 * smaller than nr_to_reclaim the hand can evict every page before it
	 * runs out: stop when the circle is empty. */
	uint64_t budget = 2 * lru_count(fr, c->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget-- && lru_count(fr, c->list)) {
		pfn_t pfn = lru_tail(fr, c->list);
		lru_del(fr, pfn);
		if (mm_page_referenced(c->mm, pfn)) {
			sc->nr_scanned++;
			sc->nr_rotated++;
			lru_add_head(fr, c->list, pfn);
			continue;
		}
		enum victim_outcome o = textbook_evict(c->mm, sc, pfn);
		if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP)
			lru_add_head(fr, c->list, pfn);
		if (o == VICTIM_NOSWAP)
			break;
	}
}

const struct policy_ops clock_policy = {
	.name = "clock",
	.summary = "second chance on the PTE accessed bit (Corbato's clock; textbook)",
	.init = clock_init,
	.destroy = clock_destroy,
	.add = clock_add,
	.remove = clock_remove,
	.shrink = clock_shrink,
};
