/* vhand.c - Rik van Riel's 2.1.63 "vhand" page-aging patch (November 1997).
 *
 * A LABELLED RECONSTRUCTION: the patch text is lost (see reclaim-designs.md
 * section 2).  What the announcement says it did: better aging of
 * swappable pages, page aging for buffer and page-cache pages, and a kernel
 * thread, vhand, "making sure that there is always something ready to swap
 * out".  Reconstructed here on the 2.0/2.1.6x kernel it patched:
 *
 *  - per-page ages with the 2.0/2.1 swap_control constants: MAX_PAGE_AGE 20,
 *    PAGE_ADVANCE 3 on a reference, PAGE_DECLINE 1 per scan without one,
 *    PAGE_INITIAL_AGE 3 for a new page (touch_page / age_page), on process
 *    pages and on swap-cache and page-cache pages alike;
 *  - the vhand thread wakes every swapout_interval (HZ/4, 2.0/2.1's "four
 *    times a second") and ages 1/AGE_CLUSTER_FRACT-of-1024 (at least
 *    2^AGE_CLUSTER_MIN pages) of each resource: the tasks' page tables
 *    (round robin, young PTE -> touch_page, else age_page) and the cached
 *    pages of mem_map (PG_referenced -> touch_page, else age_page).  A
 *    mapped page whose age reaches 0 is unmapped into the swap cache (no
 *    I/O), up to freepages.high pages per run: those are the pages "ready
 *    to swap out";
 *  - reclaim (kswapd and allocators) is 2.1.6x's do_try_to_free_page:
 *    priorities 6..0 of shrink_mmap (frees unmapped cached pages of age 0)
 *    then swap_out (task with the largest swap_cnt = AGE_CLUSTER_SIZE(rss),
 *    try_to_swap_out ages PTEs and unmaps only pages of age 0, writing dirty
 *    ones, which ends the call);
 *  - freepages of 2.1: i = num_physpages/128 clamped to [48, 256], low =
 *    1.5 i, high = 2 i.
 * The thread's scanning is charged to it as CPU time (pgscan_aging).
 *
 * Simplified beyond the reconstruction: no buffer heads, slab or SysV shm;
 * the mm core's allocator; anon pages always written when unmapped; the
 * core's 12..0 priority loop collapsed to one run of the 6..0 loop; vhand's
 * period is fixed (the policy interface has one tick period per design). */
#include "policy.h"
#include "oldvm.h"
#include "../mm/filemap.h"
#include "../lib/util.h"

#include <stdlib.h>

enum { T_MAX_AGE, T_ADVANCE, T_DECLINE, T_INITIAL, T_FRACT, T_CMIN, T_PAGEOUT_WEIGHT,
       T_FP_MIN, T_FP_LOW, T_FP_HIGH, T_CLUSTER, NR_T };

static const struct tunable vh_tunables[] = {
	{ "MAX_PAGE_AGE", "include/linux/swapctl.h (swap_control.sc_max_page_age)", 20, 1, 255, "age ceiling" },
	{ "PAGE_ADVANCE", "swap_control.sc_page_advance", 3, 0, 255, "touch_page(): age added by a reference" },
	{ "PAGE_DECLINE", "swap_control.sc_page_decline", 1, 0, 255, "age_page(): age taken per scan without one" },
	{ "PAGE_INITIAL_AGE", "swap_control.sc_page_initial_age", 3, 0, 255, "age of a new page" },
	{ "AGE_CLUSTER_FRACT", "swap_control.sc_age_cluster_fract", 32, 1, 1024, "vhand ages resource*FRACT/1024 pages per run" },
	{ "AGE_CLUSTER_MIN", "swap_control.sc_age_cluster_min", 4, 0, 20, "at least 2^MIN pages per run" },
	{ "PAGEOUT_WEIGHT", "swap_control.sc_pageout_weight", 8192, 1, 1e6, "swap_out counter = (weight * nr_tasks >> 10) >> priority" },
	{ "freepages.min", "/proc/sys/vm/freepages (min)", 0, 0, 1e9, "0 = num_physpages/128 clamped to [48,256]" },
	{ "freepages.low", "/proc/sys/vm/freepages (low)", 0, 0, 1e9, "0 = 1.5 * freepages.min" },
	{ "freepages.high", "/proc/sys/vm/freepages (high)", 0, 0, 1e9, "0 = 2 * freepages.min" },
	{ "SWAP_CLUSTER_MAX", "include/linux/swap.h", 32, 1, 1024, "pages freed per reclaim call" },
	{ 0 },
};

