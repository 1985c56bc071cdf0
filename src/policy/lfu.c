/* lfu.c - least frequently used: evict the resident page with the fewest
 * references since it was brought in; among equals, the one that reached
 * its count first (so a page with one reference goes in FIFO order).  The
 * classic in-cache LFU (e.g. Aho, Denning & Ullman 1971's A0 with counts
 * forgotten at eviction); the tie rule is libCacheSim's LFU (frequency
 * buckets, each a FIFO of arrivals), whose miss counts are pagelab's
 * (tests/cli.d/policies.sh).  Kept in a min-heap on (count, when the count
 * was reached). */
#include "policy.h"
#include "research.h"
#include "pageheap.h"
#include "../lib/util.h"

#include <stdlib.h>

struct lfu {
	struct rp_base b;
	struct pageheap h;
	uint64_t clock;     /* count changes so far: the tie breaker */
};

static void lfu_hit(void *p, pfn_t pfn, uint32_t i);

static void *lfu_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct lfu *l = xcalloc(1, sizeof(*l));
	rp_init(&l->b, mm, "lfu");
	ph_init(&l->h, mm->fr.nr);
	rp_set_hit(&l->b, lfu_hit);
	return l;
}

static void lfu_destroy(void *p)
{
	struct lfu *l = p;
	ph_destroy(&l->h);
	rp_destroy(&l->b);
	free(l);
}

static void lfu_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct lfu *l = p;
	(void)why;
	bool known;
	uint32_t i = rp_add(&l->b, pfn, &known);
	(void)i;
	ph_set(&l->h, pfn, 1, ++l->clock);
}

static void lfu_remove(void *p, pfn_t pfn)
{
	struct lfu *l = p;
	uint32_t i = rp_remove(&l->b, pfn);
	ph_remove(&l->h, pfn);
	if (i != GH_NONE)
		ghost_free(&l->b.g, i);
}

/* The heap is by frame. */
static void lfu_hit(void *p, pfn_t pfn, uint32_t i)
{
	struct lfu *l = p;
	(void)i;
	if (ph_has(&l->h, pfn))
		ph_set(&l->h, pfn, l->h.k1[pfn] + 1, ++l->clock);
}

static void lfu_shrink(void *p, struct scan_control *sc)
{
	struct lfu *l = p;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && ph_pass_goes_on(&l->h)) {
		pfn_t pfn = ph_min(&l->h);
		uint64_t k1 = l->h.k1[pfn], k2 = l->h.k2[pfn];
		uint32_t i = ghost_of(l->b.mm->fr.pages, pfn);
		ph_remove(&l->h, pfn);
		enum victim_outcome o = rp_evict(&l->b, sc, i);
		if (o == VICTIM_GONE || o == VICTIM_CULLED) {
			ghost_free(&l->b.g, i);
			continue;
		}
		l->h.k1[pfn] = k1;
		l->h.k2[pfn] = k2;
		ph_set_aside(&l->h, pfn, o == VICTIM_REFUSED);
	}
	ph_put_back(&l->h);
}

static bool lfu_check(void *p, FILE *err)
{
	struct lfu *l = p;
	if (l->h.n != rp_resident(&l->b)) {
		fprintf(err, "check: lfu heap holds %llu pages, its frame list %llu\n",
			(unsigned long long)l->h.n, (unsigned long long)rp_resident(&l->b));
		return false;
	}
	return ph_check(&l->h, "lfu", err) && rp_check(&l->b, "lfu", err);
}

const struct policy_ops lfu_policy = {
	.name = "lfu",
	.summary = "least frequently used, ties to the earliest to reach its count (textbook)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = lfu_init,
	.destroy = lfu_destroy,
	.add = lfu_add,
	.remove = lfu_remove,
	.access = rp_access,
	.shrink = lfu_shrink,
	.check = lfu_check,
};
