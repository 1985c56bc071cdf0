/* idfifo.c - see idfifo.h. */
#include "idfifo.h"
#include "../lib/util.h"

/* In a cache: the map value of a page taken off the FIFO by
 * idf_incoming() for the fault it serves (neither a frame, GH_NONE nor
 * in the ring: idring.h). */
#define PENDING 0xfffffffeu

void idf_init(struct idfifo *q, struct rp_base *b, uint64_t cap)
{
	struct mm *mm = b->mm;
	*q = (struct idfifo){ .b = b, .cap = cap, .pending = GH_NONE };
	q->list = ghost_list_new(&b->g, 0);
	if (mm->cache.only) {
		if (mm->fr.nr > IR_TAG)
			panic("idfifo: frames beyond 2^31 in a cache");
		q->cache = true;
		idr_init(&q->r, &mm->cache.recmap, cap + 1);
	}
}

void idf_destroy(struct idfifo *q) { idr_destroy(&q->r); }

/* idf_incoming() on the machine.  A page still pending at the next pass
 * was never added: it is forgotten. */
static void incoming_machine(struct idfifo *q)
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

/* idf_incoming() in a cache, by the incoming page's map slot (the page
 * is not resident: the slot is GH_NONE or the ring's). */
static void incoming_cache(struct idfifo *q)
{
	const struct mm *mm = q->b->mm;
	if (q->pending != GH_NONE) {
		idr_mark(&q->r, q->pending, GH_NONE);
		q->pending = GH_NONE;
	}
	uint32_t id = mm->cache.fault_id;
	if (mm->fault.owner && idr_in(mm->cache.recmap[id])) {
		idr_take(&q->r, id, PENDING);
		q->pending = id;
	}
}

void idf_incoming(struct idfifo *q)
{
	if (q->cache)
		incoming_cache(q);
	else
		incoming_machine(q);
}

static bool arrive_machine(struct idfifo *q, pfn_t pfn)
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

static bool arrive_cache(struct idfifo *q, pfn_t pfn)
{
	struct rp_base *b = q->b;
	uint32_t id = b->mm->cache.fault_id, v = b->mm->cache.recmap[id];
	b->nres++;
	b->fresh = pfn;
	if (v == PENDING)
		q->pending = GH_NONE;
	if (idr_in(v))
		idr_take(&q->r, id, pfn);
	else
		idr_mark(&q->r, id, pfn);
	return v == PENDING || idr_in(v);
}

bool idf_arrive(struct idfifo *q, pfn_t pfn) { return q->cache ? arrive_cache(q, pfn) : arrive_machine(q, pfn); }

/* idf_evict() in a cache, where every page evicted is freed
 * (VICTIM_GONE). */
static enum victim_outcome evict_cache(struct idfifo *q, struct scan_control *sc, pfn_t pfn, uint32_t id,
				       bool remember)
{
	q->b->nres--;
	enum victim_outcome o = textbook_evict(q->b->mm, sc, pfn);
	if (!remember) {
		idr_mark(&q->r, id, GH_NONE);
		return o;
	}
	idr_push(&q->r, id);
	if (q->r.live > q->cap)
		idr_forget_oldest(&q->r);
	return o;
}

/* idf_evict() on the machine: the page's identity entry to the FIFO or
 * freed. */
static enum victim_outcome evict_machine(struct idfifo *q, struct scan_control *sc, pfn_t pfn, bool remember)
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

enum victim_outcome idf_evict(struct idfifo *q, struct scan_control *sc, pfn_t pfn, uint32_t id, bool remember)
{
	return q->cache ? evict_cache(q, sc, pfn, id, remember) : evict_machine(q, sc, pfn, remember);
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
