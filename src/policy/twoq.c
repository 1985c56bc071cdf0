/* twoq.c - 2Q, full version (Johnson & Shasha, "2Q: A Low Overhead High
 * Performance Buffer Management Replacement Algorithm", VLDB 1994, section
 * 2.2).  A page seen for the first time enters A1in, a FIFO of at most
 * about Kin pages; a hit there does nothing (correlated references).  When
 * A1in is over Kin its oldest page is evicted and its identifier goes on
 * A1out, a FIFO of at most Kout identifiers.  A miss on a page remembered in
 * A1out is a real second reference: the page enters Am, an LRU list.
 * Otherwise the victim is Am's LRU page, and it is not remembered.  The
 * paper's defaults: Kin = 25% of the page slots, Kout = identifiers for 50%
 * (tunables kin and kout, fractions of the frames, rounded down).
 *
 * libCacheSim's TwoQ makes Am a cache of its own, of c - Kin pages, which
 * would evict from Am a second time when a promotion finds it full; that
 * never happens, as once memory is full A1in holds at least Kin pages (it
 * only shrinks by evictions that stop at Kin), so Am holds at most c - Kin.
 * Its miss counts are pagelab's (tests/test_research_policies.c). */
#include "policy.h"
#include "research.h"
#include "../lib/util.h"

#include <stdlib.h>

struct twoq {
	struct rp_base b;
	int a1in, am, a1out;
	uint64_t kin, kout, c;
	uint32_t pending;   /* incoming page taken off A1out by shrink() */
};

static const struct tunable twoq_tunables[] = {
	{ "kin", "Kin of the paper, as a fraction of the frames", 0.25, 0, 1,
	  "A1in holds about this fraction of memory (floor(kin * frames) pages)" },
	{ "kout", "Kout of the paper, as a fraction of the frames", 0.5, 0, 4,
	  "A1out remembers floor(kout * frames) evicted pages" },
	{ 0 },
};

static void twoq_hit(void *p, pfn_t pfn, uint32_t i);

static void *twoq_init(struct mm *mm, const double *tun)
{
	struct twoq *q = xcalloc(1, sizeof(*q));
	rp_init(&q->b, mm, "2q");
	rp_hits_move(&q->b);
	q->a1in = ghost_list_new(&q->b.g, 0);
	q->am = ghost_list_new(&q->b.g, 0);
	q->a1out = ghost_list_new(&q->b.g, 0);
	q->c = mm->fr.nr;
	double kin = tun ? tun[0] : twoq_tunables[0].def;
	double kout = tun ? tun[1] : twoq_tunables[1].def;
	q->kin = (uint64_t)((double)q->c * kin);
	q->kout = (uint64_t)((double)q->c * kout);
	q->pending = GH_NONE;
	rp_set_hit(&q->b, twoq_hit);
	return q;
}

static void twoq_destroy(void *p)
{
	struct twoq *q = p;
	rp_destroy(&q->b);
	free(q);
}

#define N(l) ghost_count(&q->b.g, q->l)

/* In a cache: what the eviction two from now from the FIFO `list` (A1in,
 * A1out) touches, fetched now (rp_prefetch_queued: the entry above the
 * tail's, its page and PTE or its map slot).  A1in gives nearly every
 * victim (it is over Kin after each new page), so its next eviction is
 * the next miss, less than a host memory latency away in make bench's
 * replay: what rp_prefetch_tail() fetched a miss ahead was still waited
 * for (the new tail's entry, its struct page and LRU link: a sixth of a
 * 2Q replay's samples, perf).  Entries near a FIFO's tail never move, so
 * the one above the tail is the victim after next.  The tail's entry was
 * read by rp_prefetch_tail() just before.  (always_inline: a static
 * function of prefetches alone, gcc drops its call.) */
__attribute__((always_inline)) static inline void twoq_prefetch_ahead(const struct twoq *q, int list)
{
	const struct ghost *g = &q->b.g;
	uint32_t t = ghost_tail(g, list);
	if (t != GH_NONE && g->byid)
		rp_prefetch_queued(&q->b, list, ghost_toward_head(g, t, 0));
}

