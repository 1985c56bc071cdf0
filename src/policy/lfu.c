/* lfu.c - least frequently used: evict the resident page with the fewest
 * references since it was brought in; among equals, the one that reached
 * its count first (so a page with one reference goes in FIFO order).  The
 * classic in-cache LFU (e.g. Aho, Denning & Ullman 1971's A0 with counts
 * forgotten at eviction); the tie rule is libCacheSim's LFU (frequency
 * buckets, each a FIFO of arrivals), whose miss counts are pagelab's
 * (tests/cli.d/policies.sh).  Kept in a min-heap on (count, when the count
 * was reached): every count change takes a new "when", so no two pages tie
 * and any sound heap gives the same victims.
 *
 * LFU keeps no history, so its state is its limit's (bench/limit/lfu.c)
 * by frame instead of by page (resframes.h): the heap's entries hold
 * their keys and frame together (one host line where the frame heap,
 * pageheap.h, then read three arrays at random per comparison; its
 * entries are now packed too, but two 64-bit keys do not fit one), and a
 * hit, whose keys only grow, only moves its entry down. */
#include "resframes.h"
#include "pageheap.h" /* PH_MAX_REFUSED */
#include "../lib/util.h"

#include <stdlib.h>

#define NO_SLOT UINT32_MAX

struct lfu_ent {
	uint64_t count, when;
	pfn_t pfn;
};

struct lfu {
	struct resframes r;
	struct lfu_ent *h;  /* the heap, h[0] the least */
	uint32_t *slot;     /* per frame: its heap index, NO_SLOT = none (the replay's record) */
	uint64_t n;
	uint64_t clock;     /* count changes so far: the tie breaker */
	/* Frames a shrink pass took out and the core would not take,
	 * their keys kept (pageheap.h: ph_set_aside), and of those the
	 * ones refused for I/O. */
	struct lfu_ent *aside;
	uint64_t naside, nrefused;
};

static inline bool before(const struct lfu_ent *a, const struct lfu_ent *b)
{
	return a->count != b->count ? a->count < b->count : a->when < b->when;
}

static inline void put(struct lfu *l, uint64_t k, struct lfu_ent e)
{
	l->h[k] = e;
	l->slot[e.pfn] = (uint32_t)k;
}

/* e into the hole at k, moved down past every child before it. */
static void sift_down(struct lfu *l, uint64_t k, struct lfu_ent e)
{
	for (uint64_t c; (c = 2 * k + 1) < l->n; k = c) {
		if (c + 1 < l->n && before(&l->h[c + 1], &l->h[c]))
			c++;
		if (!before(&l->h[c], &e))
			break;
		put(l, k, l->h[c]);
	}
	put(l, k, e);
}

/* e into the hole at k, moved up past every parent after it. */
static void sift_up(struct lfu *l, uint64_t k, struct lfu_ent e)
{
	for (; k && before(&e, &l->h[(k - 1) / 2]); k = (k - 1) / 2)
		put(l, k, l->h[(k - 1) / 2]);
	put(l, k, e);
}

static void insert(struct lfu *l, struct lfu_ent e) { sift_up(l, l->n++, e); }

/* The entry at k leaves the heap; the last one fills its hole. */
static void take(struct lfu *l, uint64_t k)
{
	l->slot[l->h[k].pfn] = NO_SLOT;
	struct lfu_ent last = l->h[--l->n];
	if (k == l->n)
		return;
	if (k && before(&last, &l->h[(k - 1) / 2]))
		sift_up(l, k, last);
	else
		sift_down(l, k, last);
}

static void lfu_hit(void *p, pfn_t pfn, uint32_t rec);

static void *lfu_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct lfu *l = xcalloc(1, sizeof(*l));
	pfn_t nr = mm->fr.nr;
	l->h = xmalloc((size_t)nr * sizeof(*l->h));
	l->aside = xmalloc((size_t)nr * sizeof(*l->aside));
	l->slot = xmalloc((size_t)nr * sizeof(*l->slot));
	for (pfn_t i = 0; i < nr; i++)
		l->slot[i] = NO_SLOT;
	rf_init(&l->r, mm, "lfu", (void *const *)&l->slot, sizeof(*l->slot), lfu_hit);
	return l;
}

static void lfu_destroy(void *p)
{
	struct lfu *l = p;
	rf_destroy(&l->r);
	free(l->h);
	free(l->aside);
	free(l->slot);
	free(l);
}

static void lfu_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct lfu *l = p;
	(void)why;
	rf_add(&l->r, pfn);
	insert(l, (struct lfu_ent){ 1, ++l->clock, pfn });
}

static void lfu_remove(void *p, pfn_t pfn)
{
	struct lfu *l = p;
	bool held = l->slot[pfn] != NO_SLOT;
	rf_leave(&l->r, pfn, held);
	if (held)
		take(l, l->slot[pfn]);
}

/* In a cache (the replay's hit): every page it hits is in the heap.  Its
 * keys grow, so it can only move down. */
static void lfu_hit(void *p, pfn_t pfn, uint32_t rec)
{
	struct lfu *l = p;
	(void)rec;
	uint32_t k = l->slot[pfn];
	struct lfu_ent e = l->h[k];
	e.count++;
	e.when = ++l->clock;
	sift_down(l, k, e);
}

/* On the machine: not the faulting reference, and a frame in the heap. */
static void lfu_access(void *p, pfn_t pfn, bool write)
{
	struct lfu *l = p;
	(void)write;
	if (!rf_fault_ref(&l->r, pfn) && l->slot[pfn] != NO_SLOT)
		lfu_hit(l, pfn, 0);
}

/* The least page is offered to the core; one it would not take (busy, or
 * anonymous with swap full) is set aside, keys kept, and the pass goes on
 * to the next (pageheap.h: ph_set_aside, ph_pass_goes_on). */
static void lfu_shrink(void *p, struct scan_control *sc)
{
	struct lfu *l = p;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && l->n && l->nrefused < PH_MAX_REFUSED) {
		struct lfu_ent e = l->h[0];
		take(l, 0);
		enum victim_outcome o = rf_evict(&l->r, sc, e.pfn);
		if (o == VICTIM_GONE || o == VICTIM_CULLED)
			continue;
		l->aside[l->naside++] = e;
		l->nrefused += o == VICTIM_REFUSED;
	}
	for (uint64_t i = 0; i < l->naside; i++)
		insert(l, l->aside[i]);
	l->naside = l->nrefused = 0;
	if (l->n)
		rf_prefetch_victim(&l->r, l->h[0].pfn);
}

static bool lfu_check(void *p, FILE *err)
{
	struct lfu *l = p;
	for (uint64_t k = 0; k < l->n; k++) {
		pfn_t pfn = l->h[k].pfn;
		if (!rf_frame_ok(&l->r, pfn, "lfu", err) || l->slot[pfn] != k ||
		    (k && before(&l->h[k], &l->h[(k - 1) / 2]))) {
			fprintf(err, "check: lfu heap broken at %llu\n", (unsigned long long)k);
			return false;
		}
	}
	return rf_check(&l->r, l->n, "lfu", err);
}

const struct policy_ops lfu_policy = {
	.name = "lfu",
	.summary = "least frequently used, ties to the earliest to reach its count (textbook)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = lfu_init,
	.destroy = lfu_destroy,
	.add = lfu_add,
	.remove = lfu_remove,
	.access = lfu_access,
	.shrink = lfu_shrink,
	.check = lfu_check,
};
