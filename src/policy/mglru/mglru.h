/* mglru.h - the multi-gen LRU's state, shared by mglru.c (generations and
 * the policy hooks), mglru_evict.c (eviction, the refault feedback loop)
 * and mglru_walk.c (aging by page-table walks, rmap look-around, the Bloom
 * filters), and a small inspection API for the tests.  See mglru.c for the
 * version followed. */
#ifndef PAGELAB_MGLRU_H
#define PAGELAB_MGLRU_H

#include <stdbool.h>
#include <stdint.h>
#include "../../mm/mm.h"

#define MG_GENS_CAP   8   /* largest max_nr_gens accepted */
#define MG_TIERS_CAP  4   /* MAX_NR_TIERS: refs live in LRU_REFS_WIDTH = tiers - 2 bits */
#define MG_ANON 0         /* LRU_GEN_ANON */
#define MG_FILE 1         /* LRU_GEN_FILE */

/* Per-page state: page->pol32[0] = generation + 1 (0: not on an mglru
 * list, e.g. isolated), pol32[1] = the refs counter (LRU_REFS_MASK),
 * pol32[2] = the bits below; PG_referenced, PG_workingset and PG_active
 * are the page flags themselves, as in the kernel. */
/* page->pol32[2] bits private to mglru. */
#define MG_ROTATE (1u << 0) /* folio_rotate_reclaimable() when writeback ends */

struct mglru {
	struct mm *mm;
	/* tunables */
	int swappiness;
	unsigned min_nr_gens, max_nr_gens, nr_tiers, refs_width;
	unsigned min_lru_batch, max_lru_batch;
	uint64_t min_ttl_ns;
	bool walk_mmu, look_around, bloom;
	bool tiers, aging_trigger;  /* mechanism switches (mglru.c) */
	bool folio_seq, ws_rework;  /* 6.18 behaviours (mglru.c, version switches) */
	unsigned bloom_shift;           /* BLOOM_FILTER_SHIFT */
	unsigned ptrs_per_pte, ptes_per_line;

	/* struct lru_gen_folio */
	uint64_t max_seq, min_seq[2];
	uint64_t timestamps[MG_GENS_CAP];
	int list[MG_GENS_CAP][2];          /* physical lists: head youngest, tail evicted first */
	int64_t nr_pages[MG_GENS_CAP][2];  /* by recorded generation (lazy promotion) */
	uint64_t avg_refaulted[2][MG_TIERS_CAP], avg_total[2][MG_TIERS_CAP];
	uint64_t refaulted[2][MG_TIERS_CAP], evicted[2][MG_TIERS_CAP];
	/* by tier, NR_HIST_GENS == 1: 6.14+'s layout ("rework aging
	 * feedback"); 6.6 kept MAX_NR_TIERS - 1, tier 0 never counting */
	uint64_t protected_[2][MG_TIERS_CAP];

	/* struct lru_gen_mm_state */
	uint64_t mm_seq;
	uint32_t nr_as_walked;     /* address spaces that existed at the last full walk */
	uint64_t *filter[2];       /* Bloom filters, NR_BLOOM_FILTERS == 2 */
	bool have_walk;            /* reclaimer owns an mm_walk (kswapd) */
	uint64_t wb_pass;          /* pages this reclaim pass left under writeback */
	/* sc->nr of a pass (6.18): dirty and isolated file pages taken, and
	 * the dirty ones not under writeback, for the flusher wake-up */
	uint64_t file_taken, unqueued_dirty;

	/* statistics (pagelab's, printed nowhere yet; tests read them) */
	uint64_t nr_agings, nr_walks, ptes_walked, ptes_young, walk_promoted;
	uint64_t la_young, nr_sorted, nr_protected, nr_rotated_wb;
	uint64_t nr_kept_referenced;   /* 6.6's isolated-and-referenced keeps */
};

/* Generation bookkeeping (mglru.c). */
static inline int mg_type(const struct page *p) { return (p->flags & PG_anon) ? MG_ANON : MG_FILE; }
static inline int mg_gen(const struct mglru *g, uint64_t seq) { return (int)(seq % g->max_nr_gens); }
/* The page's recorded generation, or -1 when it is not on an mglru list. */
static inline int mg_page_gen(const struct page *p) { return (int)p->pol32[0] - 1; }
static inline unsigned mg_nr_gens(const struct mglru *g, int type)
{
	return (unsigned)(g->max_seq - g->min_seq[type] + 1);
}
/* folio_lru_refs(): accesses beyond PG_referenced, 0 .. BIT(LRU_REFS_WIDTH). */
static inline unsigned mg_page_refs(const struct page *p)
{
	return p->pol32[1] + !!(p->flags & PG_workingset);
}
/* lru_tier_from_refs(): order_base_2(refs + 1), so tier 0 = 0 or 1
 * access, tier 1 = 2, tier 2 = 3-4, tier 3 = 5+. */
static inline unsigned mg_tier_from_refs(unsigned refs)
{
	unsigned n = refs + 1, t = 0;
	while ((1u << t) < n)
		t++;
	return t;
}
static inline void mg_clear_refs(struct page *p)
{
	p->pol32[1] = 0;
	p->flags &= ~(PG_referenced | PG_workingset);
}
/* 6.14+ LRU_REFS_FLAGS: the refs bits and PG_referenced, not
 * PG_workingset (mm/mglru: rework workingset protection). */
