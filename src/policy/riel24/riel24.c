/* riel24.c - Linux 2.4.0 (to 2.4.9): Rik van Riel's multiqueue aging VM,
 * following 2.4.0 mm/vmscan.c, mm/swap.c and include/linux/swap.h.
 *
 *  - page->age: every new page starts at PAGE_AGE_START (2); a reference
 *    adds PAGE_AGE_ADV (3) up to PAGE_AGE_MAX (64), activating a page whose
 *    age was 0; each scan without a reference HALVES it (age_page_down).
 *  - drop_behind() (2.4.0 mm/filemap.c, in the core's readahead): the
 *    pages a sequential read() has passed are deactivated (the deactivate
 *    hook), so streaming I/O does not age the working set out.
 *  - Lists: active, inactive_dirty (global), inactive_clean (per zone).
 *    Anonymous pages join them only when swap_out() puts them in the swap
 *    cache; until then they sit on a holding list ("anon, not on LRU").
 *  - refill_inactive_scan(priority, oneshot): nr_active >> priority pages
 *    from the active tail; PG_referenced ages up, else the age halves and a
 *    page at age 0 that no process maps goes to inactive_dirty.  A mapped
 *    page can never leave the active list this way: only swap_out unmaps.
 *  - swap_out(priority): the mm with the largest swap_cnt (reloaded to
 *    max(rss >> SWAP_SHIFT, SWAP_MIN)), one mm per call, swap_cnt PTEs;
 *    try_to_swap_out ages up young PTEs, ages down (age /= 2) pages not on
 *    the active list, and unmaps pages of age 0 into the swap cache
 *    (deactivated to inactive_dirty).  No I/O here.
 *  - page_launder(): two passes over inactive_dirty: the first moves clean
 *    pages to inactive_clean and rotates dirty ones ("first time through?"),
 *    the second (if free_shortage) writes dirty pages.
 *  - reclaim_page(zone): frees from the zone's inactive_clean tail.
 *  - inactive_target = min(memory_pressure >> INACTIVE_SHIFT, RAM / 4);
 *    memory_pressure counts allocations and steals, minus frees, decayed by
 *    1/64 each second; free_shortage / inactive_shortage drive
 *    do_try_to_free_pages and refill_inactive (priority 6..0, lowered only
 *    when a round made no progress).
 *  - kswapd: do_try_to_free_pages when short, then refill_inactive_scan
 *    (6, 0) background aging; kreclaimd frees inactive_clean pages while a
 *    zone is below pages_low.
 *
 * Simplified: kreclaimd is woken on demand from __alloc_pages in the
 * kernel; here it is a thread polling every 10 ms, and it also runs
 * kswapd's once-a-second work (recalculate_vm_stats, the 1 s timeout
 * wake-up and the refill_inactive_scan(6, 0) background aging), so that
 * work is charged to kreclaimd.  The allocator is the mm core's (kswapd
 * below pages_low, direct reclaim below pages_min) rather than 2.4.0's
 * __alloc_pages_limit; direct reclaim first takes inactive_clean pages
 * (what 2.4.0's allocator does), then runs do_try_to_free_pages(user).  No
 * buffer heads, slab, dcache/icache; page_launder() does not wake bdflush
 * (2.4.0's bdflush and kupdate run on their own thresholds:
 * src/mm/flusher_era.c); synchronous laundering is not modelled.  Anonymous pages are always written when unmapped (pagelab's
 * anon pages hold data).  The core's 12..0 priority loop is collapsed: the
 * design runs once at the core's first priority.  Pages scanned = pages
 * looked at on the lists plus present PTEs visited by swap_out. */
#include "../policy.h"
#include "riel24.h"
#include "../../mm/filemap.h"
#include "../../lib/util.h"

#include <stdlib.h>

