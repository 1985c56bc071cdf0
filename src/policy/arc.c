/* arc.c - ARC, the Adaptive Replacement Cache (Megiddo & Modha, "ARC: A
 * Self-Tuning, Low Overhead Replacement Cache", FAST 2003, Figure 4).
 * Resident pages are on T1 (seen once recently) or T2 (seen at least
 * twice); B1 and B2 remember the pages last evicted from each.  The target
 * size p of T1 adapts: a miss that hits B1 says T1 was too small (p grows by
 * max(|B2|/|B1|, 1)), one that hits B2 says T2 was (p shrinks by
 * max(|B1|/|B2|, 1)).  REPLACE evicts T1's LRU page into B1 when |T1| > p
 * (or = p and the miss hit B2), else T2's into B2.  c, the cache size, is
 * the machine's frame count; the directory L1 = T1 + B1 holds at most c
 * pages and L1 + L2 at most 2c.  p is kept as a real number, as the paper's
 * divisions ask.
 *
 * REPLACE needs to know whether the page being faulted in is in B2, so the
 * victim is chosen with mm->fault.owner/.index (research.h).  A page
 * that comes back while memory is free (after an exit) is adapted for and
 * promoted the same way, without a REPLACE.  libCacheSim's ARC follows the
 * paper step for step; its miss counts are pagelab's
 * (tests/test_research_policies.c).
 *
 * Every page's identity is its ghost entry (research.h), resident or not;
 * B1 and B2 are lists of the ghost table, T1 and T2 queues of frames
 * (arcq.h: a hit reads a 16-byte node by frame, not the page's entry). */
#include "policy.h"
#include "research.h"
#include "arcq.h"
#include "../lib/util.h"

#include <stddef.h>
#include <stdlib.h>

enum { T1 = 0, T2 = 1 }; /* the resident lists, in t[] */

struct arc {
	struct rp_base b;
	struct arcq_node *nd; /* per frame: its place on T1 or T2 */
	struct arcq t[2];
	int b1, b2;           /* ghost lists */
	double p;
	uint64_t c;
	uint32_t pending;   /* incoming page taken off B1/B2 by shrink(), GH_NONE */
	/* shrink()'s bookkeeping of the victims the core refused: the list
	 * the last one came from, and whether the step forgot a ghost. */
	int refused_from;
	bool refused_noswap; /* ... for want of a swap slot */
	bool forgot;
};

static void arc_hit(void *p, pfn_t pfn, uint32_t i);

static void *arc_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct arc *a = xcalloc(1, sizeof(*a));
	rp_init(&a->b, mm, "arc");
	a->nd = xcalloc_huge(mm->fr.nr, sizeof(*a->nd));
	for (int k = T1; k <= T2; k++)
		a->t[k] = (struct arcq){ PFN_NONE, PFN_NONE, 0 };
	a->b1 = ghost_list_new(&a->b.g, 0);
	a->b2 = ghost_list_new(&a->b.g, 0);
	a->c = mm->fr.nr;
	a->pending = GH_NONE;
	rp_set_hit(&a->b, arc_hit);
	if (mm->cache.only) {
		/* the records the replay fetches for a hit: the nodes */
		mm_cache_frame_records(mm, (void *const *)&a->nd, sizeof(*a->nd));
		mm_cache_record_links(mm, offsetof(struct arcq_node, prev), offsetof(struct arcq_node, next));
	}
	return a;
}

static void arc_destroy(void *p)
{
	struct arc *a = p;
	rp_destroy(&a->b);
	free(a->nd);
	free(a);
}

#define N(l) ghost_count(&a->b.g, a->l)
#define NT(k) (a->t[k].n)

