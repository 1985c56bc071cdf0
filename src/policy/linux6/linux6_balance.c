/* linux6_balance.c - the `linux6` design's anon/file balance and its
 * workingset, following 6.x mm/vmscan.c (prepare_scan_control,
 * get_scan_count), mm/swap.c (lru_note_cost, lru_note_cost_refault) and
 * mm/workingset.c (workingset_eviction, workingset_test_recent,
 * workingset_refault).
 *
 * Balance: get_scan_count() splits each pass between anon and file
 * inversely to what reclaiming each has recently cost (5.9's LRU cost
 * model, Johannes Weiner's "mm: balance LRU lists based on relative
 * thrashing"): anon_cost and file_cost grow by SWAP_CLUSTER_MAX per page
 * of reclaim I/O or refault of a former workingset page, and by one per
 * rotation, decaying by half whenever they pass a quarter of the LRU
 * pages.  Swappiness (0..200) weighs the two IO costs.  Before that,
 * prepare_scan_control() may settle the balance outright: file only while
 * inactive file is plentiful (>> priority) and not refaulting
 * (cache_trim_mode), anon only when file + free pages are below the high
 * watermarks (file_is_tiny), equal at priority 0.
 *
 * Workingset: every eviction and activation ticks the nonresident age;
 * an evicted folio leaves (age, PG_workingset) as its shadow.  On refault,
 * a distance within the workingset - active file + inactive file (anon
 * only) + the anon lists when swap space is free (active anon; file also
 * inactive anon) - activates it (workingset_activate_*); a folio that was
 * active before eviction counts as workingset_restore_* and charges the
 * cost model (lru_note_cost_refault).
 *
 * Simplified: one lruvec (the cgroup's under --memcg), the
 * shadow holds the full counter (no bucket_order), refault detection has
 * no shadow-node shrinker. */
#include "../policy.h"
#include "linux6.h"
#include "../../lib/util.h"

#define MAX_SWAPPINESS 200

/* can_reclaim_anon_pages(): swap space left. */
bool l6_swap_available(const struct linux6 *l)
{
	return l->mm->swap.used < l->mm->swap.nr_slots;
}

/* lru_note_cost(): reclaim I/O weighs cost_io (SWAP_CLUSTER_MAX)
 * rotations; a floating average over about a quarter of the LRU. */
void l6_lru_note_cost(struct linux6 *l, int file, uint64_t nr_io, uint64_t nr_rotated)
{
	uint64_t cost = nr_io * (uint64_t)l->t[L6_T_COST_IO] + nr_rotated;
	if (file)
		l->file_cost += cost;
	else
		l->anon_cost += cost;
	uint64_t lrusize = 0;
	for (int i = 0; i < L6_NR_LRU; i++)
		lrusize += l6_size(l, i);
	if (l->file_cost + l->anon_cost > lrusize / 4) {
		l->file_cost /= 2;
		l->anon_cost /= 2;
	}
}

/* The memcg statistics reclaim reads.  A 6.x memcg's lruvec_page_state()
 * returns the per-cgroup copy that rstat flushing keeps (mm/memcontrol.c:
 * pn->lruvec_stats->state[]), not a live count: per-CPU deltas are folded
 * in by flush_memcg_stats_dwork() every FLUSH_TIME (2 s), and reclaim's own
 * mem_cgroup_flush_stats_ratelimited() (prepare_scan_control,
 * workingset_test_recent) flushes only when that worker is a full cycle
 * late.  So inactive_is_low(), the refault test of prepare_scan_control()
 * and the workingset size of a refault see the lists as they were at the
 * last flush, up to 2 s ago, while get_scan_count() scans by the live
 * per-zone sizes (mem_cgroup_get_zone_lru_size()).  Before the first flush
 * a new cgroup's copies are 0. */
uint64_t l6_stat_lru(const struct linux6 *l, int lru)
{
	return l->t[L6_T_STATS_FLUSH_MS] > 0 ? l->flushed_lru[lru] : l6_size(l, lru);
}

uint64_t l6_stat_activate(const struct linux6 *l, int file)
{
	if (l->t[L6_T_STATS_FLUSH_MS] > 0)
		return l->flushed_activate[file];
	return l->mm->ev[file ? WORKINGSET_ACTIVATE_FILE : WORKINGSET_ACTIVATE_ANON];
}

/* The periodic flush falls at phase + k x period; pagelab takes the copy
 * at the first reclaim pass after it (the lists change between passes only
 * by the faults of a few microseconds under pressure). */