static const struct tunable r24_tunables[] = {
	{ "PAGE_AGE_START", "include/linux/swap.h", 2, 0, 255, "age of a new page" },
	{ "PAGE_AGE_ADV", "include/linux/swap.h", 3, 0, 255, "age added by a reference" },
	{ "PAGE_AGE_MAX", "include/linux/swap.h", 64, 1, 255, "age ceiling" },
	{ "DEF_PRIORITY", "mm/vmscan.c (refill_inactive, kswapd)", 6, 0, 20, "first priority of refill_inactive and kswapd's background refill_inactive_scan" },
	{ "INACTIVE_SHIFT", "include/linux/swap.h", 6, 0, 20, "inactive_target = memory_pressure >> INACTIVE_SHIFT" },
	{ "SWAP_SHIFT", "mm/vmscan.c", 5, 0, 20, "swap_cnt = rss >> SWAP_SHIFT" },
	{ "SWAP_MIN", "mm/vmscan.c", 8, 1, 1e6, "smallest swap_cnt" },
	{ "page_cluster", "/proc/sys/vm/page-cluster", 0, 0, 10, "0 = swap_setup(): 2 below 16 MB, 3 below 32 MB, else 4; MAX_LAUNDER = 4 << page_cluster" },
	{ "freepages.min", "/proc/sys/vm/freepages (min)", 0, 0, 1e9, "0 = num_physpages/128 clamped to [10,256]" },
	{ "freepages.low", "/proc/sys/vm/freepages (low)", 0, 0, 1e9, "0 = 2 * freepages.min" },
	{ "freepages.high", "/proc/sys/vm/freepages (high)", 0, 0, 1e9, "0 = 3 * freepages.min" },
	{ 0 },
};

#define KRECLAIMD_NS 10000000ULL  /* poll period standing for its wake-ups */
#define TICKS_PER_SEC (1000000000ULL / KRECLAIMD_NS)

static void *r24_init(struct mm *mm, const double *tun)
{
	struct r24 *r = xcalloc(1, sizeof(*r));
	r->mm = mm;
	for (int i = 0; i < NR_T; i++)
		r->t[i] = tun ? tun[i] : r24_tunables[i].def;
	r->active = lru_register(&mm->fr, "active");
	r->inactive_dirty = lru_register(&mm->fr, "inactive_dirty");
	for (int z = 0; z < mm->nr_zones; z++)
		r->inactive_clean[z] = lru_register(&mm->fr, "inactive_clean");
	r->anon = lru_register(&mm->fr, "anon(not on LRU)");
	lru_set_kind(&mm->fr, r->active, LRU_KIND_ACTIVE);
	lru_set_kind(&mm->fr, r->anon, LRU_KIND_NONE);
	mm_flusher_era(mm, FLUSHER_240); /* 2.4.0 bdflush + kupdate (src/mm/flusher_era.c) */
	uint64_t mb = (uint64_t)mm->fr.nr * PAGE_SIZE >> 20;
	r->page_cluster = r->t[T_PAGE_CLUSTER] ? (int)r->t[T_PAGE_CLUSTER] : mb < 16 ? 2 : mb < 32 ? 3 : 4;
	ra_set_era(mm, 24); /* 2.4.0 generic_file_readahead, filemap_nopage clusters */
	mm->vm.page_cluster = (uint64_t)r->page_cluster; /* one page_cluster for swap, launder and faults */
	freepages_22(mm->fr.nr, &r->fp_min, &r->fp_low, &r->fp_high);
	if (r->t[T_FP_MIN]) r->fp_min = (uint64_t)r->t[T_FP_MIN];
	r->fp_low = r->t[T_FP_LOW] ? (uint64_t)r->t[T_FP_LOW] : 2 * r->fp_min;
	r->fp_high = r->t[T_FP_HIGH] ? (uint64_t)r->t[T_FP_HIGH] : 3 * r->fp_min;
	for (int z = 0; z < mm->nr_zones; z++)
		if (mm->zones[z].wmark_min)
			zone_watermarks_24(&mm->zones[z]);
	mm_work_keep(mm, WORK_SWAP_OUT_ROWS); /* swap_out()'s page-table walk */
	return r;
}

static void r24_destroy(void *p)
{
	struct r24 *r = p;
	mmstates_free(&r->ms);
	free(r);
}

static uint32_t age_max(struct r24 *r) { return (uint32_t)r->t[T_MAX]; }

