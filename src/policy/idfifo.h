/* idfifo.h - a FIFO of the identities of evicted pages, with a bound:
 * S3-FIFO's ghost queue G (s3fifo.c) and 2Q's A1out (twoq.c).  Both
 * keep their resident pages by frame and need a page's identity only
 * once it is evicted, while it waits in the FIFO for a miss that finds
 * it (the page then goes to the main queue) or for the FIFO's tail.
 *
 * On the machine the FIFO is a list of the policy's ghost table
 * (research.h), where a resident page keeps its entry, on no list, as
 * its identity: rp_add() finds it and tells it apart from a second copy
 * of the same page.  In a cache (the cache-only replay, dense ids) a
 * resident page has no entry at all and the FIFO is a ring of ids over
 * the replay's record map (idring.h): map[id] holds the page's frame
 * while it is resident, its place in the ring while the FIFO holds it.
 * A miss reads only that slot, which the replay prefetches references
 * ahead; an entry of the ghost table was 64 bytes taken, linked and read
 * at random on every miss.
 *
 * The page a fault brings in leaves the FIFO before reclaim runs for
 * it (idf_incoming), so the FIFO's tail cannot drop it first
 * (libCacheSim's order): it is `pending` until add() (idf_arrive) takes
 * it to the main queue. */
#ifndef PAGELAB_IDFIFO_H
#define PAGELAB_IDFIFO_H

#include "idring.h"
#include "research.h"

struct idfifo {
	struct rp_base *b;  /* the policy's: on the machine its ghost table */
	struct mm *mm;      /* b's, read on every call without going through b */
	int list;           /* on the machine: the FIFO, a list of b's ghost table */
	struct idring r;    /* in a cache: the FIFO */
	bool cache;         /* the cache-only replay's (dense ids) */
	uint64_t cap;       /* the most identities it keeps */
	uint32_t pending;   /* incoming page's entry (a cache: its id), GH_NONE */
};

/* Whether a cache of `frames` frames, whose FIFO `queue` holds
 * floor(k * frames) identities (k: the tunable `tun`), fits a ring: a
 * frame is a record map value at most IR_TAG, and the ring holds at most
 * IDR_MOST ids (idring.h).  If not, err says so, with `policy`'s name,
 * for policy_ops.frames_ok (refused before anything is built). */
bool idf_cache_fits(const char *policy, const char *queue, const char *tun, double k, uint64_t frames,
		    char *err, size_t errlen);
/* After rp_init*() of b: an empty FIFO of at most cap identities. */
void idf_init(struct idfifo *q, struct rp_base *b, uint64_t cap);
void idf_destroy(struct idfifo *q);

static inline uint64_t idf_count(const struct idfifo *q)
{
	return q->cache ? q->r.live : ghost_count(&q->b->g, q->list);
}

/* In a cache: the map value of a page taken off the FIFO by
 * idf_incoming() for the fault it serves (neither a frame, GH_NONE nor
 * in the ring: idring.h). */
#define IDF_PENDING 0xfffffffeu

/* The machine's sides of the calls below (idfifo.c); a cache's are
 * inline: every miss makes three of these calls, and out of line in
 * their own file they were 4% more of S3-FIFO's instructions than as
 * its static functions (callgrind). */
void idf_incoming_machine(struct idfifo *q);
bool idf_arrive_machine(struct idfifo *q, pfn_t pfn);
enum victim_outcome idf_evict_machine(struct idfifo *q, struct scan_control *sc, pfn_t pfn, bool remember);

/* shrink(), before its first eviction: the page coming in, if the FIFO
 * holds it, leaves it (pending).  In a cache, by its map slot (the page
 * is not resident: the slot is GH_NONE or the ring's). */
static inline void idf_incoming(struct idfifo *q)
{
	if (!q->cache) {
		idf_incoming_machine(q);
		return;
	}
	const struct mm *mm = q->mm;
	if (q->pending != GH_NONE) {
		idr_mark(&q->r, q->pending, GH_NONE);
		q->pending = GH_NONE;
	}
	uint32_t id = mm->cache.fault_id;
	if (mm->fault.owner && idr_in(mm->cache.recmap[id])) {
		idr_take(&q->r, id, IDF_PENDING);
		q->pending = id;
	}
}

/* add(): the page now in pfn becomes resident (in a cache, page
 * mm->cache.fault_id); true if the FIFO held it (or it was pending). */
static inline bool idf_arrive(struct idfifo *q, pfn_t pfn)
{
	if (!q->cache)
		return idf_arrive_machine(q, pfn);
	struct rp_base *b = q->b;
	uint32_t id = q->mm->cache.fault_id, v = q->mm->cache.recmap[id];
	b->nres++;
	b->fresh = pfn;
	if (v == IDF_PENDING)
		q->pending = GH_NONE;
	if (idr_in(v))
		idr_take(&q->r, id, pfn);
	else
		idr_mark(&q->r, id, pfn);
	return v == IDF_PENDING || idr_in(v);
}

/* Evict the page in frame pfn (in a cache, page id): its identity to the
 * FIFO's head (remember) and the tail dropped past cap, or forgotten.
 * VICTIM_GONE / VICTIM_CULLED: it left; otherwise (the machine's core
 * refused it) it stays resident.  In a cache every page evicted is
 * freed (VICTIM_GONE). */
static inline enum victim_outcome idf_evict(struct idfifo *q, struct scan_control *sc, pfn_t pfn, uint32_t id,
					    bool remember)
{
	if (!q->cache)
		return idf_evict_machine(q, sc, pfn, remember);
	q->b->nres--;
	enum victim_outcome o = textbook_evict(q->mm, sc, pfn);
	if (!remember) {
		idr_mark(&q->r, id, GH_NONE);
		return o;
	}
	idr_push(&q->r, id);
	if (q->r.live > q->cap)
		idr_forget_oldest(&q->r);
	return o;
}
/* remove(): the page in frame pfn (in a cache, page id) leaves without an
 * eviction; its identity is forgotten. */
void idf_remove(struct idfifo *q, pfn_t pfn, uint32_t id);

#endif
