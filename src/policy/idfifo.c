/* idfifo.c - see idfifo.h. */
#include "idfifo.h"
#include "../lib/util.h"

#include <stdio.h>

bool idf_cache_fits(const char *policy, const char *queue, const char *tun, double k, uint64_t frames,
		    char *err, size_t errlen)
{
	uint64_t cap = (uint64_t)((double)frames * k);
	if (frames > IR_TAG) {
		snprintf(err, errlen, "policy %s: a cache of %llu frames; it holds at most %u", policy,
			 (unsigned long long)frames, IR_TAG);
		return false;
	}
	if (cap + 1 > IDR_MOST) {
		snprintf(err, errlen, "policy %s: %s of %llu pages (%s=%g x %llu frames); a cache's %s holds at "
			 "most %llu", policy, queue, (unsigned long long)cap, tun, k, (unsigned long long)frames,
			 queue, (unsigned long long)IDR_MOST - 1);
		return false;
	}
	return true;
}

void idf_init(struct idfifo *q, struct rp_base *b, uint64_t cap)
{
	struct mm *mm = b->mm;
	*q = (struct idfifo){ .b = b, .mm = mm, .cap = cap, .pending = GH_NONE };
	q->list = ghost_list_new(&b->g, 0);
	if (mm->cache.only) {
		if (mm->fr.nr > IR_TAG)
			panic("idfifo: frames beyond 2^31 in a cache");
		q->cache = true;
		idr_init(&q->r, &mm->cache.recmap, cap + 1);
	}
}

void idf_destroy(struct idfifo *q) { idr_destroy(&q->r); }

/* A page still pending at the next pass was never added: it is
 * forgotten. */
void idf_incoming_machine(struct idfifo *q)
{
	struct ghost *g = &q->b->g;
	if (q->pending != GH_NONE && ghost_e(g, q->pending)->pfn == PFN_NONE) {
		ghost_free(g, q->pending);
		q->pending = GH_NONE;
	}
	uint32_t x = rp_incoming(q->b);
	if (x != GH_NONE && ghost_e(g, x)->pfn == PFN_NONE && ghost_on(g, x, 0) == q->list) {
		ghost_unlink(g, x, 0);
		q->pending = x;
	}
}

bool idf_arrive_machine(struct idfifo *q, pfn_t pfn)
{
	struct ghost *g = &q->b->g;
	bool known;
	uint32_t i = rp_add(q->b, pfn, &known);
	bool held = known && (i == q->pending || ghost_on(g, i, 0) == q->list);
	if (i == q->pending)
		q->pending = GH_NONE;
	if (known)
		ghost_unlink(g, i, 0); /* its identity, on no list while resident */
	return held;
}

/* The page's identity entry to the FIFO or freed. */
enum victim_outcome idf_evict_machine(struct idfifo *q, struct scan_control *sc, pfn_t pfn, bool remember)
{
	struct rp_base *b = q->b;
	struct ghost *g = &b->g;
	uint32_t i = ghost_of(b->mm->fr.pages, pfn);
	enum victim_outcome o = rp_evict(b, sc, i);
	if (o != VICTIM_GONE && o != VICTIM_CULLED)
		return o;
	if (!remember || o != VICTIM_GONE) {
		ghost_free(g, i);
		return o;
	}
	ghost_add_head(g, q->list, i);
	if (ghost_count(g, q->list) > q->cap)
		ghost_free(g, ghost_tail(g, q->list));
	return o;
}

void idf_remove(struct idfifo *q, pfn_t pfn, uint32_t id)
{
	struct rp_base *b = q->b;
	if (q->cache) {
		b->nres--;
		idr_mark(&q->r, id, GH_NONE);
		if (b->fresh == pfn)
			b->fresh = PFN_NONE;
		return;
	}
	uint32_t i = rp_remove(b, pfn);
	if (i != GH_NONE)
		ghost_free(&b->g, i);
}