static uint64_t nr_inactive_clean(struct r24 *r)
{
	uint64_t n = 0;
	for (int z = 0; z < r->mm->nr_zones; z++)
		n += lru_count(FR(r), r->inactive_clean[z]);
	return n;
}

static bool on_inactive(struct r24 *r, const struct page *pg)
{
	return mm_page_lru(r->mm, pg) == r->inactive_dirty || mm_page_lru(r->mm, pg) == r->inactive_clean[pg->zone];
}

void r24_add_active(struct r24 *r, pfn_t pfn)
{
	lru_add_head(FR(r), r->active, pfn);
	mm_page(r->mm, pfn)->flags |= PG_active;
}

static void add_inactive_dirty(struct r24 *r, pfn_t pfn)
{
	mm_page(r->mm, pfn)->flags &= ~PG_active;
	lru_add_head(FR(r), r->inactive_dirty, pfn);
}

/* activate_page_nolock(): from either inactive list to the active list. */
static void activate_page(struct r24 *r, pfn_t pfn)
{
	struct page *pg = mm_page(r->mm, pfn);
	if (on_inactive(r, pg)) {
		lru_del(FR(r), pfn);
		r24_add_active(r, pfn);
		r->mm->ev[PGACTIVATE]++;
	}
	/* Make sure the page gets a fair chance at staying active. */
	if (page_age(pg) < (uint32_t)r->t[T_START])
		set_page_age(pg, (uint32_t)r->t[T_START]);
}

/* age_page_up(): activate a page of age 0, then age += PAGE_AGE_ADV. */
void r24_age_page_up(struct r24 *r, pfn_t pfn)
{
	struct page *pg = mm_page(r->mm, pfn);
	if (!page_age(pg))
		activate_page(r, pfn);
	uint32_t a = page_age(pg) + (uint32_t)r->t[T_ADV];
	set_page_age(pg, a > age_max(r) ? age_max(r) : a);
}

/* deactivate_page_nolock(): age 0, PG_referenced cleared, and a page on
 * the active list that no process maps goes to inactive_dirty. */
static void deactivate_page_nolock(struct r24 *r, pfn_t pfn)
{
	struct page *pg = mm_page(r->mm, pfn);
	set_page_age(pg, 0);
	pg->flags &= ~PG_referenced;
	if (mm_page_lru(r->mm, pg) == r->active && page_users(pg) <= 1) {
		lru_del(FR(r), pfn);
		add_inactive_dirty(r, pfn);
		r->mm->ev[PGDEACTIVATE]++;
	}
}

void r24_deactivate_page(struct r24 *r, pfn_t pfn)
{
	r->progress++;
	deactivate_page_nolock(r, pfn);
}

/* drop_behind(): the page cache passes pages a sequential reader is done
 * with (mm/filemap.c of 2.4.0). */
static void r24_deactivate(void *p, pfn_t pfn) { deactivate_page_nolock(p, pfn); }

static void r24_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct r24 *r = p;
	struct page *pg = mm_page(r->mm, pfn);
	/* __free_pages_ok() leaves every free page at PAGE_AGE_START. */
	set_page_age(pg, (uint32_t)r->t[T_START]);
	if (why != ADD_PUTBACK)
		r->memory_pressure++;   /* __alloc_pages() */
	if ((pg->flags & PG_anon) && !(pg->flags & PG_swapcache)) {
		lru_add_head(FR(r), r->anon, pfn);
		return;
	}
	/* lru_cache_add(): the active list. */
	r24_add_active(r, pfn);
}

static void r24_remove(void *p, pfn_t pfn)
{
	struct r24 *r = p;
	lru_del(FR(r), pfn);
	mm_page(r->mm, pfn)->flags &= ~PG_active;
	if (r->memory_pressure)
		r->memory_pressure--;   /* __free_pages_ok() */
}

/* 2.4.0 __find_page_nolock(): a page-cache lookup ages the page up. */
static void r24_mark_accessed(void *p, pfn_t pfn)
{
	r24_age_page_up(p, pfn);
}

static uint64_t inactive_target(struct r24 *r)
{
	uint64_t t = r->memory_pressure >> (int)r->t[T_INACTIVE_SHIFT];
	uint64_t cap = r->mm->fr.nr / 4;
	return t < cap ? t : cap;
}

