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
 * Layout: T1 and T2 are queues of frames (arcq.h: a hit reads a 16-byte
 * node by frame).  On the machine every page's identity is its ghost
 * entry (research.h), resident or not, and B1 and B2 are lists of the
 * ghost table.  In a cache (the cache-only replay, dense ids) a resident
 * page has no ghost entry, and B1 and B2 are FIFOs of ids over the
 * replay's record map (idring.h): a page enters them only at the head
 * and leaves at the tail or, when it comes back, from the middle, which
 * a ring with stale slots does with one map slot.  map[id] holds the
 * page's frame while it is resident and its place in B1 or B2 (a tag
 * each) while remembered.  A miss reads and writes that 4-byte slot,
 * which the replay fetches references ahead; the ghost entry was a
 * 64-byte pool entry taken, attached, detached, linked and freed on
 * every miss (bench/limit/arc.c keeps 9 bytes a page id). */
#include "policy.h"
#include "research.h"
#include "arcq.h"
#include "idring.h"
#include "../lib/util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

enum { T1 = 0, T2 = 1 }; /* the resident lists, in t[] */
enum { B1 = 0, B2 = 1 }; /* the ghost lists, in bl[] or br[] */

/* In a cache: B1's and B2's map tags (idring.h; frames lie below both),
 * and the map value of a page taken off B1/B2 by shrink() for the fault
 * it serves (neither a frame, GH_NONE nor a ring's). */
#define TAG_B1 0x40000000u
#define TAG_B2 IR_TAG
#define PENDING 0xfffffffeu

/* What add() found of the page coming in: no list, taken off B1/B2 by
 * shrink() (pending), or on B1/B2 still (back while memory is free). */
enum arrival { NEW, FROM_PENDING, FROM_GHOST };

struct arc {
	struct rp_base b;     /* on the machine: B1, B2, every page's identity */
	struct arcq_node *nd; /* per frame: its place on T1 or T2 */
	struct arcq t[2];
	int bl[2];            /* on the machine: B1, B2, lists of b.g */
	struct idring br[2];  /* in a cache: B1, B2 */
	bool cache;           /* the cache-only replay's (br, nd[].id) */
	double p;
	uint64_t c;
	/* the incoming page taken off B1/B2 by shrink() (the machine: its
	 * entry, a cache: its id), GH_NONE */
	uint32_t pending;
	/* shrink()'s bookkeeping of the victims the core refused: the list
	 * the last one came from, and whether the step forgot a ghost. */
	int refused_from;
	bool refused_noswap; /* ... for want of a swap slot */
	bool forgot;
};

static void arc_hit(void *p, pfn_t pfn, uint32_t i);

/* In a cache: B1 and B2 as rings, and the records the replay fetches -
 * for a hit the frame's node, for a miss the id's map slot alone (its
 * records of size 0: the map's record for a page is always the nodes'
 * first line, a fetch of a line that is there). */
/* In a cache B2's ring holds up to 2c + 1 ids (at most IDR_MOST) and a
 * frame is a map value below B1's tag, 2^30: a larger cache is refused
 * before anything is built (cachesim_new()). */
static bool arc_frames_ok(uint64_t frames, bool cache, const double *tun, char *err, size_t errlen)
{
	(void)tun;
	if (cache && 2 * frames + 1 > IDR_MOST) {
		snprintf(err, errlen, "policy arc: a cache of %llu frames; it holds at most %llu",
			 (unsigned long long)frames, (unsigned long long)(IDR_MOST - 1) / 2);
		return false;
	}
	return true;
}

static void arc_init_cache(struct arc *a, struct mm *mm)
{
	if (a->c >= TAG_B1)
		panic("arc: frames beyond 2^30 in a cache");
	/* |T1| + |B1| <= c, the directory <= 2c; +1: a victim goes in
	 * before add() forgets one for the bound */
	idr_init_tag(&a->br[B1], &mm->cache.recmap, a->c + 1, TAG_B1);
	idr_init_tag(&a->br[B2], &mm->cache.recmap, 2 * a->c + 1, TAG_B2);
	mm_cache_frame_records(mm, (void *const *)&a->nd, sizeof(*a->nd));
	mm_cache_record_links(mm, offsetof(struct arcq_node, prev), offsetof(struct arcq_node, next));
	mm_cache_records(mm, (void *const *)&a->nd, 0);
}

