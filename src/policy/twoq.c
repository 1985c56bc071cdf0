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
 * Its miss counts are pagelab's (tests/test_research_policies.c).
 *
 * Layout: A1in and Am are queues of frames (arcq.h: a 16-byte node per
 * frame, its links, its list and in a cache its page id), as
 * bench/limit/twoq.c keeps them in arrays by page; only A1out, whose
 * pages have no frame, keeps identities (idfifo.h: on the machine a
 * list of the ghost table, in a cache a ring of ids over the record
 * map).  A hit in Am moves a node within a 1.6 MB array at 100 K frames,
 * a miss touches no ghost entry in a cache: with every page's history
 * in a 64-byte ghost entry, A1in and Am lists of the ghost table, each
 * miss took, attached, detached and freed an entry at random in a pool
 * of 12.8 MB (docs/speed.md, "2Q by frame"). */
#include "policy.h"
#include "arcq.h"
#include "idfifo.h"
#include "research.h"
#include "../lib/util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { A1IN = 0, AM = 1 }; /* the resident queues, in q[] (arcq.h's lists) */

struct twoq {
	struct rp_base b;      /* on the machine: A1out, each resident page's identity */
	struct idfifo a1out;
	struct arcq_node *nd;  /* per frame: its place on A1in or Am */
	struct arcq q[2];
	uint64_t kin, kout, c;
};

static const struct tunable twoq_tunables[] = {
	{ "kin", "Kin of the paper, as a fraction of the frames", 0.25, 0, 1,
	  "A1in holds about this fraction of memory (floor(kin * frames) pages)" },
	{ "kout", "Kout of the paper, as a fraction of the frames", 0.5, 0, 4,
	  "A1out remembers floor(kout * frames) evicted pages" },
	{ 0 },
};

static void twoq_hit(void *p, pfn_t pfn, uint32_t rec);

/* In a cache A1out is a ring of ids (idfifo.h: at most IDR_MOST) and a
 * frame a record map value below 2^31: a larger cache is refused before
 * anything is built (cachesim_new()). */
static bool twoq_frames_ok(uint64_t frames, bool cache, const double *tun, char *err, size_t errlen)
{
	double kout = tun ? tun[1] : twoq_tunables[1].def;
	return !cache || idf_cache_fits("2q", "A1out", "kout", kout, frames, err, errlen);
}

static void *twoq_init(struct mm *mm, const double *tun)
{
	struct twoq *q = xcalloc(1, sizeof(*q));
	q->c = mm->fr.nr;
	double kin = tun ? tun[0] : twoq_tunables[0].def;
	double kout = tun ? tun[1] : twoq_tunables[1].def;
	q->kin = (uint64_t)((double)q->c * kin);
	q->kout = (uint64_t)((double)q->c * kout);
	/* on the machine: A1out and the resident pages' identities; in a
	 * cache no entry at all */
	rp_init_sized(&q->b, mm, "2q", mm->cache.only ? 0 : 2 * q->c);
	idf_init(&q->a1out, &q->b, q->kout);
	q->nd = xcalloc_huge(q->c, sizeof(*q->nd));
	for (int k = A1IN; k <= AM; k++)
		q->q[k] = (struct arcq){ PFN_NONE, PFN_NONE, 0 };
	rp_set_hit(&q->b, twoq_hit);
	if (mm->cache.only) {
		/* A hit's record is the frame's node, its neighbours those
		 * a move in Am writes.  A page not resident has its map
		 * slot as its whole record (A1out's ring position or
		 * none): records of no bytes, so the replay fetches a
		 * miss's slot ahead and nothing past it. */
		mm_cache_frame_records(mm, (void *const *)&q->nd, sizeof(*q->nd));
		mm_cache_record_links(mm, offsetof(struct arcq_node, prev), offsetof(struct arcq_node, next));
		mm_cache_records(mm, (void *const *)&q->nd, 0);
	}
	return q;
}

static void twoq_destroy(void *p)
{
	struct twoq *q = p;
	idf_destroy(&q->a1out);
	rp_destroy(&q->b);
	free(q->nd);
	free(q);
}

#define N(k) (q->q[k].n)

/* In a cache: start fetching what evicting the victim after next from
 * queue k will touch, two misses from now - its struct page, its PTE
 * and its map slot (A1out's ring or none is written there) - and the
 * node above it, three misses ahead, whose id the next call reads.  A1in
 * gives nearly every victim (it is over Kin after each new page), so its
 * next eviction is the next miss, less than a host memory latency away
 * in make bench's replay: what a miss ahead fetched was still on its
 * way when the eviction read it (the victim's PTE and LRU link, perf).
 * The next victim's were fetched by the call before, when it was the
 * one after next; nodes near a FIFO's tail never move, and the unlink
 * of the victim wrote the new tail's node.  (always_inline: a static
 * function of prefetches alone, gcc drops its call.) */
__attribute__((always_inline)) static inline void twoq_prefetch_tail(const struct twoq *q, int k)
{
	pfn_t t = q->q[k].tail;
	const struct mm *mm = q->b.mm;
	if (t == PFN_NONE || !q->a1out.cache || q->nd[t].prev == PFN_NONE)
		return;
	pfn_t u = q->nd[t].prev;
	const struct arcq_node *n = &q->nd[u];
	/* the prev of the head is PFN_NONE: an address past the array,
	 * only a prefetch's */
	__builtin_prefetch((const void *)((uintptr_t)q->nd + (uintptr_t)n->prev * sizeof(*n)));
	mm_prefetch_page(mm, u);
	__builtin_prefetch(&mm->cache.ptes[n->id]);
	__builtin_prefetch(&mm->cache.recmap[n->id]);
}