static int64_t free_shortage(struct r24 *r)
{
	struct mm *mm = r->mm;
	int64_t freeable = (int64_t)(mm->stat.nr_free + nr_inactive_clean(r));
	int64_t target = (int64_t)(r->fp_high + inactive_target(r) / 3);
	if (freeable < target)
		return target - freeable;
	int64_t sum = 0;
	for (int z = 0; z < mm->nr_zones; z++) {
		struct zone *zn = &mm->zones[z];
		int64_t have = (int64_t)(lru_count(FR(r), r->inactive_clean[z]) + zn->nr_free);
		if (have < (int64_t)zn->wmark_min + 1)
			sum += (int64_t)zn->wmark_min + 1 - have;
	}
	return sum;
}

static int64_t inactive_shortage(struct r24 *r)
{
	int64_t s = (int64_t)(r->fp_high + inactive_target(r)) - (int64_t)r->mm->stat.nr_free -
		    (int64_t)nr_inactive_clean(r) - (int64_t)lru_count(FR(r), r->inactive_dirty);
	return s > 0 ? s : 0;
}

/* refill_inactive_scan(): age the active list from its tail. */
static int refill_inactive_scan(struct r24 *r, int priority, bool oneshot)
{
	struct scan_control *sc = r->sc;
	uint64_t maxscan = lru_count(FR(r), r->active) >> priority;
	int ret = 0;
	while (maxscan-- > 0 && lru_count(FR(r), r->active)) {
		pfn_t pfn = lru_tail(FR(r), r->active);
		struct page *pg = mm_page(r->mm, pfn);
		sc_scanned(sc, pg, 1);
		r->mm->ev[PGREFILL]++;
		bool still_active;
		if (pg->flags & PG_referenced) {
			pg->flags &= ~PG_referenced;
			r24_age_page_up(r, pfn);
			still_active = true;
		} else {
			r->progress += page_age(pg) > 0;
			set_page_age(pg, page_age(pg) / 2);  /* age_page_down_ageonly */
			if (page_age(pg) == 0 && page_users(pg) <= 1) {
				r24_deactivate_page(r, pfn);
				still_active = false;
			} else {
				still_active = true;
			}
		}
		if (still_active || mm_page_lru(r->mm, pg) == r->active) {
			lru_move_head(FR(r), r->active, pfn);
		} else {
			ret = 1;
			if (oneshot)
				break;
		}
	}
	return ret;
}

/* Both inactive lists' scans (reclaim_page, page_launder) first test
 * PG_referenced (clearing it), the age and other users: a page still in
 * use goes back to the active list. */
static bool reactivate_in_use(struct r24 *r, pfn_t pfn)
{
	struct page *pg = mm_page(r->mm, pfn);
	bool referenced = pg->flags & PG_referenced;
	pg->flags &= ~PG_referenced;
	if (!referenced && page_age(pg) == 0 && page_users(pg) <= 1)
		return false;
	lru_del(FR(r), pfn);
	r24_add_active(r, pfn);
	r->mm->ev[PGACTIVATE]++;
	return true;
}

/* reclaim_page(zone): free one page from the inactive_clean tail. */
static bool reclaim_page(struct r24 *r, int zone)
{
	struct mm *mm = r->mm;
	struct scan_control *sc = r->sc;
	int list = r->inactive_clean[zone];
	uint64_t maxscan = lru_count(FR(r), list);
	bool got = false;
	while (maxscan-- > 0 && lru_count(FR(r), list)) {
		pfn_t pfn = lru_tail(FR(r), list);
		struct page *pg = mm_page(mm, pfn);
		sc_scanned(sc, pg, 1);
		if (reactivate_in_use(r, pfn))
			continue;
		if (pg->flags & (PG_dirty | PG_locked | PG_writeback)) {
			lru_del(FR(r), pfn);
			add_inactive_dirty(r, pfn);
			continue;
		}
		if (oldvm_reclaim(mm, sc, pfn) == EVICT_FREED) {
			got = true;
			break;
		}
		add_inactive_dirty(r, pfn);
	}
	r->memory_pressure++;
	if (got && r->memory_pressure)
		r->memory_pressure--;  /* the page is freed at once */
	return got;
}