/* Evict the tail of `from`; its identifier goes to A1out or is forgotten.
 * false if the core refused it (it moves to the head). */
static bool twoq_evict_tail(struct twoq *q, struct scan_control *sc, int from)
{
	enum victim_outcome o = rp_evict_tail(&q->b, sc, from, from == q->a1in ? q->a1out : -1);
	if (from == q->a1in)
		twoq_prefetch_ahead(q, q->a1in);
	if (o == VICTIM_GONE && from == q->a1in && N(a1out) > q->kout) {
		ghost_free(&q->b.g, ghost_tail(&q->b.g, q->a1out));
		rp_prefetch_tail(&q->b, q->a1out);
		twoq_prefetch_ahead(q, q->a1out);
	}
	return o == VICTIM_GONE || o == VICTIM_CULLED;
}

/* reclaimfor() of the paper. */
static bool twoq_reclaim(struct twoq *q, struct scan_control *sc)
{
	if ((N(a1in) > q->kin && N(a1in)) || !N(am))
		return twoq_evict_tail(q, sc, q->a1in);
	return twoq_evict_tail(q, sc, q->am);
}

static void twoq_shrink(void *p, struct scan_control *sc)
{
	struct twoq *q = p;
	struct ghost *g = &q->b.g;
	uint64_t budget = 2 * (N(a1in) + N(am)) + 2;
	if (q->pending != GH_NONE && ghost_e(g, q->pending)->pfn == PFN_NONE) {
		ghost_free(g, q->pending);
		q->pending = GH_NONE;
	}
	/* The page coming in leaves A1out before reclaimfor() runs, so it is
	 * not the identifier A1out drops to make room (libCacheSim's order). */
	uint32_t x = rp_incoming(&q->b);
	if (x != GH_NONE && ghost_e(g, x)->pfn == PFN_NONE && ghost_on(g, x, 0) == q->a1out) {
		ghost_unlink(g, x, 0);
		q->pending = x;
	}
	while (sc->nr_reclaimed < sc->nr_to_reclaim && N(a1in) + N(am) && budget--)
		twoq_reclaim(q, sc);
}

static void twoq_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct twoq *q = p;
	struct ghost *g = &q->b.g;
	(void)why;
	bool known;
	uint32_t i = rp_add(&q->b, pfn, &known);
	if (known && (i == q->pending || ghost_on(g, i, 0) == q->a1out)) {
		if (i == q->pending)
			q->pending = GH_NONE;
		ghost_unlink(g, i, 0);
		ghost_add_head(g, q->am, i);
		return;
	}
	ghost_unlink(g, i, 0);
	ghost_add_head(g, q->a1in, i);
}

static void twoq_remove(void *p, pfn_t pfn)
{
	struct twoq *q = p;
	uint32_t i = rp_remove(&q->b, pfn);
	if (i != GH_NONE)
		ghost_free(&q->b.g, i);
}

static void twoq_hit(void *p, pfn_t pfn, uint32_t i)
{
	struct twoq *q = p;
	(void)pfn;
	if (ghost_on(&q->b.g, i, 0) == q->am)
		ghost_move_head(&q->b.g, q->am, i);
	/* a hit in A1in does nothing: correlated references */
}

static bool twoq_check(void *p, FILE *err)
{
	struct twoq *q = p;
	if (N(a1in) + N(am) != rp_resident(&q->b) || N(a1out) > q->kout) {
		fprintf(err, "check: 2q A1in %llu Am %llu A1out %llu (Kout %llu), frame list %llu\n",
			(unsigned long long)N(a1in), (unsigned long long)N(am),
			(unsigned long long)N(a1out), (unsigned long long)q->kout,
			(unsigned long long)rp_resident(&q->b));
		return false;
	}
	return rp_check(&q->b, "2q", err);
}

const struct policy_ops twoq_policy = {
	.name = "2q",
	.summary = "2Q full version: A1in FIFO, A1out ghosts, Am LRU (VLDB 1994)",
	.tunables = twoq_tunables,
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = twoq_init,
	.destroy = twoq_destroy,
	.add = twoq_add,
	.remove = twoq_remove,
	.access = rp_access,
	.shrink = twoq_shrink,
	.check = twoq_check,
};