void l6_stats_flush_due(struct linux6 *l, uint64_t now_ns)
{
	uint64_t period = (uint64_t)(l->t[L6_T_STATS_FLUSH_MS] * 1e6);
	if (!period || now_ns < l->next_flush_ns)
		return;
	for (int i = 0; i < L6_NR_LRU; i++)
		l->flushed_lru[i] = l6_size(l, i);
	l->flushed_activate[0] = l->mm->ev[WORKINGSET_ACTIVATE_ANON];
	l->flushed_activate[1] = l->mm->ev[WORKINGSET_ACTIVATE_FILE];
	l->nr_flushes++;
	l->next_flush_ns += (now_ns - l->next_flush_ns) / period * period + period;
}

/* snapshot_refaults(): the workingset activations seen so far; a change
 * since means a new workingset is forming. */
void l6_snapshot_refaults(struct linux6 *l)
{
	l->refaults[0] = l6_stat_activate(l, 0);
	l->refaults[1] = l6_stat_activate(l, 1);
}

void l6_prepare_scan_control(struct linux6 *l, struct scan_control *sc)
{
	struct mm *mm = l->mm;
	/* Deactivate a type when its inactive list is short, or when its
	 * refaults show a new workingset forming (get rid of stale active
	 * pages quickly). */
	l->may_deactivate = 0;
	if (l6_stat_activate(l, 0) != l->refaults[0] || l6_inactive_is_low(l, 0))
		l->may_deactivate |= L6_DEACTIVATE_ANON;
	if (l6_stat_activate(l, 1) != l->refaults[1] || l6_inactive_is_low(l, 1))
		l->may_deactivate |= L6_DEACTIVATE_FILE;
	/* Those judgements read statistics that may be stale (up to a
	 * flush period old, l6_stat_lru): when passes built on them
	 * reclaimed nothing and skipped an active list, the retry ages
	 * both types whatever they say. */
	if (sc->force_deactivate)
		l->may_deactivate = L6_DEACTIVATE_ANON | L6_DEACTIVATE_FILE;
	/* Plenty of inactive file pages that aren't thrashing: reclaim
	 * those first before touching anonymous pages. */
	uint64_t inactive_file = l6_stat_lru(l, L6_INACTIVE_FILE);
	l->cache_trim_mode = l->t[L6_T_CACHE_TRIM] != 0 && (inactive_file >> sc->priority) &&
			     !(l->may_deactivate & L6_DEACTIVATE_FILE);
	/* The cache trap: as cache pages start out inactive, every cache
	 * fault tips the balance towards file, and a tiny thrashing file LRU
	 * becomes infinitely more attractive than anon.  Unless anon is low
	 * too (that is extreme pressure, reclaim as usual). */
	l->file_is_tiny = false;
	if (sc->cgroup)
		return;
	uint64_t file = l6_size(l, L6_ACTIVE_FILE) + l6_size(l, L6_INACTIVE_FILE);
	uint64_t total_high_wmark = 0;
	for (int z = 0; z < mm->nr_zones; z++)
		total_high_wmark += mm->zones[z].wmark_high;
	l->file_is_tiny = l->t[L6_T_FILE_IS_TINY] != 0 && file + mm->stat.nr_free <= total_high_wmark &&
			  !(l->may_deactivate & L6_DEACTIVATE_ANON) &&
			  (l6_size(l, L6_INACTIVE_ANON) >> sc->priority);
}

