/* research.h - what the research policies (arc, 2q, lirs, clockpro, s3fifo,
 * sieve, lfu, lruk) share: their page history in a ghost table (ghost.h),
 * one frame list holding every resident page (for --check; the order that
 * matters is kept in the ghost lists), telling the faulting reference of a
 * new page from a later hit, and handing a victim to the mm core.
 *
 * They are cache-replacement algorithms: every reference is an event, so
 * they use the idealized-MMU access hook (POLICY_ACCESS_HOOK).  A miss is a
 * fault: the core calls shrink() for a frame (mm->fault.owner/.index
 * name the page coming in), then add() for the new page, then access() for
 * the reference that faulted, which rp_fault_ref() filters out: in a cache
 * simulator the missing reference is the insertion, not a hit. */
#ifndef PAGELAB_RESEARCH_H
#define PAGELAB_RESEARCH_H

#include "ghost.h"
#include "textbook.h"

struct rp_base {
	struct mm *mm;
	struct ghost g;
	int list;           /* frame list of resident pages (not in a cache) */
	uint64_t nres;      /* in a cache: resident pages (rp_resident) */
	pfn_t fresh;        /* added for the fault now being served */
	/* rp_add() drops a stale private entry (see there) that may still be
	 * on the policy's lists; a policy that counts entries or points at
	 * them (clockpro's hands) sets this to let go of it.  NULL: the
	 * entry is just freed (ghost_free unlinks it from its lists). */
	void (*forget)(struct rp_base *b, uint32_t i);
	/* A clock hand's work, for the tests (clockpro's HAND_cold): the
	 * entries it moved over, and the entries it looked at - a jump over
	 * entries it has nothing to do with is one look.  In a cache the
	 * entries a reclaim pass's last jump passes are not counted
	 * (clockpro.c: hand_cold_jump). */
	uint64_t hand_steps, hand_looks;
	void (*hit)(void *priv, pfn_t pfn, uint32_t i); /* rp_set_hit */
};

void rp_init(struct rp_base *b, struct mm *mm, const char *name);
/* rp_init() with room for `entries` entries at first (rp_init: twice the
 * frames, a page's history beside each resident page; the pool grows as
 * it must). */
void rp_init_sized(struct rp_base *b, struct mm *mm, const char *name, uint64_t entries);
void rp_destroy(struct rp_base *b);
/* add(): the entry of the page now in frame pfn, attached to it and the
 * frame put on the frame list.  *known says whether the page had an entry
 * already (a ghost); a new entry is on no ghost list. */
uint32_t rp_add(struct rp_base *b, pfn_t pfn, bool *known);
/* access(): true if this is the reference that faulted pfn in. */
bool rp_fault_ref(struct rp_base *b, pfn_t pfn);
/* remove(): the page in pfn leaves (exit, munmap); its entry, returned, is
 * detached but still on its lists: the policy frees it or keeps it. */
uint32_t rp_remove(struct rp_base *b, pfn_t pfn);
/* Evict the resident page of entry i.  On VICTIM_GONE / VICTIM_CULLED the
 * entry is detached (non-resident, still on its lists); otherwise it stays
 * resident and the caller must choose another victim. */
enum victim_outcome rp_evict(struct rp_base *b, struct scan_control *sc, uint32_t i);
/* Evict the tail entry of list `from` (ARC's T1/T2, 2Q's A1in/Am): a page
 * gone is remembered at the head of list `ghost` (forgotten if ghost < 0),
 * a culled one forgotten, a refused one moved to from's head. */
enum victim_outcome rp_evict_tail(struct rp_base *b, struct scan_control *sc, int from, int ghost);
/* In a cache (dense ids): start fetching what evicting entry i's page
 * will touch - its struct page, its frame's links, its PTE - for a policy
 * that knows its next victim a miss ahead (the new tail of the list it
 * evicts from).  Each was a host cache miss waited for in turn: the PTE
 * and the page were a fifth of an ARC replay's time (perf).  Only a
 * hint: nothing is read for it.  (always_inline: mm_prefetch_page().) */