static void *arc_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct arc *a = xcalloc(1, sizeof(*a));
	a->c = mm->fr.nr;
	a->cache = mm->cache.only;
	/* in a cache the ghost table holds nothing */
	rp_init_sized(&a->b, mm, "arc", a->cache ? 0 : 2 * a->c);
	a->nd = xcalloc_huge(mm->fr.nr, sizeof(*a->nd));
	for (int k = T1; k <= T2; k++)
		a->t[k] = (struct arcq){ PFN_NONE, PFN_NONE, 0 };
	for (int k = B1; k <= B2; k++)
		a->bl[k] = ghost_list_new(&a->b.g, 0);
	a->pending = GH_NONE;
	rp_set_hit(&a->b, arc_hit);
	if (a->cache)
		arc_init_cache(a, mm);
	return a;
}

static void arc_destroy(void *p)
{
	struct arc *a = p;
	rp_destroy(&a->b);
	for (int k = B1; k <= B2; k++)
		idr_destroy(&a->br[k]);
	free(a->nd);
	free(a);
}

/* Pages on B list k. */
static inline uint64_t nb(const struct arc *a, int k)
{
	return a->cache ? a->br[k].live : ghost_count(&a->b.g, a->bl[k]);
}

#define NB(k) nb(a, k)
#define NT(k) (a->t[k].n)

/* The B list (B1, B2) of the page of entry i (the machine), or -1. */
static int on_b(const struct arc *a, uint32_t i)
{
	int l = ghost_on(&a->b.g, i, 0);
	return l == a->bl[B1] ? B1 : l == a->bl[B2] ? B2 : -1;
}

/* The B list of a page whose map slot holds v (a cache), or -1. */
static int on_b_map(const struct arc *a, uint32_t v)
{
	return idr_holds(&a->br[B1], v) ? B1 : idr_holds(&a->br[B2], v) ? B2 : -1;
}

/* Cases II and III: the page coming in is on B list k (still counted
 * there); adapt p. */
static void arc_adapt(struct arc *a, int k)
{
	uint64_t n1 = NB(B1), n2 = NB(B2);
	if (k == B1) {
		double d = n1 >= n2 ? 1.0 : (double)n2 / (double)n1;
		a->p = a->p + d < (double)a->c ? a->p + d : (double)a->c;
	} else {
		double d = n2 >= n1 ? 1.0 : (double)n1 / (double)n2;
		a->p = a->p - d > 0 ? a->p - d : 0;
	}
}

/* Forget the LRU page of B list k, if it has one. */
static void forget_tail(struct arc *a, int k)
{
	if (a->cache) {
		if (a->br[k].live) {
			idr_forget_oldest(&a->br[k]);
			a->forgot = true;
		}
		return;
	}
	uint32_t i = ghost_tail(&a->b.g, a->bl[k]);
	if (i != GH_NONE) {
		ghost_free(&a->b.g, i);
		rp_prefetch_tail(&a->b, a->bl[k]);
		a->forgot = true;
	}
}

/* In a cache: start fetching what evicting the new tail of T list k
 * will touch a miss from now (rp_prefetch_tail's for frames): the node
 * towards the head, which its unlink writes, its map slot, which it
 * goes to B1 or B2 by, its struct page and its PTE. */
__attribute__((always_inline)) static inline void arc_prefetch_tail(const struct arc *a, int k)
{
	pfn_t t = a->t[k].tail;
	if (t == PFN_NONE || !a->cache)
		return;
	const struct arcq_node *n = &a->nd[t];
	const struct mm *mm = a->b.mm;
	/* the prev of the last frame is PFN_NONE: an address past the
	 * array, only a prefetch's */
	__builtin_prefetch((const void *)((uintptr_t)a->nd + (uintptr_t)n->prev * sizeof(*n)));
	__builtin_prefetch(&mm->cache.recmap[n->id]);
	mm_prefetch_page(mm, t);
	__builtin_prefetch(&mm->cache.ptes[n->id]);
}

/* arc_evict_tail() in a cache, where every eviction frees the page. */
static void evict_tail_cache(struct arc *a, struct scan_control *sc, int from, int ghost)
{
	pfn_t f = a->t[from].tail;
	uint32_t id = a->nd[f].id;
	arcq_del(a->nd, a->t, f);
	a->b.nres--;
	textbook_evict(a->b.mm, sc, f);
	if (ghost >= 0)
		idr_push(&a->br[ghost], id);
	else
		idr_mark(&a->br[B1], id, GH_NONE);
	arc_prefetch_tail(a, from);
}

/* Evict the LRU page of T list `from`; remember it on B list `ghost`
 * (or forget it, -1).  false if the core refused it (it moves to the MRU
 * end). */