void l6_get_scan_count(struct linux6 *l, struct scan_control *sc, uint64_t nr[L6_NR_LRU])
{
	/* sc->proactive_swappiness of memory.reclaim (6.9+), else the lruvec's */
	uint64_t swappiness = (uint64_t)mm_reclaim_swappiness(l->mm, (int)l->t[L6_T_SWAPPINESS]);
	uint64_t fraction[2] = { 0, 0 }, denominator = 1;
	enum l6_balance balance;
	if (!sc->may_swap || !l6_swap_available(l))
		balance = SCAN_FILE;          /* no swap: do not bother with anon */
	else if (sc->cgroup && !swappiness)
		balance = SCAN_FILE;          /* memcg users disable swapping this way */
	else if (!sc->priority && swappiness)
		balance = SCAN_EQUAL;         /* close to OOM: no cleverness */
	else if (l->file_is_tiny)
		balance = SCAN_ANON;
	else if (l->cache_trim_mode)
		balance = SCAN_FILE;
	else {
		/* Pressure on each type inversely proportional to its cost,
		 * at least a third of it before swappiness; at swappiness
		 * 100 anon and file IO cost the same. */
		balance = SCAN_FRACT;
		uint64_t total_cost = l->anon_cost + l->file_cost;
		uint64_t anon_cost = total_cost + l->anon_cost;
		uint64_t file_cost = total_cost + l->file_cost;
		total_cost = anon_cost + file_cost;
		uint64_t ap = swappiness * (total_cost + 1) / (anon_cost + 1);
		uint64_t fp = (MAX_SWAPPINESS - swappiness) * (total_cost + 1) / (file_cost + 1);
		if (l->t[L6_T_COST_BALANCE] == 0) {
			/* cost_balance=0: swappiness alone splits the scan */
			ap = swappiness;
			fp = MAX_SWAPPINESS - swappiness;
		}
		fraction[0] = ap;
		fraction[1] = fp;
		denominator = ap + fp ? ap + fp : 1;
	}
	l->balance = balance;
	for (int lru = 0; lru < L6_NR_LRU; lru++) {
		int file = lru >= L6_INACTIVE_FILE;
		/* a memcg's memory.min/low: mem_cgroup_protection() and
		 * apply_proportional_protection() before the shift */
		uint64_t scan = mm_scan_protected(l->mm, l6_size(l, lru)) >> sc->priority;
		switch (balance) {
		case SCAN_EQUAL:
			break;
		case SCAN_FRACT:
			scan = scan * fraction[file] / denominator;
			break;
		case SCAN_FILE:
		case SCAN_ANON:
			if ((balance == SCAN_FILE) != file)
				scan = 0;
			break;
		}
		nr[lru] = scan;
	}
}

/* Shadow entry: bit 0 set (0 = no shadow), bit 1 PG_workingset, the rest
 * the nonresident age at eviction. */
#define SHADOW_VALID      1ull
#define SHADOW_WORKINGSET 2ull
#define SHADOW_SHIFT      2

/* workingset_eviction(): the shadow records the age, then the age moves. */
uint64_t l6_evict_shadow(void *p, pfn_t pfn)
{
	struct linux6 *l = p;
	const struct page *pg = mm_page(l->mm, pfn);
	uint64_t shadow = (l->nonresident_age << SHADOW_SHIFT) |
			  ((pg->flags & PG_workingset) ? SHADOW_WORKINGSET : 0) | SHADOW_VALID;
	l->nonresident_age++;
	return shadow;
}

/* workingset_test_recent(): could the folio have stayed resident had the
 * workingset given up the slots it took meanwhile? */
static bool workingset_test_recent(struct linux6 *l, bool file, uint64_t shadow)
{
	uint64_t distance = l->nonresident_age - (shadow >> SHADOW_SHIFT);
	uint64_t workingset_size = l6_stat_lru(l, L6_ACTIVE_FILE);
	if (!file)
		workingset_size += l6_stat_lru(l, L6_INACTIVE_FILE);
	if (l6_swap_available(l)) {
		workingset_size += l6_stat_lru(l, L6_ACTIVE_ANON);
		if (file)
			workingset_size += l6_stat_lru(l, L6_INACTIVE_ANON);
	}
	return distance <= workingset_size;
}

/* workingset_refault(): called with the new folio, before folio_add_lru. */
void l6_refault(void *p, pfn_t pfn, uint64_t shadow)
{
	struct linux6 *l = p;
	struct mm *mm = l->mm;
	struct page *pg = mm_page(mm, pfn);
	bool file = !(pg->flags & PG_anon);
	mm->ev[file ? WORKINGSET_REFAULT_FILE : WORKINGSET_REFAULT_ANON]++;
	if (!(shadow & SHADOW_VALID) || !workingset_test_recent(l, file, shadow))
		return;
	/* refault_activate=0: judged and counted, but not activated (nor
	 * the nonresident clock ticked by the activation). */
	if (l->t[L6_T_REFAULT_ACTIVATE] != 0) {
		pg->flags |= PG_active;
		l->nonresident_age++;
	}
	mm->ev[file ? WORKINGSET_ACTIVATE_FILE : WORKINGSET_ACTIVATE_ANON]++;
	if (shadow & SHADOW_WORKINGSET) {
		/* Active before eviction: the workingset is thrashing. */
		pg->flags |= PG_workingset;
		l6_lru_note_cost(l, file, 1, 0);
		mm->ev[file ? WORKINGSET_RESTORE_FILE : WORKINGSET_RESTORE_ANON]++;
	}
}