/* Cases II and III: the page is in B1 or B2; adapt p and take it off. */
static void arc_adapt(struct arc *a, uint32_t i)
{
	struct ghost *g = &a->b.g;
	if (ghost_on(g, i, 0) == a->b1) {
		double d = N(b1) >= N(b2) ? 1.0 : (double)N(b2) / (double)N(b1);
		a->p = a->p + d < (double)a->c ? a->p + d : (double)a->c;
	} else {
		double d = N(b2) >= N(b1) ? 1.0 : (double)N(b1) / (double)N(b2);
		a->p = a->p - d > 0 ? a->p - d : 0;
	}
	ghost_unlink(g, i, 0);
}

static void forget_tail(struct arc *a, int list)
{
	uint32_t i = ghost_tail(&a->b.g, list);
	if (i != GH_NONE) {
		ghost_free(&a->b.g, i);
		rp_prefetch_tail(&a->b, list);
		a->forgot = true;
	}
}

/* In a cache: start fetching what evicting the new tail of T list k
 * will touch a miss from now (rp_prefetch_tail's for frames): the node
 * towards the head, which its unlink writes, its entry, which goes to B1
 * or B2, its struct page and its PTE. */
__attribute__((always_inline)) static inline void arc_prefetch_tail(const struct arc *a, int k)
{
	pfn_t t = a->t[k].tail;
	if (t == PFN_NONE || !a->b.g.byid)
		return;
	const struct arcq_node *n = &a->nd[t];
	/* the prev of the last frame is PFN_NONE: an address past the
	 * array, only a prefetch's */
	__builtin_prefetch((const void *)((uintptr_t)a->nd + (uintptr_t)n->prev * sizeof(*n)));
	__builtin_prefetch(ghost_e(&a->b.g, n->tag >> 1));
	mm_prefetch_page(a->b.mm, t);
	__builtin_prefetch(&a->b.mm->cache.ptes[n->id]);
}

/* Evict the LRU page of T list `from`; remember it on `ghost` (or forget
 * it, -1).  false if the core refused it (it moves to the MRU end). */
static bool arc_evict_tail(struct arc *a, struct scan_control *sc, int from, int ghost)
{
	pfn_t f = a->t[from].tail;
	uint32_t i = arcq_entry(a->nd, f);
	enum victim_outcome o = rp_evict(&a->b, sc, i);
	if (o == VICTIM_GONE || o == VICTIM_CULLED) {
		arcq_del(a->nd, a->t, f);
		if (o == VICTIM_GONE && ghost >= 0)
			ghost_add_head(&a->b.g, ghost, i);
		else
			ghost_free(&a->b.g, i);
		arc_prefetch_tail(a, from);
		return true;
	}
	arcq_move_head(a->nd, a->t, from, f);
	arc_prefetch_tail(a, from);
	a->refused_from = from;
	a->refused_noswap = o == VICTIM_NOSWAP;
	return false;
}

/* REPLACE(x, p) of the paper. */
static bool arc_replace(struct arc *a, struct scan_control *sc, bool in_b2)
{
	double t1 = (double)NT(T1);
	if ((NT(T1) && (t1 > a->p || (t1 == a->p && in_b2))) || !NT(T2))
		return arc_evict_tail(a, sc, T1, a->b1);
	return arc_evict_tail(a, sc, T2, a->b2);
}

/* Case IV's directory upkeep and eviction for a page in no list. */
static bool arc_replace_new(struct arc *a, struct scan_control *sc)
{
	if (NT(T1) + N(b1) >= a->c) {
		if (N(b1)) {
			forget_tail(a, a->b1);
			return arc_replace(a, sc, false);
		}
		return arc_evict_tail(a, sc, T1, -1);
	}
	if (NT(T1) + NT(T2) + N(b1) + N(b2) >= 2 * a->c && N(b2))
		forget_tail(a, a->b2);
	return arc_replace(a, sc, false);
}

/* k more refusals of the tail of `list`, which has refused every one of
 * its pages in a row (all are under I/O: just faulted in, or written): each
 * would scan its tail and move it to the MRU end, so k = a multiple of its
 * length leaves every list as it is and only counts the scans.  Those
 * pages stay busy for the rest of the pass (nothing completes inside an
 * ARC pass), so the loop would go round and round: 2 * (|T1| + |T2|) scans
 * per pass on qsbench's many pages in flight, the host's time of arc. */