#define SWAPOUT_INTERVAL_NS 250000000ULL  /* HZ / 4 */

struct vh {
	struct mm *mm;
	int list;             /* every page in use: stands for mem_map */
	pfn_t clock;          /* shrink_mmap's hand */
	pfn_t vclock;         /* vhand's hand over mem_map */
	uint32_t vtask;       /* vhand's round robin over address spaces */
	struct mmstates ms;   /* swap_out's swap_cnt / swap_address */
	struct mmstates vms;  /* vhand's own cursor per address space */
	uint64_t high;
	uint64_t progress;    /* PTEs aged or unmapped by reclaim */
	double t[NR_T];
};

static uint32_t age_of(const struct page *p) { return page_age(p); }

static void touch_page(struct vh *v, struct page *p)
{
	uint32_t a = age_of(p) + (uint32_t)v->t[T_ADVANCE];
	set_page_age(p, a > (uint32_t)v->t[T_MAX_AGE] ? (uint32_t)v->t[T_MAX_AGE] : a);
}

static void age_page(struct vh *v, struct page *p)
{
	uint32_t d = (uint32_t)v->t[T_DECLINE];
	set_page_age(p, age_of(p) > d ? age_of(p) - d : 0);
}

static uint64_t age_cluster_size(struct vh *v, uint64_t resource)
{
	uint64_t n = resource * (uint64_t)v->t[T_FRACT] >> 10;
	uint64_t mn = 1ULL << (int)v->t[T_CMIN];
	return n < mn ? mn : n;
}

static void *vh_init(struct mm *mm, const double *tun)
{
	struct vh *v = xcalloc(1, sizeof(*v));
	v->mm = mm;
	for (int i = 0; i < NR_T; i++)
		v->t[i] = tun ? tun[i] : vh_tunables[i].def;
	v->list = lru_register(&mm->fr, "mem_map(2.1)");
	ra_set_era(mm, 22); /* 2.2.1's readahead stands for 2.1.63's */
	mm_flusher_era(mm, FLUSHER_22); /* 2.2.1's kflushd + update: the 2.1.63 bdflush is not modelled apart */
	uint64_t i = mm->fr.nr >> 7;
	i = i < 48 ? 48 : i > 256 ? 256 : i;
	if (v->t[T_FP_MIN]) i = (uint64_t)v->t[T_FP_MIN];
	uint64_t lo = v->t[T_FP_LOW] ? (uint64_t)v->t[T_FP_LOW] : i + i / 2;
	uint64_t hi = v->t[T_FP_HIGH] ? (uint64_t)v->t[T_FP_HIGH] : 2 * i;
	if (hi > mm->fr.nr / 4) { /* tiny machines */
		hi = mm->fr.nr / 4; lo = hi * 3 / 4; i = hi / 2;
	}
	v->high = hi;
	struct zone *z = &mm->zones[0];
	if (z->wmark_min) {
		z->wmark_min = i;
		z->wmark_low = lo;
		z->wmark_high = hi;
	}
	mm_work_keep(mm, WORK_SWAP_OUT_ROWS); /* swap_out()'s page-table walk */
	return v;
}

static void vh_destroy(void *p)
{
	struct vh *v = p;
	mmstates_free(&v->ms);
	mmstates_free(&v->vms);
	free(v);
}

static void vh_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct vh *v = p;
	struct page *pg = mm_page(v->mm, pfn);
	if (why != ADD_PUTBACK)
		set_page_age(pg, (uint32_t)v->t[T_INITIAL]);
	lru_add_head(&v->mm->fr, v->list, pfn);
}

static void vh_remove(void *p, pfn_t pfn)
{
	struct vh *v = p;
	lru_del(&v->mm->fr, pfn);
}

/* A page-cache lookup is a reference: touch the page. */
static void vh_mark_accessed(void *p, pfn_t pfn)
{
	struct vh *v = p;
	touch_page(v, mm_page(v->mm, pfn));
}

