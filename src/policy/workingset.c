/* workingset.c - the split LRU plus refault-distance detection: Johannes
 * Weiner's mm/workingset.c as merged in 3.15 for page-cache pages, with
 * Joonsoo Kim's 5.9 extension to anonymous pages (shadow entries in swap
 * slots, new anonymous pages starting on the inactive list).
 *
 * A per-zone counter, the nonresident age (3.15's inactive_age), ticks on
 * every eviction and every activation: both move the inactive list by one
 * slot.  An evicted page leaves the counter's value in its slot as a shadow
 * entry.  When the page faults back in, (age now - age at eviction) is the
 * refault distance: the number of extra inactive slots the page would have
 * needed to be activated instead of evicted.  If the active list could give
 * up that many slots the page is part of the workingset and is activated
 * at once (workingset_activate); otherwise it starts inactive as usual.
 *   file refault (3.15):   distance <= NR_ACTIVE_FILE
 *                          (file_wss=1: 5.9's active_file + anon lists when
 *                          swap space is free)
 *   anon refault (5.9):    distance <= active_file + inactive_file
 *                          (+ active_anon when swap space is free)
 * A page that was itself active before eviction (PG_workingset, 4.20) and
 * refaults within the distance is counted as workingset_restore.
 *
 * The reclaim engine underneath is splitlru.c with the later rules the
 * workingset code was written against turned on by default: stream (skip
 * the active file list while the inactive one is at least as large, 3.15's
 * inactive_file_is_low), exec_active (2.6.31) and anon_inactive (5.9).
 *
 * Simplified: one zone and no memcg (the shadow holds the counter and the
 * PG_workingset bit, no node or memcg id); the counter is not coarsened into
 * buckets (64 bits hold any distance); no shadow-node shrinker; nonresident
 * aging on activation follows 5.9 (mark_page_accessed, reclaim putback
 * active, refault) for both types; 3.15's get_scan_count refinements and
 * 5.9's LRU cost model are not modeled - pressure is 2.6.28's
 * get_scan_ratio, but in cgroup reclaim with 3.15's swappiness rules
 * (the memcg's, 0: file only) and 6.9's memory.reclaim swappiness=
 * (splitlru.c, cfg.memcg_swappiness). */
#include "policy.h"
#include "splitlru.h"
#include "../mm/filemap.h"
#include "../lib/util.h"

#include <stdlib.h>

struct workingset {
	struct splitlru s;
	uint64_t nonresident_age; /* inactive_age (3.15) / nonresident_age (5.9) */
	bool file_wss;           /* file refaults compare with 5.9's larger workingset */
};

/* Shadow entry: bit 0 always set (a zero slot means "no shadow"), bit 1 the
 * PG_workingset bit, the rest the eviction counter. */
#define SHADOW_VALID      1ull
#define SHADOW_WORKINGSET 2ull
#define SHADOW_SHIFT      2

static inline uint64_t pack_shadow(uint64_t eviction, bool workingset)
{
	return (eviction << SHADOW_SHIFT) | (workingset ? SHADOW_WORKINGSET : 0) | SHADOW_VALID;
}

static void ws_activation(struct splitlru *s, pfn_t pfn)
{
	(void)pfn;
	((struct workingset *)s->owner)->nonresident_age++;
}

/* workingset_eviction(): the shadow records the age, then the age moves. */
static uint64_t ws_evict_shadow(void *p, pfn_t pfn)
{
	struct workingset *w = p;
	const struct page *pg = mm_page(w->s.mm, pfn);
	uint64_t shadow = pack_shadow(w->nonresident_age, pg->flags & PG_workingset);
	w->nonresident_age++;
	return shadow;
}

/* The refault distance for a shadow, and the workingset it is measured
 * against (workingset_test_recent). */
static bool ws_refault_fits(struct workingset *w, bool file, uint64_t shadow)
{
	struct splitlru *s = &w->s;
	uint64_t eviction = shadow >> SHADOW_SHIFT;
	uint64_t distance = w->nonresident_age - eviction;
	bool swap_free = s->mm->swap.used < s->mm->swap.nr_slots;
	uint64_t wss = splitlru_size(s, LRU_ACTIVE_FILE);
	if (!file) {
		wss += splitlru_size(s, LRU_INACTIVE_FILE);
		if (swap_free)
			wss += splitlru_size(s, LRU_ACTIVE_ANON);
	} else if (w->file_wss && swap_free) {
		wss += splitlru_size(s, LRU_ACTIVE_ANON) + splitlru_size(s, LRU_INACTIVE_ANON);
	}
	return distance <= wss;
}

