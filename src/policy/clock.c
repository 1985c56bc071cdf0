/* clock.c - second chance (Corbato's clock, 1968): the hand sweeps the
 * resident pages in FIFO order; a page whose accessed bit is set gets the
 * bit cleared and another trip round, an unreferenced page is evicted.  It
 * sees references only through the PTE accessed bit, tested and cleared
 * through rmap as the kernel does - no per-reference hook.  The circle is a
 * list: the hand is its tail, a second chance moves the page to the head.
 *
 * Tunable first_ref: whether the reference that faults a page in leaves it
 * referenced.  On a real MMU it does (the faulting access sets the PTE's
 * accessed bit once the fault is resolved), so 1 is the default.  0 is
 * libCacheSim's Clock, where a new object starts with freq 0 and only a
 * hit sets it: its miss counts are pagelab's with first_ref=0
 * (tests/test_research_policies.c). */
#include "policy.h"
#include "textbook.h"
#include "../mm/scan_ahead.h"
#include "../lib/util.h"

#include <stdlib.h>

struct clock {
	struct mm *mm;
	int list;
	struct scan_ahead ahead;  /* host-speed hint (scan_ahead.h) */
};

static const struct tunable clock_tunables[] = {
	{ "first_ref", "the MMU's accessed bit on a fault (libCacheSim Clock: 0)", 1, 0, 1,
	  "1 = the faulting reference leaves a new page referenced; 0 = it starts unreferenced" },
	{ 0 },
};

/* first_ref=0: the core leaves a faulted page's accessed bit clear. */
static unsigned clock_tunable_flags(const double *tun)
{
	return tun && tun[0] == 0 ? POLICY_FAULT_NOT_YOUNG : 0;
}

static void *clock_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct clock *c = xcalloc(1, sizeof(*c));
	c->mm = mm;
	c->list = lru_register(&mm->fr, "clock");
	scan_ahead_init(&c->ahead);
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
	scan_ahead_forget(&c->ahead, pfn);
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
		/* A second chance moves the page from the tail to the head
		 * in one step (lru_move_head: the links only, as taking it
		 * off and adding it back leave them); only a victim is
		 * taken off, for the core to evict. */
		if (mm_page_referenced(c->mm, pfn)) {
			lru_move_head(fr, c->list, pfn);
			scan_ahead_step(&c->ahead, c->mm, c->list, pfn);
			sc_scanned(sc, mm_page(c->mm, pfn), 1);
			sc->nr_rotated++;
			continue;
		}
		lru_del(fr, pfn);
		scan_ahead_step(&c->ahead, c->mm, c->list, pfn);
		enum victim_outcome o = textbook_evict(c->mm, sc, pfn);
		/* An anonymous page with no swap slot left stays, and the
		 * hand goes on: a file page further on can still be
		 * evicted (stopping here OOM-killed with the page cache
		 * full; docs/reproduce.md, "Why each disagreement"). */
		if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP)
			lru_add_head(fr, c->list, pfn);
	}
}

const struct policy_ops clock_policy = {
	.name = "clock",
	.summary = "second chance on the PTE accessed bit (Corbato's clock; textbook)",
	.tunables = clock_tunables,
	.flags = POLICY_CACHE,
	.init = clock_init,
	.destroy = clock_destroy,
	.add = clock_add,
	.remove = clock_remove,
	.shrink = clock_shrink,
	.tunable_flags = clock_tunable_flags,
};
