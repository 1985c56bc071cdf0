/* linux6.h - the `linux6` design: Linux 6.x classic LRU (MGLRU off), its
 * whole interface.  linux6.c holds the LRU lists and reclaim
 * (shrink_lruvec and below), linux6_balance.c the anon/file balance
 * (prepare_scan_control, get_scan_count, the LRU cost model) and the
 * workingset (shadow entries, refault distance).  Exposed so that tests
 * can drive each rule on hand-built scenarios. */
#ifndef PAGELAB_LINUX6_H
#define PAGELAB_LINUX6_H

#include "../../mm/mm.h"

/* enum lru_list of 6.x, without LRU_UNEVICTABLE (the core's list). */
enum { L6_INACTIVE_ANON, L6_ACTIVE_ANON, L6_INACTIVE_FILE, L6_ACTIVE_FILE, L6_NR_LRU };

/* get_scan_count()'s enum scan_balance. */
enum l6_balance { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE };

/* Bits of page->pol32[0]. */
#define L6_RECLAIM 1u /* PG_reclaim of 6.x: rotate to the inactive tail when
		       * writeback ends (folio_rotate_reclaimable) */

/* --set tunables, in the order of the policy's table. */
enum {
	L6_T_SWAPPINESS, L6_T_TWO_TOUCH, L6_T_SWAPIN_REFERENCED, L6_T_CACHE_TRIM,
	L6_T_FILE_IS_TINY, L6_T_COST_IO, L6_T_BAILOUT_WRITEBACK, L6_T_INACTIVE_RATIO,
	L6_T_STATS_FLUSH_MS, L6_T_STATS_FLUSH_PHASE_MS, L6_T_WAIT_WRITEBACK,
	L6_T_REFAULT_ACTIVATE, L6_T_COST_BALANCE, L6_T_BAILOUT,
	L6_NR_TUNABLES
};

struct linux6 {
	struct mm *mm;
	double t[L6_NR_TUNABLES];
	int list[L6_NR_LRU];
	/* lruvec->anon_cost / file_cost: lru_note_cost()'s floating average
	 * of reclaim I/O and rotations per type. */
	uint64_t anon_cost, file_cost;
	/* lruvec->refaults[]: workingset_activate_* at the last snapshot. */
	uint64_t refaults[2];
	/* lruvec->nonresident_age: evictions + activations. */
	uint64_t nonresident_age;
	/* prepare_scan_control()'s verdicts for the current pass. */
	unsigned may_deactivate;  /* 1 << 0 anon, 1 << 1 file */
	bool cache_trim_mode, file_is_tiny;
	/* the last get_scan_count() */
	enum l6_balance balance;
	/* The copies of the memcg's statistics that lruvec_page_state()
	 * reads (rstat, flushed every stats_flush_ms): the four LRU sizes and
	 * workingset_activate_anon/file as of the last flush.  Used only with
	 * stats_flush_ms > 0; otherwise reclaim reads live counts. */
	uint64_t flushed_lru[L6_NR_LRU], flushed_activate[2];
	uint64_t next_flush_ns;  /* simulated time of the next periodic flush */
	uint64_t nr_flushes;
};

#define L6_DEACTIVATE_ANON 1u
#define L6_DEACTIVATE_FILE 2u

static inline uint64_t l6_size(const struct linux6 *l, int lru)
{
	return lru_count(&l->mm->fr, l->list[lru]);
}

/* linux6.c */
void l6_shrink_lruvec(struct linux6 *l, struct scan_control *sc);
void l6_shrink_active_list(struct linux6 *l, uint64_t nr, struct scan_control *sc, int file);
uint64_t l6_shrink_inactive_list(struct linux6 *l, uint64_t nr, struct scan_control *sc, int file,
				 uint64_t *nr_pageout);
bool l6_inactive_is_low(const struct linux6 *l, int file);

/* linux6_balance.c */
/* lruvec_page_state() of an LRU list, and of WORKINGSET_ACTIVATE_ANON
 * (file 0) or _FILE (1): the flushed copy, or live with stats_flush_ms 0. */
uint64_t l6_stat_lru(const struct linux6 *l, int lru);
uint64_t l6_stat_activate(const struct linux6 *l, int file);
/* flush_memcg_stats_dwork(): at a reclaim pass's start (its clock now_ns),
 * take the copies if a periodic flush fell due since the last one. */
void l6_stats_flush_due(struct linux6 *l, uint64_t now_ns);
/* The first periodic flush's time: phase_ms if > 0, period_ms if 0, and
 * drawn from seed in [0, period) if -1 (linux6.c). */
uint64_t l6_first_flush_ns(double period_ms, double phase_ms, uint64_t seed);
void l6_prepare_scan_control(struct linux6 *l, struct scan_control *sc);
void l6_get_scan_count(struct linux6 *l, struct scan_control *sc, uint64_t nr[L6_NR_LRU]);
void l6_lru_note_cost(struct linux6 *l, int file, uint64_t nr_io, uint64_t nr_rotated);
void l6_snapshot_refaults(struct linux6 *l);
uint64_t l6_evict_shadow(void *p, pfn_t pfn);
void l6_refault(void *p, pfn_t pfn, uint64_t shadow);
bool l6_swap_available(const struct linux6 *l);

#endif