/* workingset_refault(): called with the new, not yet added page. */
static void ws_refault(void *p, pfn_t pfn, uint64_t shadow)
{
	struct workingset *w = p;
	struct mm *mm = w->s.mm;
	struct page *pg = mm_page(mm, pfn);
	bool file = !(pg->flags & PG_anon);
	mm->ev[file ? WORKINGSET_REFAULT_FILE : WORKINGSET_REFAULT_ANON]++;
	if (!(shadow & SHADOW_VALID) || !ws_refault_fits(w, file, shadow))
		return;
	pg->flags |= PG_active;
	w->nonresident_age++;
	mm->ev[file ? WORKINGSET_ACTIVATE_FILE : WORKINGSET_ACTIVATE_ANON]++;
	if (shadow & SHADOW_WORKINGSET) {
		/* It was active before eviction: the workingset is thrashing,
		 * not transitioning. */
		pg->flags |= PG_workingset;
		mm->ev[file ? WORKINGSET_RESTORE_FILE : WORKINGSET_RESTORE_ANON]++;
	}
}

static const struct tunable workingset_tunables[] = {
	{ "swappiness", "/proc/sys/vm/swappiness", 60, 0, 100,
	  "anon vs file scan weight in get_scan_ratio()" },
	{ "inactive_ratio", "zone->inactive_ratio (setup_per_zone_inactive_ratio)", 0, 0, 100000,
	  "active:inactive anon target; 0 = int_sqrt(10 x zone GB), at least 1" },
	{ "noforce", "e0f79b8 vmscan: don't accumulate scan pressure on unrelated lists", 1, 0, 1,
	  "0 = add one page of scan pressure per list per shrink_zone (2.6.26-rc8-mm1)" },
	{ "stream", "inactive_file_is_low (2.6.31 vmscan: evict use-once pages first)", 1, 0, 1,
	  "1 = skip ACTIVE_FILE while inactive file >= active file" },
	{ "exec_active", "2.6.31 shrink_active_list VM_EXEC rule (Wu Fengguang)", 1, 0, 1,
	  "1 = referenced mapped executable file pages stay active" },
	{ "anon_inactive", "5.9 lru_cache_add_inactive_or_unevictable (Joonsoo Kim)", 1, 0, 1,
	  "1 = new anonymous pages start on the inactive list" },
	{ "file_wss", "5.9 workingset_refault workingset_size", 0, 0, 1,
	  "0 = file refaults compare with NR_ACTIVE_FILE (3.15); 1 = plus anon when swap is free" },
	{ 0 },
};

static void *workingset_init(struct mm *mm, const double *tun)
{
	struct workingset *w = xcalloc(1, sizeof(*w));
	mm_flusher_era(mm, FLUSHER_PERBDI); /* flush-8:0, IO-less throttling, 20/10 */
	ra_set_era(mm, 30);                 /* 3.0+ mmap fault readahead */
	double v[7];
	for (int i = 0; i < 7; i++)
		v[i] = tun ? tun[i] : workingset_tunables[i].def;
	struct splitlru_cfg cfg = {
		.swappiness = (unsigned)v[0],
		.inactive_ratio = (unsigned)v[1],
		.noforce = v[2] != 0,
		.stream = v[3] != 0,
		.exec_active = v[4] != 0,
		.anon_inactive = v[5] != 0,
		.deactivate_workingset = true,
		.memcg_swappiness = true,
	};
	w->file_wss = v[6] != 0;
	splitlru_setup(&w->s, mm, &cfg);
	w->s.activation = ws_activation;
	w->s.owner = w;
	return w;
}

static void ws_destroy(void *p) { free(p); }
static void ws_add(void *p, pfn_t pfn, enum add_reason why) { splitlru_add(&((struct workingset *)p)->s, pfn, why); }
static void ws_remove(void *p, pfn_t pfn) { splitlru_remove(&((struct workingset *)p)->s, pfn); }
static void ws_mark_accessed(void *p, pfn_t pfn) { splitlru_mark_accessed(&((struct workingset *)p)->s, pfn); }
static void ws_shrink(void *p, struct scan_control *sc) { splitlru_shrink(&((struct workingset *)p)->s, sc); }
static void ws_end_writeback(void *p, pfn_t pfn) { splitlru_end_writeback(&((struct workingset *)p)->s, pfn); }
static bool ws_check(void *p, FILE *err) { return splitlru_check(&((struct workingset *)p)->s, err); }

const struct policy_ops workingset_policy = {
	.name = "workingset",
	.summary = "split LRU + refault distance: shadow entries, workingset activation (3.15 file, 5.9 anon)",
	.flags = POLICY_MEMCG_LRU,
	.tunables = workingset_tunables,
	.init = workingset_init,
	.destroy = ws_destroy,
	.add = ws_add,
	.remove = ws_remove,
	.mark_accessed = ws_mark_accessed,
	.shrink = ws_shrink,
	.end_writeback = ws_end_writeback,
	.check = ws_check,
	.evict_shadow = ws_evict_shadow,
	.refault = ws_refault,
};
