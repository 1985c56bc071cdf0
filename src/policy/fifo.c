/* fifo.c - first in, first out: evict the page resident longest, whatever
 * its use.  The textbook baseline (and the policy that shows Belady's
 * anomaly).  One list; new pages at the head, victims from the tail. */
#include "policy.h"
#include "textbook.h"
#include "../lib/util.h"

#include <stdlib.h>

struct fifo {
	struct mm *mm;
	int list;
};

static void *fifo_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct fifo *f = xcalloc(1, sizeof(*f));
	f->mm = mm;
	f->list = lru_register(&mm->fr, "fifo");
	return f;
}

static void fifo_destroy(void *p) { free(p); }

static void fifo_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct fifo *f = p;
	(void)why;
	lru_add_head(&f->mm->fr, f->list, pfn);
}

static void fifo_remove(void *p, pfn_t pfn)
{
	struct fifo *f = p;
	lru_del(&f->mm->fr, pfn);
}

static void fifo_shrink(void *p, struct scan_control *sc)
{
	struct fifo *f = p;
	struct frames *fr = &f->mm->fr;
	/* Look at each page at most once per pass: pages that cannot go now
	 * (under I/O) rotate to the head. */
	uint64_t budget = lru_count(fr, f->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget--) {
		pfn_t pfn = lru_tail(fr, f->list);
		lru_del(fr, pfn);
		enum victim_outcome o = textbook_evict(f->mm, sc, pfn);
		/* An anonymous page with no swap slot left stays, and the
		 * hand goes on: a file page further on can still be
		 * evicted (stopping here OOM-killed with the page cache
		 * full; docs/reproduce.md, "Why each disagreement"). */
		if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP)
			lru_add_head(fr, f->list, pfn);
	}
}

const struct policy_ops fifo_policy = {
	.name = "fifo",
	.summary = "first in, first out: evict the page resident longest (textbook)",
	.init = fifo_init,
	.destroy = fifo_destroy,
	.add = fifo_add,
	.remove = fifo_remove,
	.shrink = fifo_shrink,
};