static bool cached_unmapped(const struct page *pg)
{
	return page_users(pg) == 1 && (pg->flags & (PG_swapcache | PG_file));
}

/* shrink_mmap() with page ages: frees an unmapped cached page of age 0. */
static int shrink_mmap(struct vh *v, struct scan_control *sc, int priority)
{
	struct mm *mm = v->mm;
	int64_t count = (int64_t)(mm->fr.nr >> priority);
	uint64_t steps = 2 * (uint64_t)mm->fr.nr;
	while (count > 0 && steps--) {
		pfn_t pfn = v->clock;
		v->clock = v->clock + 1 >= mm->fr.nr ? 0 : v->clock + 1;
		struct page *pg = mm_page(mm, pfn);
		if (mm_page_lru(mm, pg) != v->list || (pg->flags & (PG_locked | PG_writeback)) || page_users(pg) != 1)
			continue;
		count--;
		sc_scanned(sc, pg, 1);
		if (!(pg->flags & (PG_swapcache | PG_file)))
			continue;  /* a mapped anonymous page */
		if (pg->flags & PG_referenced) {
			pg->flags &= ~PG_referenced;
			touch_page(v, pg);
			continue;
		}
		age_page(v, pg);
		if (age_of(pg))
			continue;
		if (oldvm_reclaim(mm, sc, pfn) == EVICT_FREED)
			return 1;
		lru_add_head(&mm->fr, v->list, pfn);
	}
	return 0;
}

/* try_to_swap_out() with ages (2.0/2.1.6x). */
static int try_to_swap_out(struct vh *v, struct scan_control *sc, struct pte_ref *r)
{
	struct mm *mm = v->mm;
	struct page *pg = mm_page(mm, r->pfn);
	if (pg->flags & PG_locked)
		return 0;
	v->progress++;  /* the PTE was aged one way or the other */
	if (ptescan_test_and_clear_young(r)) {
		touch_page(v, pg);
		return 0;
	}
	age_page(v, pg);
	if (age_of(pg))
		return 0;
	bool was_cached = pg->flags & PG_swapcache;
	if (ptescan_unmap(mm, r) != UNMAP_SWAPCACHE || was_cached)
		return 0;
	if (pg->mapcount || !(pg->flags & PG_dirty) || (pg->flags & PG_writeback))
		return 0;
	if (oldvm_reclaim(mm, sc, r->pfn) != EVICT_FREED)
		lru_add_head(&mm->fr, v->list, r->pfn);
	return 1;  /* we wrote: the caller stops */
}

static int swap_out(struct vh *v, struct scan_control *sc, int priority)
{
	struct mm *mm = v->mm;
	int64_t counter = (((int64_t)v->t[T_PAGEOUT_WEIGHT] * nr_live_aspaces(mm)) >> 10) >> priority;
	for (; counter >= 0; counter--) {
		struct aspace *best = NULL;
		int64_t max_cnt = 0;
		for (int assign = 0; assign < 2 && !best; assign++)
			for (uint32_t i = 0; i < mm->nr_as; i++) {
				struct aspace *as = mm->as[i];
				if (!mm_swappable(as))
					continue;
				struct mmstate *st = mmstate_get(&v->ms, as->id);
				if (assign)
					st->swap_cnt = (int64_t)age_cluster_size(v, as->rss);
				if (st->swap_cnt > max_cnt) {
					max_cnt = st->swap_cnt;
					best = as;
				}
			}
		if (!best)
			return 0;
		struct mmstate *st = mmstate_get(&v->ms, best->id);
		st->swap_cnt--;
		struct pte_ref r;
		bool wrote = false;
		while (!wrote && ptescan_next(mm, best, &st->addr, &r)) {
			sc_scanned(sc, mm_page(mm, r.pfn), 1);
			if (!r.locked_vma)
				wrote = try_to_swap_out(v, sc, &r);
		}
		if (wrote)
			return 1;
		st->addr = (struct pte_cursor){ 0, 0 };
		st->swap_cnt = 0;
	}
	return 0;
}