/* page_launder(): inactive_dirty -> inactive_clean, writing dirty pages on
 * the second pass. */
static int page_launder(struct r24 *r)
{
	struct mm *mm = r->mm;
	struct scan_control *sc = r->sc;
	int cleaned = 0;
	uint64_t wb_mark = sc->nr_writeback;
	for (int launder_loop = 0; launder_loop < 2; launder_loop++) {
		uint64_t maxscan = lru_count(FR(r), r->inactive_dirty);
		while (maxscan-- > 0 && lru_count(FR(r), r->inactive_dirty)) {
			oldvm_io_catch_up(mm, sc, &wb_mark);
			pfn_t pfn = lru_tail(FR(r), r->inactive_dirty);
			struct page *pg = mm_page(mm, pfn);
			sc_scanned(sc, pg, 1);
			if (reactivate_in_use(r, pfn))
				continue;
			if (pg->flags & (PG_locked | PG_writeback)) {
				lru_move_head(FR(r), r->inactive_dirty, pfn);
				continue;
			}
			if (pg->flags & PG_dirty) {
				if (!launder_loop) {  /* first time through: to the back */
					lru_move_head(FR(r), r->inactive_dirty, pfn);
					continue;
				}
				enum evict_result res = oldvm_reclaim(mm, sc, pfn);
				if (res == EVICT_FREED) {
					if (r->memory_pressure)
						r->memory_pressure--;
					continue;
				}
				add_inactive_dirty(r, pfn);
				continue;
			}
			/* Clean swap-cache or page-cache page. */
			lru_del(FR(r), pfn);
			lru_add_head(FR(r), r->inactive_clean[pg->zone], pfn);
			cleaned++;
			r->progress++;
		}
		if (launder_loop || !sc->may_writepage || !free_shortage(r))
			break;
	}
	return cleaned;
}

static int refill_inactive(struct r24 *r, bool user)
{
	int64_t count = user ? (1 << r->page_cluster) : inactive_shortage(r) + free_shortage(r);
	int64_t start_count = count;
	int priority = (int)r->t[T_PRIO];
	do {
		bool made_progress = false;
		/* Writes the earlier rounds started may be done by now. */
		mm_reclaim_io_catch_up(r->mm, NULL, r->sc);
		while (refill_inactive_scan(r, priority, true)) {
			made_progress = true;
			if (--count <= 0)
				goto done;
		}
		while (r24_swap_out(r, priority)) {
			made_progress = true;
			if (--count <= 0)
				goto done;
		}
		if (!inactive_shortage(r) || !free_shortage(r))
			goto done;
		if (!made_progress)
			priority--;
	} while (priority >= 0);
	while (refill_inactive_scan(r, 0, true))
		if (--count <= 0)
			break;
done:
	return count < start_count;
}

static void do_try_to_free_pages(struct r24 *r, bool user)
{
	struct mm *mm = r->mm;
	if (free_shortage(r) || lru_count(FR(r), r->inactive_dirty) > mm->stat.nr_free + nr_inactive_clean(r))
		page_launder(r);
	if (free_shortage(r) || inactive_shortage(r))
		refill_inactive(r, user);
}

static bool reclaim_zone_pages(struct r24 *r, uint64_t want)
{
	struct scan_control *sc = r->sc;
	int zone = sc->zone;
	while (sc->nr_reclaimed < want) {
		bool got = false;
		for (int z = zone; z >= 0 && !got; z--)
			got = reclaim_page(r, z);
		if (!got)
			return false;
	}
	return true;
}