/* Evict the tail of queue k: from A1in its identity goes to A1out,
 * from Am it is forgotten.  One the core refused moves to k's head. */
static void twoq_evict_tail(struct twoq *q, struct scan_control *sc, int k)
{
	pfn_t f = q->q[k].tail;
	enum victim_outcome o = idf_evict(&q->a1out, sc, f, q->nd[f].id, k == A1IN);
	if (o == VICTIM_GONE || o == VICTIM_CULLED)
		arcq_del(q->nd, q->q, f);
	else
		arcq_move_head(q->nd, q->q, k, f);
	twoq_prefetch_tail(q, k);
}

static void twoq_shrink(void *p, struct scan_control *sc)
{
	struct twoq *q = p;
	uint64_t budget = 2 * (N(A1IN) + N(AM)) + 2;
	/* The page coming in leaves A1out before reclaimfor() runs, so it is
	 * not the identifier A1out drops to make room (libCacheSim's order). */
	idf_incoming(&q->a1out);
	/* reclaimfor() of the paper */
	while (sc->nr_reclaimed < sc->nr_to_reclaim && N(A1IN) + N(AM) && budget--)
		twoq_evict_tail(q, sc, N(A1IN) > q->kin || !N(AM) ? A1IN : AM);
}

/* A page A1out remembered is a real second reference: Am; any other
 * new page enters A1in. */
static void twoq_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct twoq *q = p;
	(void)why;
	bool second = idf_arrive(&q->a1out, pfn);
	q->nd[pfn].id = q->b.mm->cache.fault_id; /* a cache's page id (0 on the machine) */
	arcq_push(q->nd, q->q, second ? AM : A1IN, pfn);
}

/* Called for the frames of the policy's frame list, which are all queued
 * (never in a cache, where frames are on no list). */
static void twoq_remove(void *p, pfn_t pfn)
{
	struct twoq *q = p;
	arcq_del(q->nd, q->q, pfn);
	idf_remove(&q->a1out, pfn, q->nd[pfn].id);
}

static void twoq_hit(void *p, pfn_t pfn, uint32_t rec)
{
	struct twoq *q = p;
	(void)rec;
	if (arcq_on(q->nd, pfn) == AM)
		arcq_move_head(q->nd, q->q, AM, pfn);
	/* a hit in A1in does nothing: correlated references */
}

/* --check: frame f holds a page of its own - on the machine one with
 * its identity entry, on no ghost list; in a cache the one its node
 * names, whose PTE maps f. */
static bool resident_ok(const struct twoq *q, pfn_t f)
{
	const struct mm *mm = q->b.mm;
	if (f >= mm->fr.nr || (mm->fr.pages[f].flags & PG_free))
		return false;
	if (q->a1out.cache) {
		pte_t pte = mm->cache.ptes[q->nd[f].id];
		return pte_present(pte) && pte_pfn(pte) == f;
	}
	uint32_t i = ghost_of(mm->fr.pages, f);
	return i != GH_NONE && ghost_e(&q->b.g, i)->pfn == f && ghost_on(&q->b.g, i, 0) < 0;
}

/* --check of queue k: its links, each frame's list and page, its count. */
static bool queue_ok(const struct twoq *q, int k, FILE *err)
{
	uint64_t n = 0;
	pfn_t above = PFN_NONE;
	for (pfn_t f = q->q[k].head; f != PFN_NONE; above = f, f = q->nd[f].next) {
		if (!resident_ok(q, f) || arcq_on(q->nd, f) != k || q->nd[f].prev != above || ++n > N(k)) {
			fprintf(err, "check: 2q %s broken at frame %u\n", k == A1IN ? "A1in" : "Am", f);
			return false;
		}
	}
	if (n == N(k) && q->q[k].tail == above)
		return true;
	fprintf(err, "check: 2q %s holds %llu frames, counted %llu\n", k == A1IN ? "A1in" : "Am",
		(unsigned long long)n, (unsigned long long)N(k));
	return false;
}

static bool twoq_check(void *p, FILE *err)
{
	struct twoq *q = p;
	if (!queue_ok(q, A1IN, err) || !queue_ok(q, AM, err))
		return false;
	uint64_t out = idf_count(&q->a1out);
	if (N(A1IN) + N(AM) != rp_resident(&q->b) || out > q->kout) {
		fprintf(err, "check: 2q A1in %llu Am %llu A1out %llu (Kout %llu), frame list %llu\n",
			(unsigned long long)N(A1IN), (unsigned long long)N(AM), (unsigned long long)out,
			(unsigned long long)q->kout, (unsigned long long)rp_resident(&q->b));
		return false;
	}
	return rp_check(&q->b, "2q", err);
}

const struct policy_ops twoq_policy = {
	.name = "2q",
	.summary = "2Q full version: A1in FIFO, A1out ghosts, Am LRU (VLDB 1994)",
	.tunables = twoq_tunables,
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.frames_ok = twoq_frames_ok,
	.init = twoq_init,
	.destroy = twoq_destroy,
	.add = twoq_add,
	.remove = twoq_remove,
	.access = rp_access,
	.shrink = twoq_shrink,
	.check = twoq_check,
};