static bool do_try_to_free_page(struct vh *v, struct scan_control *sc)
{
	int64_t count = (int64_t)(sc->nr_to_reclaim < (uint64_t)v->t[T_CLUSTER] ? sc->nr_to_reclaim
							  : (uint64_t)v->t[T_CLUSTER]);
	if (count < 1)
		count = 1;
	for (int prio = 6; prio >= 0; prio--) {
		/* Writes of the earlier priorities and rounds that are done
		 * by now complete first (I/O inside reclaim passes). */
		mm_reclaim_io_catch_up(v->mm, NULL, sc);
		while (shrink_mmap(v, sc, prio))
			if (--count == 0)
				return true;
		while (swap_out(v, sc, prio))
			if (--count == 0)
				return true;
	}
	return false;
}

static void vh_shrink(void *p, struct scan_control *sc)
{
	struct vh *v = p;
	if (sc->priority != DEF_PRIORITY)
		return;
	/* Ages have to run down before anything can go: call again while a
	 * pass changed something (at most 100
	 * rounds: beyond that the allocator goes back to the core, which waits
	 * for writeback or declares OOM). */
	for (int round = 0; round < 100; round++) {
		uint64_t before = v->progress, wb = sc->nr_writeback;
		if (do_try_to_free_page(v, sc) || sc->nr_reclaimed)
			break;
		if ((v->progress == before && sc->nr_writeback == wb) ||
		    v->mm->swap.used >= v->mm->swap.nr_slots)
			break;
	}
}

/* The vhand thread: age a cluster of page-table entries and of cached
 * pages, and unmap process pages that aged to 0 into the swap cache. */
static void vh_tick(void *p, struct scan_control *sc)
{
	struct vh *v = p;
	struct mm *mm = v->mm;
	uint64_t rss = 0;
	for (uint32_t i = 0; i < mm->nr_as; i++)
		rss += mm_swappable(mm->as[i]) ? mm->as[i]->rss : 0;
	uint64_t ptes = rss ? age_cluster_size(v, rss) : 0;
	uint64_t ready = 0;
	for (uint32_t tried = 0; ptes && tried <= mm->nr_as; tried++) {
		if (v->vtask >= mm->nr_as)
			v->vtask = 0;
		struct aspace *as = mm->as[v->vtask];
		if (!mm_swappable(as)) {
			v->vtask++;
			continue;
		}
		struct mmstate *st = mmstate_get(&v->vms, as->id);
		struct pte_ref r;
		while (ptes && ptescan_next(mm, as, &st->addr, &r)) {
			ptes--;
			sc_scanned(sc, mm_page(mm, r.pfn), 1);
			if (r.locked_vma)
				continue;
			struct page *pg = mm_page(mm, r.pfn);
			if (ptescan_test_and_clear_young(&r)) {
				touch_page(v, pg);
				continue;
			}
			age_page(v, pg);
			if (!age_of(pg) && ready < v->high && ptescan_unmap(mm, &r) == UNMAP_SWAPCACHE)
				ready++;
		}
		if (ptes) {  /* end of this address space: next one */
			st->addr = (struct pte_cursor){ 0, 0 };
			v->vtask++;
		}
	}
	uint64_t pages = age_cluster_size(v, lru_count(&mm->fr, v->list));
	for (uint64_t steps = mm->fr.nr; pages && steps--;) {
		pfn_t pfn = v->vclock;
		v->vclock = v->vclock + 1 >= mm->fr.nr ? 0 : v->vclock + 1;
		struct page *pg = mm_page(mm, pfn);
		if (mm_page_lru(mm, pg) != v->list || !cached_unmapped(pg))
			continue;
		pages--;
		sc_scanned(sc, pg, 1);
		if (pg->flags & PG_referenced) {
			pg->flags &= ~PG_referenced;
			touch_page(v, pg);
		} else {
			age_page(v, pg);
		}
	}
}

const struct policy_ops vhand_policy = {
	.name = "vhand",
	.flags = POLICY_MLOCK_HALF_RAM,
	.summary = "2.1.63 vhand page-aging patch (reconstruction): ages 20/+3/-1/3, aging thread every HZ/4",
	.tunables = vh_tunables,
	.init = vh_init,
	.destroy = vh_destroy,
	.add = vh_add,
	.remove = vh_remove,
	.mark_accessed = vh_mark_accessed,
	.shrink = vh_shrink,
	.tick_ns = SWAPOUT_INTERVAL_NS,
	.tick_name = "vhand",
	.tick = vh_tick,
};