static void r24_shrink(void *p, struct scan_control *sc)
{
	struct r24 *r = p;
	if (sc->priority != DEF_PRIORITY)
		return;  /* the design's own priority loop already ran */
	r->sc = sc;
	if (sc->who == RECLAIM_KSWAPD) {
		if (inactive_shortage(r) || free_shortage(r))
			do_try_to_free_pages(r, false);
		refill_inactive_scan(r, (int)r->t[T_PRIO], false);
	} else {
		/* __alloc_pages(): inactive_clean pages first, then
		 * try_to_free_pages() in the allocating task, again and again:
		 * 2.4.0's out_of_memory() says nothing while swap space is
		 * left.  Stop when a round changed nothing, or after 64 rounds:
		 * the kernel yields and loops; here the allocator goes back to
		 * the core, which waits for writeback or declares OOM. */
		for (int round = 0; round < 64; round++) {
			/* The earlier rounds' writes that are done by now have
			 * cleaned their pages (I/O inside reclaim passes). */
			if (round)
				mm_reclaim_io_catch_up(r->mm, NULL, sc);
			if (reclaim_zone_pages(r, sc->nr_to_reclaim))
				break;
			uint64_t before = r->progress, wb = sc->nr_writeback;
			do_try_to_free_pages(r, true);
			if (reclaim_zone_pages(r, sc->nr_to_reclaim) || sc->nr_reclaimed)
				break;
			if (r->mm->swap.used >= r->mm->swap.nr_slots ||
			    (r->progress == before && sc->nr_writeback == wb))
				break;
		}
	}
	r->sc = NULL;
}

static void r24_tick(void *p, struct scan_control *sc)
{
	struct r24 *r = p;
	struct mm *mm = r->mm;
	r->sc = sc;
	/* kreclaimd: keep every zone at pages_low from inactive_clean. */
	for (int z = 0; z < mm->nr_zones; z++)
		while (mm->zones[z].wmark_low && mm->zones[z].nr_free < mm->zones[z].wmark_low)
			if (!reclaim_page(r, z))
				break;
	if (++r->ticks % TICKS_PER_SEC == 0) {
		/* recalculate_vm_stats(): decay memory_pressure. */
		r->memory_pressure -= r->memory_pressure >> 6;
		/* kswapd's one-second timeout and background aging. */
		if (inactive_shortage(r) && free_shortage(r))
			mm_wake_kswapd(mm);
		refill_inactive_scan(r, (int)r->t[T_PRIO], false);
	}
	r->sc = NULL;
}

static bool r24_check(void *p, FILE *err)
{
	struct r24 *r = p;
	bool ok = true;
	for (pfn_t pfn = lru_head(FR(r), r->active); pfn != PFN_NONE; pfn = lru_next(FR(r), pfn))
		if (!(mm_page(r->mm, pfn)->flags & PG_active)) {
			fprintf(err, "riel24: pfn %u on the active list without PG_active\n", pfn);
			ok = false;
		}
	for (int z = 0; z < r->mm->nr_zones; z++)
		for (pfn_t pfn = lru_head(FR(r), r->inactive_clean[z]); pfn != PFN_NONE; pfn = lru_next(FR(r), pfn))
			if (mm_page(r->mm, pfn)->zone != z) {
				fprintf(err, "riel24: pfn %u on another zone's inactive_clean\n", pfn);
				ok = false;
			}
	for (pfn_t pfn = lru_head(FR(r), r->anon); pfn != PFN_NONE; pfn = lru_next(FR(r), pfn))
		if (mm_page(r->mm, pfn)->flags & PG_swapcache) {
			fprintf(err, "riel24: swap-cache pfn %u on the anon holding list\n", pfn);
			ok = false;
		}
	return ok;
}

const struct policy_ops riel24_policy = {
	.name = "riel24",
	.summary = "Linux 2.4.0-2.4.9: page->age, active/inactive_dirty/inactive_clean, page_launder, kreclaimd",
	.tunables = r24_tunables,
	/* free_shortage()/inactive_shortage() drive all of its reclaim: a
	 * cgroup limit with free zones never makes it reclaim. */
	.flags = POLICY_NO_MEMCG | POLICY_MLOCK_HALF_RAM,
	.init = r24_init,
	.destroy = r24_destroy,
	.add = r24_add,
	.remove = r24_remove,
	.mark_accessed = r24_mark_accessed,
	.deactivate = r24_deactivate,
	.shrink = r24_shrink,
	.check = r24_check,
	.tick_ns = KRECLAIMD_NS,
	.tick_name = "kreclaimd",
	.tick = r24_tick,
};