static void skip_refusals(struct arc *a, struct scan_control *sc, int list, uint64_t k)
{
	uint64_t n = NT(list), file = 0;
	for (pfn_t f = a->t[list].tail; f != PFN_NONE; f = a->nd[f].prev)
		file += !(a->b.mm->fr.pages[f].flags & PG_anon);
	sc->nr_scanned += k;
	sc->nr_scanned_file += k / n * file;
}

static void arc_shrink(void *p, struct scan_control *sc)
{
	struct arc *a = p;
	struct ghost *g = &a->b.g;
	uint64_t budget = 2 * (NT(T1) + NT(T2)) + 2;
	if (a->pending != GH_NONE && ghost_e(g, a->pending)->pfn == PFN_NONE) {
		ghost_free(g, a->pending); /* its fault never completed */
		a->pending = GH_NONE;
	}
	/* The first victim makes room for the page coming in. */
	uint32_t x = rp_incoming(&a->b);
	bool in_b2 = false;
	if (x != GH_NONE && ghost_e(g, x)->pfn == PFN_NONE &&
	    (ghost_on(g, x, 0) == a->b1 || ghost_on(g, x, 0) == a->b2)) {
		in_b2 = ghost_on(g, x, 0) == a->b2;
		arc_adapt(a, x);
		a->pending = x;
	} else {
		x = GH_NONE;
	}
	/* Refusals in a row from one list.  Once its every page has refused
	 * and the last step forgot no ghost, the lists' counts (all REPLACE
	 * looks at) no longer change: every step to the end of the budget
	 * would refuse from the same list, going round it.  Those rounds are
	 * counted, not walked (skip_refusals), with the same result. */
	uint64_t run = 0;
	int run_list = -1;
	/* Swap is full and every page of one list has been refused for want
	 * of a swap slot: REPLACE would go on picking that list, so the pass
	 * takes the other list's LRU pages (a file page there can go), or
	 * ends when both have refused.  Without it the pass went round T1
	 * and the allocation ended in an OOM kill with the page cache full. */
	int noswap_list = -1;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && NT(T1) + NT(T2) && budget--) {
		uint64_t before = sc->nr_reclaimed;
		a->forgot = false;
		bool gone;
		if (noswap_list >= 0) {
			int other = noswap_list == T1 ? T2 : T1;
			if (!NT(other))
				break;
			gone = arc_evict_tail(a, sc, other, other == T1 ? a->b1 : a->b2);
		} else {
			gone = x != GH_NONE ? arc_replace(a, sc, in_b2) : arc_replace_new(a, sc);
		}
		if (gone) {
			if (sc->nr_reclaimed > before)
				x = GH_NONE;
			run = 0;
			continue;
		}
		if (a->refused_from != run_list) {
			run_list = a->refused_from;
			run = 0;
		}
		uint64_t n = NT(run_list);
		if (a->refused_noswap && ++run >= n) {
			if (noswap_list >= 0 && noswap_list != run_list)
				break; /* both lists refused every page */
			noswap_list = run_list;
			run = 0;
			continue;
		}
		if (a->refused_noswap)
			continue;
		if (++run >= n && !a->forgot && budget >= n) {
			skip_refusals(a, sc, run_list, budget - budget % n);
			budget %= n;
		}
	}
}