static bool arc_evict_tail(struct arc *a, struct scan_control *sc, int from, int ghost)
{
	if (a->cache) {
		evict_tail_cache(a, sc, from, ghost);
		return true;
	}
	pfn_t f = a->t[from].tail;
	uint32_t i = arcq_entry(a->nd, f);
	enum victim_outcome o = rp_evict(&a->b, sc, i);
	if (o == VICTIM_GONE || o == VICTIM_CULLED) {
		arcq_del(a->nd, a->t, f);
		if (o == VICTIM_GONE && ghost >= 0)
			ghost_add_head(&a->b.g, a->bl[ghost], i);
		else
			ghost_free(&a->b.g, i);
		return true;
	}
	arcq_move_head(a->nd, a->t, from, f);
	a->refused_from = from;
	a->refused_noswap = o == VICTIM_NOSWAP;
	return false;
}

/* REPLACE(x, p) of the paper. */
static bool arc_replace(struct arc *a, struct scan_control *sc, bool in_b2)
{
	double t1 = (double)NT(T1);
	if ((NT(T1) && (t1 > a->p || (t1 == a->p && in_b2))) || !NT(T2))
		return arc_evict_tail(a, sc, T1, B1);
	return arc_evict_tail(a, sc, T2, B2);
}

/* Case IV's directory upkeep and eviction for a page in no list. */
static bool arc_replace_new(struct arc *a, struct scan_control *sc)
{
	if (NT(T1) + NB(B1) >= a->c) {
		if (NB(B1)) {
			forget_tail(a, B1);
			return arc_replace(a, sc, false);
		}
		return arc_evict_tail(a, sc, T1, -1);
	}
	if (NT(T1) + NT(T2) + NB(B1) + NB(B2) >= 2 * a->c && NB(B2))
		forget_tail(a, B2);
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

/* shrink()'s first step on the machine: the page a fault brings in, if
 * B1 or B2 holds it, adapts p and leaves its list, pending until add()
 * takes it to T2; *in_b2: B2 held it.  One still pending at the next
 * pass never came (its fault did not complete): forgotten. */
static bool incoming_machine(struct arc *a, bool *in_b2)
{
	struct ghost *g = &a->b.g;
	if (a->pending != GH_NONE && ghost_e(g, a->pending)->pfn == PFN_NONE) {
		ghost_free(g, a->pending);
		a->pending = GH_NONE;
	}
	uint32_t x = rp_incoming(&a->b);
	int k = x != GH_NONE && ghost_e(g, x)->pfn == PFN_NONE ? on_b(a, x) : -1;
	if (k < 0)
		return false;
	*in_b2 = k == B2;
	arc_adapt(a, k);
	ghost_unlink(g, x, 0);
	a->pending = x;
	return true;
}

/* incoming_machine() in a cache, by the page's map slot (the page is not
 * resident: the slot is GH_NONE or a ring's). */
static bool incoming_cache(struct arc *a, bool *in_b2)
{
	const struct mm *mm = a->b.mm;
	if (a->pending != GH_NONE) {
		idr_mark(&a->br[B1], a->pending, GH_NONE);
		a->pending = GH_NONE;
	}
	uint32_t id = mm->cache.fault_id;
	int k = mm->fault.owner ? on_b_map(a, mm->cache.recmap[id]) : -1;
	if (k < 0)
		return false;
	*in_b2 = k == B2;
	arc_adapt(a, k);
	idr_take(&a->br[k], id, PENDING);
	a->pending = id;
	return true;
}

static void arc_shrink(void *p, struct scan_control *sc)
{
	struct arc *a = p;
	uint64_t budget = 2 * (NT(T1) + NT(T2)) + 2;
	/* The first victim makes room for the page coming in. */
	bool in_b2 = false;
	bool from_b = a->cache ? incoming_cache(a, &in_b2) : incoming_machine(a, &in_b2);
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
			gone = arc_evict_tail(a, sc, other, other == T1 ? B1 : B2);
		} else {
			gone = from_b ? arc_replace(a, sc, in_b2) : arc_replace_new(a, sc);
		}
		if (gone) {
			if (sc->nr_reclaimed > before)
				from_b = false;
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

/* add()'s first step on the machine: the page now in pfn gets its entry
 * (rp_add) and leaves B1/B2; what it was. */
static enum arrival arrive_machine(struct arc *a, pfn_t pfn)
{
	struct ghost *g = &a->b.g;
	bool known;
	uint32_t i = rp_add(&a->b, pfn, &known);
	if (i >= 1u << 31)
		panic("arc: more than 2^31 page history entries");
	a->nd[pfn].tag = i << 1;
	if (known && i == a->pending) {
		a->pending = GH_NONE;
		return FROM_PENDING;
	}
	int k = known ? on_b(a, i) : -1;
	if (k >= 0)
		arc_adapt(a, k);
	ghost_unlink(g, i, 0);
	return k >= 0 ? FROM_GHOST : NEW;
}

/* arrive_machine() in a cache: the page's map slot becomes its frame. */
static enum arrival arrive_cache(struct arc *a, pfn_t pfn)
{
	const struct mm *mm = a->b.mm;
	uint32_t id = mm->cache.fault_id, v = mm->cache.recmap[id];
	a->nd[pfn].tag = 0;
	a->nd[pfn].id = id;
	a->b.nres++;
	int k = on_b_map(a, v);
	if (k >= 0) {
		arc_adapt(a, k);
		idr_take(&a->br[k], id, pfn);
		return FROM_GHOST;
	}
	idr_mark(&a->br[B1], id, pfn);
	if (v != PENDING)
		return NEW;
	a->pending = GH_NONE;
	return FROM_PENDING;
}

static void arc_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct arc *a = p;
	(void)why;
	enum arrival from = a->cache ? arrive_cache(a, pfn) : arrive_machine(a, pfn);
	if (from == FROM_PENDING) {
		/* The REPLACE of this fault took it off B1/B2; other pages
		 * (readahead, other tasks) may have been added since and
		 * filled the directory to 2c: keep the bound. */
		if (NT(T1) + NT(T2) + NB(B1) + NB(B2) >= 2 * a->c)
			forget_tail(a, NB(B2) ? B2 : B1);
	} else if (from == NEW) {
		if (NT(T1) + NB(B1) >= a->c && NB(B1))
			forget_tail(a, B1);
		else if (NT(T1) + NT(T2) + NB(B1) + NB(B2) >= 2 * a->c && NB(B2))
			forget_tail(a, B2);
	}
	/* FROM_GHOST: back while memory is free, no REPLACE needed */
	arcq_push(a->nd, a->t, from == NEW ? T1 : T2, pfn);
}

static void arc_remove(void *p, pfn_t pfn)
{
	struct arc *a = p;
	if (a->cache) {
		uint32_t id = a->nd[pfn].id;
		if (a->b.mm->cache.recmap[id] != pfn)
			return; /* not a page it holds */
		arcq_del(a->nd, a->t, pfn);
		a->b.nres--;
		idr_mark(&a->br[B1], id, GH_NONE);
		return;
	}
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

/* --check: the page of frame f, on T1 or T2, is resident there - by its
 * ghost entry, on no ghost list (the machine), or by its map slot (a
 * cache). */
static bool frame_ok(const struct arc *a, pfn_t f)
{
	if (a->cache)
		return a->b.mm->cache.recmap[a->nd[f].id] == f;
	const struct ghost *g = &a->b.g;
	uint32_t i = arcq_entry(a->nd, f);
	return i < g->nr && ghost_e(g, i)->pfn == f && ghost_of(a->b.mm->fr.pages, f) == i && ghost_on(g, i, 0) < 0;
}

/* --check of T list k: links and count sound, each frame's page resident
 * in it. */
static bool arcq_check(const struct arc *a, int k, FILE *err)
{
	uint64_t n = 0;
	pfn_t prev = PFN_NONE;
	for (pfn_t f = a->t[k].head; f != PFN_NONE; prev = f, f = a->nd[f].next) {
		if (f >= a->b.mm->fr.nr || arcq_on(a->nd, f) != k || a->nd[f].prev != prev || ++n > NT(k) ||
		    !frame_ok(a, f)) {
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
	for (int k = B1; k <= B2 && a->cache; k++) {
		uint64_t n = idr_count(&a->br[k]);
		if (n != NB(k)) {
			fprintf(err, "check: arc B%d's ring holds %llu ids, counted %llu\n", k + 1,
				(unsigned long long)n, (unsigned long long)NB(k));
			return false;
		}
	}
	if (NT(T1) + NT(T2) != rp_resident(&a->b) || NT(T1) + NB(B1) > a->c ||
	    NT(T1) + NT(T2) + NB(B1) + NB(B2) > 2 * a->c) {
		fprintf(err, "check: arc lists T1 %llu T2 %llu B1 %llu B2 %llu for c %llu\n",
			(unsigned long long)NT(T1), (unsigned long long)NT(T2),
			(unsigned long long)NB(B1), (unsigned long long)NB(B2), (unsigned long long)a->c);
		return false;
	}
	return rp_check(&a->b, "arc", err);
}

const struct policy_ops arc_policy = {
	.name = "arc",
	.summary = "ARC: T1/T2 resident, B1/B2 ghosts, adaptive target p (FAST 2003)",
	.flags = POLICY_CACHE | POLICY_ACCESS_HOOK,
	.frames_ok = arc_frames_ok,
	.init = arc_init,
	.destroy = arc_destroy,
	.add = arc_add,
	.remove = arc_remove,
	.access = rp_access,
	.shrink = arc_shrink,
	.check = arc_check,
};