static inline void mg_clear_refs_flags(struct page *p)
{
	p->pol32[1] = 0;
	p->flags &= ~PG_referenced;
}
/* folio_lru_refs() of the version in use: 6.6 counts the accesses beyond
 * PG_referenced plus PG_workingset; 6.14+ (workingset_rework) all of
 * them including PG_referenced, 0 without it. */
static inline unsigned mg_refs(const struct mglru *g, const struct page *p)
{
	if (!g->ws_rework)
		return mg_page_refs(p);
	return (p->flags & PG_referenced) ? p->pol32[1] + 1 : 0;
}
/* lru_tier_from_refs(): 6.6 order_base_2(refs + 1); 6.14+ the last tier
 * for PG_workingset, else order_base_2(refs). */
static inline unsigned mg_tier(const struct mglru *g, const struct page *p)
{
	unsigned refs = mg_refs(g, p);
	if (!g->ws_rework)
		return mg_tier_from_refs(refs);
	if (p->flags & PG_workingset)
		return g->nr_tiers - 1;
	return refs ? mg_tier_from_refs(refs - 1) : 0;
}
/* 6.14+: a full refs count plus PG_workingset is the workingset being
 * lazily promoted (sort_folio(), inc_min_seq()): moved up, not counted
 * as protected.  Never with 6.6's code. */
static inline bool mg_lazy_promoted(const struct mglru *g, const struct page *p)
{
	return g->ws_rework &&
	       mg_refs(g, p) + !!(p->flags & PG_workingset) == (1u << g->refs_width) + 1;
}
/* lru_gen_set_refs() (6.14+): the first young PTE found sets
 * PG_referenced; the next, with PG_referenced or PG_workingset already
 * set, sets PG_workingset and returns true (promote). */
bool mg_set_refs(struct page *p);
/* lru_gen_folio_seq() of 6.18: where an off-list page would enter. */
uint64_t mg_folio_seq_618(const struct mglru *g, const struct page *p, bool reclaiming);
/* Take an on-list page off its generation's list (no-op when isolated). */
void mg_gen_del(struct mglru *g, pfn_t pfn);
/* lru_gen_add_folio(): where an off-list page enters (at the tail of
 * the oldest generation when reclaim puts it back); 6.6's placement, or
 * 6.18's lru_gen_folio_seq() with the folio_seq switch. */
void mg_add_folio(struct mglru *g, pfn_t pfn, bool reclaiming);
/* folio_update_gen(): record a new generation, dropping the refs; an
 * isolated page only gets PG_referenced.  Returns the old generation. */
int mg_update_gen(struct mglru *g, pfn_t pfn, int gen);
/* folio_activate() for a page on the lists: off the lists, PG_active,
 * lru_gen_add_folio() (6.6: the youngest generation). */
void mg_activate(struct mglru *g, pfn_t pfn);
/* folio_inc_gen(): a page of the oldest generation moves to the next one
 * (refs dropped); returns its generation. */
int mg_inc_gen(struct mglru *g, pfn_t pfn);
/* reset_ctrl_pos(carryover): fold the counts into the averages. */
void mg_reset_ctrl_pos(struct mglru *g, int type);
/* Charge simulated CPU time of the walker to whoever runs reclaim. */
void mg_charge(struct mglru *g, uint64_t ns);

/* Eviction (mglru_evict.c): the policy's shrink(); evict_folios() of one
 * pass; the swappiness reclaim uses now (0 when it may not swap); the
 * highest tier not to protect. */
void mg_shrink(void *priv, struct scan_control *sc);
uint64_t mg_evict_folios(struct mglru *g, struct scan_control *sc, int swappiness);
int mg_get_swappiness(const struct mglru *g, const struct scan_control *sc);
/* the node_priority() policy op (mglru_evict.c) */
void mg_node_priority(void *const *lruvecs, int n, struct scan_control *sc);
int mg_get_tier_idx(struct mglru *g, int type);

/* Aging (mglru_walk.c). */
bool mg_try_to_inc_max_seq(struct mglru *g, uint64_t max_seq, bool can_swap, bool force_scan);
void mg_inc_max_seq(struct mglru *g, bool can_swap);
/* Mark the lists of the two youngest generations active (LRU gauges). */
void mg_set_active_gens(struct mglru *g);
/* lru_gen_look_around(): pfn's PTE was young; promote its young neighbours. */
void mg_look_around(struct mglru *g, pfn_t pfn);
void mg_walk_init(struct mglru *g);
void mg_walk_destroy(struct mglru *g);

/* Inspection for tests: the policy state of the running mm (NULL if the
 * policy is not mglru), and a page's generation as a sequence number
 * (UINT64_MAX if it is on no mglru list). */
struct mglru *mglru_of(struct mm *mm);
uint64_t mglru_page_seq(struct mglru *g, pfn_t pfn);
unsigned mglru_page_tier(struct mglru *g, pfn_t pfn);
/* One aging pass (try_to_inc_max_seq) and one eviction pass
 * (evict_folios) as kernel reclaim would run them. */
bool mglru_age(struct mglru *g, bool force_scan);
uint64_t mglru_evict(struct mglru *g, struct scan_control *sc);
int mglru_tier_idx(struct mglru *g, int type);

#endif