static void arc_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct arc *a = p;
	struct ghost *g = &a->b.g;
	(void)why;
	bool known;
	uint32_t i = rp_add(&a->b, pfn, &known);
	if (i >= 1u << 31)
		panic("arc: more than 2^31 page history entries");
	a->nd[pfn].tag = i << 1;
	a->nd[pfn].id = (uint32_t)ghost_e(g, i)->index; /* a cache's: the id */
	if (known && i == a->pending) {
		a->pending = GH_NONE;
		/* The REPLACE of this fault took it off B1/B2; other pages
		 * (readahead, other tasks) may have been added since and
		 * filled the directory to 2c: keep the bound. */
		if (NT(T1) + NT(T2) + N(b1) + N(b2) >= 2 * a->c)
			forget_tail(a, N(b2) ? a->b2 : a->b1);
		arcq_push(a->nd, a->t, T2, pfn);
		return;
	}
	if (known && (ghost_on(g, i, 0) == a->b1 || ghost_on(g, i, 0) == a->b2)) {
		/* Back while memory is free: no REPLACE needed. */
		arc_adapt(a, i);
		arcq_push(a->nd, a->t, T2, pfn);
		return;
	}
	ghost_unlink(g, i, 0);
	if (NT(T1) + N(b1) >= a->c && N(b1))
		forget_tail(a, a->b1);
	else if (NT(T1) + NT(T2) + N(b1) + N(b2) >= 2 * a->c && N(b2))
		forget_tail(a, a->b2);
	arcq_push(a->nd, a->t, T1, pfn);
}

static void arc_remove(void *p, pfn_t pfn)
{
	struct arc *a = p;
	uint32_t i = rp_remove(&a->b, pfn);
	if (i != GH_NONE) {
		arcq_del(a->nd, a->t, pfn);
		ghost_free(&a->b.g, i);
	}
}

static void arc_hit(void *p, pfn_t pfn, uint32_t i)
{
	struct arc *a = p;
	(void)i;
	arcq_move_head(a->nd, a->t, T2, pfn); /* case I: T1 or T2 -> MRU of T2 */
}

/* --check of T list k: links and count sound, each frame's entry resident
 * in it and on no ghost list. */
static bool arcq_check(const struct arc *a, int k, FILE *err)
{
	const struct ghost *g = &a->b.g;
	uint64_t n = 0;
	pfn_t prev = PFN_NONE;
	for (pfn_t f = a->t[k].head; f != PFN_NONE; prev = f, f = a->nd[f].next) {
		uint32_t i = arcq_entry(a->nd, f);
		if (f >= a->b.mm->fr.nr || arcq_on(a->nd, f) != k || a->nd[f].prev != prev || ++n > NT(k) ||
		    i >= g->nr || ghost_e(g, i)->pfn != f || ghost_of(a->b.mm->fr.pages, f) != i || ghost_on(g, i, 0) >= 0) {
			fprintf(err, "check: arc T%d broken at frame %u\n", k + 1, f);
			return false;
		}
	}
	if (n != NT(k) || a->t[k].tail != prev) {
		fprintf(err, "check: arc T%d holds %llu frames, counted %llu\n", k + 1, (unsigned long long)n,
			(unsigned long long)NT(k));
		return false;
	}
	return true;
}

static bool arc_check(void *p, FILE *err)
{
	struct arc *a = p;
	if (!arcq_check(a, T1, err) || !arcq_check(a, T2, err))
		return false;
	if (NT(T1) + NT(T2) != rp_resident(&a->b) || NT(T1) + N(b1) > a->c ||
	    NT(T1) + NT(T2) + N(b1) + N(b2) > 2 * a->c) {
		fprintf(err, "check: arc lists T1 %llu T2 %llu B1 %llu B2 %llu for c %llu\n",
			(unsigned long long)NT(T1), (unsigned long long)NT(T2),
			(unsigned long long)N(b1), (unsigned long long)N(b2), (unsigned long long)a->c);
		return false;
	}
	return rp_check(&a->b, "arc", err);
}

const struct policy_ops arc_policy = {
	.name = "arc",
	.summary = "ARC: T1/T2 resident, B1/B2 ghosts, adaptive target p (FAST 2003)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.init = arc_init,
	.destroy = arc_destroy,
	.add = arc_add,
	.remove = arc_remove,
	.access = rp_access,
	.shrink = arc_shrink,
	.check = arc_check,
};
