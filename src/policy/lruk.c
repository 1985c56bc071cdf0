/* lruk.c - LRU-K with K = 2 (O'Neil, O'Neil & Weikum, "The LRU-K Page
 * Replacement Algorithm For Database Disk Buffering", SIGMOD 1993).  Each
 * page keeps the times of its last K references, HIST(p,1..K), time being
 * the reference count.  The victim is the resident page with the largest
 * backward K-distance, t - HIST(p,K), i.e. the oldest K-th most recent
 * reference; a page referenced fewer than K times has an infinite distance,
 * and among those the subsidiary policy is LRU (oldest HIST(p,1)), as the
 * paper suggests.  History outlives residency for the Retained Information
 * Period: here the last `history` x memory evicted pages keep theirs (a
 * count, where the paper uses a time), so a page that comes back soon has
 * its second reference counted.  The Correlated Reference Period is 0:
 * every reference counts (the paper's CRP needs a notion of time that a
 * reference string does not carry).  libCacheSim's cachesim offers no
 * LRU-K; the tests are hand-checked (tests/test_research_policies.c).
 *
 * The heap's order is (HIST(p,2), 0 = none, first; HIST(p,1); frame),
 * packed into one key (pageheap.h): a page with no HIST(p,2) has key
 * HIST(p,1), one with it TOP | HIST(p,2).  Every time is one reference's,
 * given to one page, and moves only within that page (HIST 1 to HIST 2,
 * to its retained history and back), so no two pages share a nonzero
 * HIST(p,2) or a HIST(p,1) and the packed key orders them exactly as the
 * triple; HIST(p,1) itself is kept by frame, read on a hit and at
 * eviction. */
#include "policy.h"
#include "research.h"
#include "pageheap.h"
#include "../lib/util.h"

#include <stdlib.h>

struct lruk {
	struct rp_base b;
	struct pageheap h;  /* key: HIST(p,1) with no HIST(p,2), else TOP | HIST(p,2) */
	uint64_t *hist1;    /* per frame: HIST(p,1) */
	int retained;       /* ghost list of evicted pages' histories (u64 = HIST 1) */
	uint64_t max_retained;
	uint64_t t;
};

static const struct tunable lruk_tunables[] = {
	{ "history", "Retained Information Period, in multiples of memory", 1, 0, 16,
	  "the histories of the last history * frames evicted pages are kept" },
	{ 0 },
};

static void lruk_hit(void *p, pfn_t pfn, uint32_t i);

/* The page in pfn is referenced at the next time, its HIST(p,2) hist2. */
static void lruk_ref(struct lruk *k, pfn_t pfn, uint64_t hist2)
{
	uint64_t top = (k->h.key_max >> 1) + 1;
	if (++k->t >= top)
		die_usage("policy lruk: time %llu is past the %llu a heap entry holds beside %u frames",
			  (unsigned long long)k->t, (unsigned long long)top - 1, k->b.mm->fr.nr);
	k->hist1[pfn] = k->t;
	ph_set(&k->h, pfn, hist2 ? top | hist2 : k->t);
}

static void *lruk_init(struct mm *mm, const double *tun)
{
	struct lruk *k = xcalloc(1, sizeof(*k));
	rp_init(&k->b, mm, "lruk");
	ph_init(&k->h, mm->fr.nr, false);
	k->hist1 = xcalloc(mm->fr.nr, sizeof(*k->hist1));
	k->retained = ghost_list_new(&k->b.g, 0);
	k->max_retained = (uint64_t)((tun ? tun[0] : lruk_tunables[0].def) * (double)mm->fr.nr);
	rp_set_hit(&k->b, lruk_hit);
	return k;
}

static void lruk_destroy(void *p)
{
	struct lruk *k = p;
	ph_destroy(&k->h);
	free(k->hist1);
	rp_destroy(&k->b);
	free(k);
}

static void lruk_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct lruk *k = p;
	(void)why;
	bool known;
	uint32_t i = rp_add(&k->b, pfn, &known);
	uint64_t hist2 = known ? ghost_e(&k->b.g, i)->u64 : 0;
	ghost_unlink(&k->b.g, i, 0);
	lruk_ref(k, pfn, hist2);
}

static void lruk_remove(void *p, pfn_t pfn)
{
	struct lruk *k = p;
	uint32_t i = rp_remove(&k->b, pfn);
	ph_remove(&k->h, pfn);
	if (i != GH_NONE)
		ghost_free(&k->b.g, i);
}

/* The heap is by frame. */
static void lruk_hit(void *p, pfn_t pfn, uint32_t i)
{
	struct lruk *k = p;
	(void)i;
	if (ph_has(&k->h, pfn))
		lruk_ref(k, pfn, k->hist1[pfn]);
}

static void lruk_shrink(void *p, struct scan_control *sc)
{
	struct lruk *k = p;
	struct ghost *g = &k->b.g;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && ph_pass_goes_on(&k->h)) {
		pfn_t pfn = ph_min(&k->h);
		uint64_t key = ph_key(&k->h, pfn), hist1 = k->hist1[pfn];
		uint32_t i = ghost_of(k->b.mm->fr.pages, pfn);
		ph_remove(&k->h, pfn);
		enum victim_outcome o = rp_evict(&k->b, sc, i);
		if (o == VICTIM_GONE && k->max_retained) {
			ghost_e(g, i)->u64 = hist1; /* HIST(p,1) becomes HIST(p,2) on return */
			ghost_add_head(g, k->retained, i);
			if (ghost_count(g, k->retained) > k->max_retained)
				ghost_free(g, ghost_tail(g, k->retained));
			continue;
		}
		if (o == VICTIM_GONE || o == VICTIM_CULLED) {
			ghost_free(g, i);
			continue;
		}
		ph_set_aside(&k->h, pfn, key, o == VICTIM_REFUSED);
	}
	ph_put_back(&k->h);
}

static bool lruk_check(void *p, FILE *err)
{
	struct lruk *k = p;
	if (k->h.n != rp_resident(&k->b) ||
	    ghost_count(&k->b.g, k->retained) > k->max_retained) {
		fprintf(err, "check: lruk heap %llu, frame list %llu, retained %llu of %llu\n",
			(unsigned long long)k->h.n, (unsigned long long)rp_resident(&k->b),
			(unsigned long long)ghost_count(&k->b.g, k->retained),
			(unsigned long long)k->max_retained);
		return false;
	}
	return ph_check(&k->h, "lruk", err) && rp_check(&k->b, "lruk", err);
}

const struct policy_ops lruk_policy = {
	.name = "lruk",
	.summary = "LRU-2: evict the oldest second-to-last reference (SIGMOD 1993)",
	.tunables = lruk_tunables,
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = lruk_init,
	.destroy = lruk_destroy,
	.add = lruk_add,
	.remove = lruk_remove,
	.access = rp_access,
	.shrink = lruk_shrink,
	.check = lruk_check,
};