__attribute__((always_inline)) static inline void rp_prefetch_victim(const struct rp_base *b, uint32_t i)
{
	const struct mm *mm = b->mm;
	if (i == GH_NONE || !b->g.byid)
		return;
	const struct gh_entry *e = ghost_e(&b->g, i);
	if (e->pfn == PFN_NONE)
		return;
	mm_prefetch_page(mm, e->pfn);
	__builtin_prefetch(&mm->cache.ptes[e->index]); /* dense: index is the id */
}

/* In a cache: start fetching what taking the tail entry of `list` off
 * will touch, for a policy that takes it off a miss or more from now (a
 * queue it evicts from or a ghost queue it forgets from): for a resident
 * page what rp_prefetch_victim() fetches, for a ghost its record map
 * slot (ghost_free clears it), and for both the entry toward the head,
 * which the unlink writes and which is the tail after it - fetched a
 * miss ahead here, it is in the host's cache when its own turn comes
 * (the unlink's write of it was the stall of ARC's eviction, perf).
 * Only a hint: nothing is read for it but the tail entry, which the
 * unlink before wrote.  (The prev of the last entry is GH_NONE: an
 * address past the pool, only a prefetch's.)  rp_prefetch_queued() does
 * the same for entry i of `list` (queued there, or GH_NONE: nothing),
 * for a policy that fetches further than its next tail. */
__attribute__((always_inline)) static inline void rp_prefetch_queued(const struct rp_base *b, int list, uint32_t i)
{
	const struct ghost *g = &b->g;
	if (i == GH_NONE || !g->byid)
		return;
	const struct gh_entry *e = ghost_e(g, i);
	__builtin_prefetch((const void *)((uintptr_t)g->e + (uintptr_t)e->prev[g->lists[list].slot] * sizeof(*e)));
	if (e->pfn == PFN_NONE) {
		__builtin_prefetch(&(*g->byid)[e->index]);
		return;
	}
	mm_prefetch_page(b->mm, e->pfn);
	__builtin_prefetch(&b->mm->cache.ptes[e->index]); /* dense: index is the id */
}

__attribute__((always_inline)) static inline void rp_prefetch_tail(const struct rp_base *b, int list)
{
	rp_prefetch_queued(b, list, ghost_tail(&b->g, list));
}

/* sc_scanned() of the page in frame pfn, for a policy's scan of its
 * queue: in a cache every page is anonymous (a fault's, cacheonly.h), so
 * its struct page - a host cache miss for each entry a scan passes over
 * (S3-FIFO's, perf) - is not read there to tell. */
static inline void rp_scanned(const struct rp_base *b, struct scan_control *sc, pfn_t pfn)
{
	if (b->g.byid)
		sc->nr_scanned++;
	else
		sc_scanned(sc, mm_page(b->mm, pfn), 1);
}

/* In a cache: the policy's hits move entries on the lists of slot 0,
 * whose neighbours the replay then prefetches (cache_mode.h). */
void rp_hits_move(struct rp_base *b);

/* The policy's hit: hit(priv, pfn, i) for a reference that found the
 * page of entry i resident in frame pfn (the policy's struct begins with
 * its rp_base).  rp_access() is the access() of a policy that sets one:
 * hit() for every reference but the faulting one, the entry found through
 * the frame.  In a cache the replay calls hit() itself (cache_mode.h),
 * with the entry from recmap. */
void rp_set_hit(struct rp_base *b, void (*hit)(void *priv, pfn_t pfn, uint32_t i));
void rp_access(void *priv, pfn_t pfn, bool write);

/* Resident pages: the frame list's count, or in a cache, where frames
 * are on no list (cache_mode.h: unlisted), the count kept beside it -
 * the list's links were two random frames touched on every miss. */
static inline uint64_t rp_resident(const struct rp_base *b)
{
	return b->g.byid ? b->nres : lru_count(&b->mm->fr, b->list);
}

/* The entry of the page a fault is bringing in, if it has one. */
uint32_t rp_incoming(const struct rp_base *b);
/* --check of the ghost lists and frame/entry agreement. */
bool rp_check(struct rp_base *b, const char *name, FILE *err);

#endif
