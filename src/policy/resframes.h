/* resframes.h - what the research policies that keep no page history
 * (sieve, lfu) share: their state lives in arrays indexed by frame, as
 * their limits' (bench/limit/) lives in arrays indexed by page, with no
 * ghost table (research.h) at all.  A page forgotten at eviction needs no
 * identity beyond its frame: the ghost entry each resident page had was
 * 48 bytes taken, zeroed, attached, detached and freed on every miss,
 * for nothing that decides a victim (without it SIEVE's replay of 2 M
 * Zipf references in 100 K frames went from 347 M to 255 M instructions,
 * callgrind).
 *
 * On the machine the resident frames are also on a frame list, for
 * --check and the LRU gauges, as research.c's are.  In a cache (the
 * cache-only replay) they are on none (cache_mode.h: unlisted), and the
 * replay's hit hands the policy its frame: the records are by frame
 * (cache_mode.h: frecs), so the "record" the replay prefetches a
 * few references ahead is the policy's per-frame record, found through
 * the page's PTE, with no record map by id (rf_init). */
#ifndef PAGELAB_RESFRAMES_H
#define PAGELAB_RESFRAMES_H

#include "policy.h"
#include "textbook.h"

struct resframes {
	struct mm *mm;
	int list;           /* on the machine: the frame list of resident pages */
	uint64_t n;         /* resident pages */
	pfn_t fresh;        /* added for the fault now being served */
	uint32_t *ids;      /* in a cache: per frame, its page's id */
};

/* recs: the address of the policy's per-frame record array (it may be
 * replaced, never moved under a batch), rec_size its records' size; hit:
 * the policy's hit in a cache (research.h: rp_set_hit). */
void rf_init(struct resframes *r, struct mm *mm, const char *name, void *const *recs, size_t rec_size,
	     void (*hit)(void *priv, pfn_t pfn, uint32_t rec));
void rf_destroy(struct resframes *r);
/* The page in pfn becomes resident (add()). */
void rf_add(struct resframes *r, pfn_t pfn);
/* The page in pfn leaves without an eviction (remove()); resident: the
 * policy holds it (not a frame it never had or set aside). */
void rf_leave(struct resframes *r, pfn_t pfn, bool resident);
/* access(): true if this is the reference that faulted pfn in. */
static inline bool rf_fault_ref(struct resframes *r, pfn_t pfn)
{
	if (r->fresh != pfn)
		return false;
	r->fresh = PFN_NONE;
	return true;
}
/* Evict the page in pfn.  VICTIM_GONE / VICTIM_CULLED: it left (the
 * caller drops it from its own arrays); otherwise it stays resident. */
enum victim_outcome rf_evict(struct resframes *r, struct scan_control *sc, pfn_t pfn);
/* In a cache: start fetching what evicting pfn's page will touch (its
 * struct page and PTE), for a policy that knows its next victim. */
__attribute__((always_inline)) static inline void rf_prefetch_victim(const struct resframes *r, pfn_t pfn)
{
	if (!r->ids || pfn == PFN_NONE)
		return;
	mm_prefetch_page(r->mm, pfn);
	__builtin_prefetch(&r->mm->cache.ptes[r->ids[pfn]]);
}
/* In a cache: a step before rf_prefetch_victim(r, pfn), what it reads -
 * pfn's id - and the struct page it fetches, for a policy that knows
 * its victim two misses ahead. */
__attribute__((always_inline)) static inline void rf_prefetch_next(const struct resframes *r, pfn_t pfn)
{
	if (!r->ids || pfn == PFN_NONE)
		return;
	mm_prefetch_page(r->mm, pfn);
	__builtin_prefetch(&r->ids[pfn]);
}
/* A page the policy passes over is scanned once, as anon or file; in a
 * cache every page is anonymous, and its struct page is not read. */
static inline void rf_scanned(const struct resframes *r, struct scan_control *sc, pfn_t pfn)
{
	if (r->ids)
		sc->nr_scanned++;
	else
		sc_scanned(sc, mm_page(r->mm, pfn), 1);
}
/* --check: `counted` frames on the policy's own structure, each in use. */
bool rf_check(const struct resframes *r, uint64_t counted, const char *name, FILE *err);
/* --check: the frame pfn may be on the policy's structure. */
bool rf_frame_ok(const struct resframes *r, pfn_t pfn, const char *name, FILE *err);

#endif
