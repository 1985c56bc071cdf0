/* aa24.c - Linux 2.4.10+ : Andrea Arcangeli's classzone VM, following
 * 2.4.17 mm/vmscan.c, mm/swap.c, mm/filemap.c (mark_page_accessed) and
 * mm/page_alloc.c, and, with --set aa_era=23, the 2.4.23 tree with the
 * /proc/sys/vm/vm_* tunables.
 *
 *  - Two global lists, active and inactive; no ages.  mark_page_accessed()
 *    promotes in two touches: an inactive unreferenced page gets
 *    PG_referenced, an inactive referenced page is activated (the flag
 *    cleared), an active page gets PG_referenced.
 *  - New page-cache pages enter the INACTIVE list (use-once: a streaming
 *    read never reaches the active list); anonymous pages too, at fault
 *    time, with a mark_page_accessed (vm_anon_lru=1, mainline 2.4.10+).
 *    filemap_nopage() marks the file page it returns accessed too
 *    (POLICY_FAULT_ACCESSED).
 *  - shrink_cache(): from the inactive tail (every page rotates to the
 *    head), max_scan = nr_inactive / priority (priority 6..1, a division),
 *    max_mapped = min(nr_pages << (10 - priority), max_scan / 10).  A mapped
 *    page uses up max_mapped; when too many are met, swap_out() runs and
 *    the pass ends.  PG_referenced is not looked at: promotion only happens
 *    through mark_page_accessed.  Dirty pages are written (writepage) and
 *    freed on a later pass; clean unmapped pages are freed.
 *  - refill_inactive(nr_pages * active / ((inactive + 1) * 2)) keeps
 *    active:inactive near 2:1: referenced active pages rotate (flag
 *    cleared), the others go inactive WITH PG_referenced set, so one more
 *    touch brings them back.
 *  - swap_out(): a round-robin cursor over the mm list, each mm walked from
 *    its swap_address until SWAP_CLUSTER_MAX pages became freeable; young
 *    PTEs (and VM_LOCKED ones) get mark_page_accessed, active pages and
 *    pages outside the classzone are left mapped.  No I/O here.
 *  - Classzones: an allocation for zone Z may use Z or any lower zone;
 *    reclaim for Z frees pages of zones <= Z; kswapd balances a flagged
 *    classzone until some zone at or below it is above pages_high.  Zones
 *    are i386's: DMA below 16 MB, Normal below 896 MB, HighMem above;
 *    watermarks realsize/128 clamped to [20, 255] times 1, 2, 3.
 *  - A failing allocation loops (__alloc_pages: "yield(); goto
 *    rebalance") until out_of_memory() - consulted after every failed
 *    try_to_free_pages_zone() - kills: never while swap space is free,
 *    else after 10 failures spread over at least a second (2.4.17
 *    mm/oom_kill.c).
 *  - aa_era=23: shrink_cache scans (inactive + active) / vm_cache_scan_ratio
 *    of the classzone, allows vm_mapped_ratio * nr_pages mapped pages, then
 *    swap_out (once, unless it failed), refill_inactive, and goes on;
 *    refill_inactive moves nr_pages * active / (inactive *
 *    vm_lru_balance_ratio + 1); try_to_free_pages_zone makes vm_passes
 *    passes; swap_out visits up to 2 * mmlist_nr mms.
 *
 * Simplified: pfn 0 stands for physical address 0 (the zone split ignores
 * the kernel image); no slab, dcache, icache, buffer heads; reclaim does not
 * sleep on PG_launder pages (the mm core makes the allocator wait for
 * writeback instead); freed pages are not reserved for the reclaimer
 * (PF_FREE_PAGES); the allocator is the core's 2.4-style zonelist walk;
 * anonymous pages are always written when unmapped (pagelab's anon pages
 * hold data).  The core's 12..0 priority loop is collapsed: the design's
 * own loop runs once at the core's first priority.  Pages scanned = pages
 * looked at on the lists plus present PTEs visited by swap_out. */
#include "policy.h"
#include "oldvm.h"
#include "../mm/filemap.h"
#include "../lib/util.h"

#include <stdlib.h>

enum { T_ERA, T_PASSES, T_CACHE_SCAN, T_MAPPED, T_LRU_BALANCE, T_ANON_LRU, T_PRIO, T_CLUSTER,
       T_DMA_MB, T_NORMAL_MB, NR_T };

static const struct tunable aa_tunables[] = {
	{ "aa_era", "2.4.17 mainline or 2.4.23 (vm_* sysctls)", 17, 17, 23, "17: max_scan = inactive/priority; 23: the vm_* tunables below drive reclaim" },
	{ "vm_passes", "/proc/sys/vm/vm_passes", 60, 1, 1e6, "aa_era=23: shrink_caches passes before failing" },
	{ "vm_cache_scan_ratio", "/proc/sys/vm/vm_cache_scan_ratio", 6, 1, 1e6, "aa_era=23: scan (active+inactive)/ratio per pass" },
	{ "vm_mapped_ratio", "/proc/sys/vm/vm_mapped_ratio", 100, 0, 1e6, "aa_era=23: mapped pages met per page wanted before swap_out" },
	{ "vm_lru_balance_ratio", "/proc/sys/vm/vm_lru_balance_ratio", 2, 1, 1e6, "active:inactive target (2 = inactive is 1/3)" },
	{ "vm_anon_lru", "/proc/sys/vm/vm_anon_lru (-aa)", 1, 0, 1, "1: anonymous pages join the LRU at fault (mainline); 0: only via the swap cache" },
	/* At most 10: 2.4's shrink_cache() shifts nr_pages by 10 - priority. */
	{ "DEF_PRIORITY", "mm/vmscan.c", 6, 1, 10, "aa_era=17: first priority, 1..10 (max_scan = inactive/priority; max_mapped shifts by 10 - priority)" },
	{ "SWAP_CLUSTER_MAX", "include/linux/swap.h", 32, 1, 1024, "pages per try_to_free_pages and per swap_out" },
	{ "MAX_DMA_ADDRESS_MB", "include/asm-i386/dma.h", 16, 0, 1e6, "ZONE_DMA size; 0 = one zone" },
	{ "HIGHMEM_START_MB", "arch/i386 (__VMALLOC_RESERVE)", 896, 0, 1e6, "end of ZONE_NORMAL; 0 = no HighMem" },
	{ 0 },
};

struct aa {
	struct mm *mm;
	int active, inactive, anon;
	uint64_t nr_active[MAX_ZONES], nr_inactive[MAX_ZONES];
	int swap_mm;                /* round-robin cursor; nr_as stands for init_mm */
	uint64_t unmapped;          /* pages swap_out made freeable */
	/* out_of_memory()'s statics (jiffies as ns) and its verdict */
	uint64_t oom_first, oom_last, oom_count;
	bool oom_kill;
	struct mmstates ms;
	struct scan_control *sc;
	double t[NR_T];
};

static struct frames *FR(struct aa *a) { return &a->mm->fr; }
static bool era23(struct aa *a) { return a->t[T_ERA] >= 23; }

static void setup_zones(struct aa *a)
{
	struct mm *mm = a->mm;
	static const char *const names[] = { "DMA", "Normal", "HighMem" };
	uint64_t dma = (uint64_t)a->t[T_DMA_MB] << (20 - PAGE_SHIFT);
	uint64_t normal_end = (uint64_t)a->t[T_NORMAL_MB] << (20 - PAGE_SHIFT);
	uint64_t nr = mm->fr.nr;
	if (!dma || nr <= dma)
		return;  /* one zone */
	uint64_t pages[3] = { dma, 0, 0 };
	int n = 2;
	if (normal_end > dma && nr > normal_end) {
		pages[1] = normal_end - dma;
		n = 3;
	}
	mm_setup_zones(mm, n, pages, names);
}

static void *aa_init(struct mm *mm, const double *tun)
{
	struct aa *a = xcalloc(1, sizeof(*a));
	a->mm = mm;
	for (int i = 0; i < NR_T; i++)
		a->t[i] = tun ? tun[i] : aa_tunables[i].def;
	a->active = lru_register(&mm->fr, "active");
	a->inactive = lru_register(&mm->fr, "inactive");
	a->anon = lru_register(&mm->fr, "anon(not on LRU)");
	lru_set_kind(&mm->fr, a->active, LRU_KIND_ACTIVE);
	lru_set_kind(&mm->fr, a->anon, LRU_KIND_NONE);
	ra_set_era(mm, 24); /* 2.4.17 vm_{min,max}_readahead, filemap_nopage clusters */
	/* 2.4.17 bdflush + kupdated, or the late 2.4 one (src/mm/flusher_era.c) */
	mm_flusher_era(mm, era23(a) ? FLUSHER_24LATE : FLUSHER_2410);
	bool wm = mm->zones[0].wmark_min != 0;
	setup_zones(a);
	for (int z = 0; z < mm->nr_zones; z++)
		if (wm)
			zone_watermarks_24(&mm->zones[z]);
	a->swap_mm = -1;
	mm_work_keep(mm, WORK_SWAP_OUT_ROWS); /* swap_out()'s page-table walk */
	return a;
}

static void aa_destroy(void *p)
{
	struct aa *a = p;
	mmstates_free(&a->ms);
	free(a);
}

/* List moves keeping the per-zone counts. */
static void del_page(struct aa *a, pfn_t pfn)
{
	struct page *pg = mm_page(a->mm, pfn);
	if (mm_page_lru(a->mm, pg) == a->active)
		a->nr_active[pg->zone]--;
	else if (mm_page_lru(a->mm, pg) == a->inactive)
		a->nr_inactive[pg->zone]--;
	lru_del(FR(a), pfn);
}

static void add_active(struct aa *a, pfn_t pfn)
{
	struct page *pg = mm_page(a->mm, pfn);
	pg->flags |= PG_active;
	lru_add_head(FR(a), a->active, pfn);
	a->nr_active[pg->zone]++;
}

static void add_inactive(struct aa *a, pfn_t pfn)
{
	struct page *pg = mm_page(a->mm, pfn);
	pg->flags &= ~PG_active;
	lru_add_head(FR(a), a->inactive, pfn);
	a->nr_inactive[pg->zone]++;
}

static uint64_t classzone_count(const uint64_t *cnt, int classzone)
{
	uint64_t n = 0;
	for (int z = 0; z <= classzone; z++)
		n += cnt[z];
	return n;
}

static uint64_t total(const uint64_t *cnt) { return classzone_count(cnt, MAX_ZONES - 1); }

/* activate_page(): inactive LRU page to the active head. */
static void activate_page(struct aa *a, pfn_t pfn)
{
	struct page *pg = mm_page(a->mm, pfn);
	if (mm_page_lru(a->mm, pg) == a->inactive) {
		del_page(a, pfn);
		add_active(a, pfn);
		a->mm->ev[PGACTIVATE]++;
	}
}

/* mark_page_accessed(): two touches to promote an inactive page. */
static void mark_page_accessed(struct aa *a, pfn_t pfn)
{
	struct page *pg = mm_page(a->mm, pfn);
	if (!(pg->flags & PG_active) && (pg->flags & PG_referenced)) {
		activate_page(a, pfn);
		pg->flags &= ~PG_referenced;
	} else {
		pg->flags |= PG_referenced;
	}
}

static void aa_mark_accessed(void *p, pfn_t pfn) { mark_page_accessed(p, pfn); }

static void aa_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct aa *a = p;
	struct page *pg = mm_page(a->mm, pfn);
	if ((pg->flags & PG_anon) && !(pg->flags & PG_swapcache) && !a->t[T_ANON_LRU]) {
		lru_add_head(FR(a), a->anon, pfn);
		return;
	}
	/* lru_cache_add(): the inactive list. */
	add_inactive(a, pfn);
	/* do_anonymous_page() and do_swap_page() mark the page accessed;
	 * a page-cache page is marked by whoever looks it up. */
	if (why == ADD_NEW_ANON || why == ADD_SWAPIN || why == ADD_REFAULT)
		mark_page_accessed(a, pfn);
}

static void aa_remove(void *p, pfn_t pfn)
{
	struct aa *a = p;
	del_page(a, pfn);
	mm_page(a->mm, pfn)->flags &= ~PG_active;
}

/* try_to_swap_out(): 1 when the page became freeable (only the cache
 * still holds it). */
static int try_to_swap_out(struct aa *a, struct pte_ref *r, int classzone)
{
	struct mm *mm = a->mm;
	struct page *pg = mm_page(mm, r->pfn);
	if (r->locked_vma || ptescan_test_and_clear_young(r)) {
		mark_page_accessed(a, r->pfn);
		return 0;
	}
	if (pg->flags & PG_active)
		return 0;  /* don't bother unmapping pages that are active */
	if (pg->zone > classzone)
		return 0;  /* don't replenish zones not under pressure */
	if (pg->flags & PG_locked)
		return 0;
	bool holding = mm_page_lru(a->mm, pg) == a->anon;
	enum unmap_result res = ptescan_unmap(mm, r);
	if (res == UNMAP_NOSWAP || res == UNMAP_BUSY)
		return 0;
	if (holding) {  /* add_to_swap_cache() -> lru_cache_add() */
		lru_del(FR(a), r->pfn);
		add_inactive(a, r->pfn);
	}
	return page_users(pg) <= 1;
}

/* swap_out_mm(): walk one mm from its swap_address; returns the count
 * still wanted.  An mm walked to its end is marked done (TASK_SIZE). */
static int64_t swap_out_mm(struct aa *a, struct aspace *as, int64_t count, int classzone)
{
	struct mmstate *st = mmstate_get(&a->ms, as->id);
	struct pte_ref r;
	while (ptescan_next(a->mm, as, &st->addr, &r)) {
		sc_scanned(a->sc, mm_page(a->mm, r.pfn), 1);
		int freeable = try_to_swap_out(a, &r, classzone);
		a->unmapped += (uint64_t)freeable;
		count -= freeable;
		if (!count)
			return 0;
	}
	st->swap_cnt = 1;  /* swap_address == TASK_SIZE */
	return count;
}

static int swap_out(struct aa *a, int classzone)
{
	struct mm *mm = a->mm;
	int64_t nr_pages = (int64_t)a->t[T_CLUSTER];
	int64_t counter = nr_live_aspaces(mm);
	if (era23(a))
		counter <<= 1;
	int nmm = (int)mm->nr_as + 1;   /* the last slot stands for init_mm */
	if (a->swap_mm < 0 || a->swap_mm >= nmm)
		a->swap_mm = nmm - 1;
	do {
		int cur = a->swap_mm;
		for (;;) {
			bool usable = cur < nmm - 1 && !mm->as[cur]->dead &&
				      !mmstate_get(&a->ms, (uint32_t)cur)->swap_cnt;
			if (usable)
				break;
			if (cur < nmm - 1) {  /* back to swap_address 0 */
				struct mmstate *st = mmstate_get(&a->ms, (uint32_t)cur);
				st->swap_cnt = 0;
				st->addr = (struct pte_cursor){ 0, 0 };
			}
			cur = (cur + 1) % nmm;
			if (cur == a->swap_mm)
				return 0;  /* empty */
			a->swap_mm = cur;
		}
		nr_pages = swap_out_mm(a, mm->as[cur], nr_pages, classzone);
		if (!nr_pages)
			return 1;
	} while (--counter >= 0);
	return 0;
}

/* refill_inactive(): move `ratio` unreferenced pages from the active tail
 * to the inactive list, rotating referenced ones. */
static void refill_inactive(struct aa *a, uint64_t ratio)
{
	uint64_t budget = lru_count(FR(a), a->active);
	while (ratio && budget-- && lru_count(FR(a), a->active)) {
		pfn_t pfn = lru_tail(FR(a), a->active);
		struct page *pg = mm_page(a->mm, pfn);
		sc_scanned(a->sc, pg, 1);
		a->mm->ev[PGREFILL]++;
		if (pg->flags & PG_referenced) {
			pg->flags &= ~PG_referenced;
			lru_move_head(FR(a), a->active, pfn);
			continue;
		}
		ratio--;
		del_page(a, pfn);
		add_inactive(a, pfn);
		pg->flags |= PG_referenced;
		a->mm->ev[PGDEACTIVATE]++;
	}
}

static void refill_inactive_zone(struct aa *a, int64_t nr_pages, int classzone)
{
	uint64_t ratio;
	if (era23(a))
		ratio = (uint64_t)nr_pages * a->nr_active[classzone] /
			((uint64_t)((double)a->nr_inactive[classzone] * a->t[T_LRU_BALANCE]) + 1);
	else
		ratio = (uint64_t)nr_pages * total(a->nr_active) /
			((total(a->nr_inactive) + 1) * (uint64_t)a->t[T_LRU_BALANCE]);
	refill_inactive(a, ratio);
}

/* Hand an inactive page to the core; true if it was freed.  A page under
 * writeback (or refused) goes back to the inactive head. */
static bool aa_reclaim(struct aa *a, pfn_t pfn)
{
	del_page(a, pfn);
	if (mm_reclaim_page(a->mm, a->sc, pfn) == EVICT_FREED)
		return true;
	add_inactive(a, pfn);
	return false;
}

/* shrink_cache(): returns the number of pages still wanted. */
static int64_t shrink_cache(struct aa *a, int64_t nr_pages, int classzone, int priority,
			    bool *failed_swapout)
{
	struct mm *mm = a->mm;
	struct scan_control *sc = a->sc;
	int64_t max_scan, max_mapped;
	if (era23(a)) {
		max_scan = (int64_t)((a->nr_inactive[classzone] + a->nr_active[classzone]) /
				     (uint64_t)a->t[T_CACHE_SCAN]);
		max_mapped = (int64_t)a->t[T_MAPPED] * nr_pages;
	} else {
		max_scan = (int64_t)(total(a->nr_inactive) / (uint64_t)priority);
		int64_t m = nr_pages << (10 - priority);
		max_mapped = m < max_scan / 10 ? m : max_scan / 10;
	}
	uint64_t wb_mark = sc->nr_writeback;
	while (lru_count(FR(a), a->inactive)) {
		oldvm_io_catch_up(mm, sc, &wb_mark);
		if (era23(a) ? (!max_scan || !classzone_count(a->nr_inactive, classzone)) : --max_scan < 0)
			break;
		pfn_t pfn = lru_tail(FR(a), a->inactive);
		struct page *pg = mm_page(mm, pfn);
		lru_move_head(FR(a), a->inactive, pfn);
		if (pg->zone > classzone)
			continue;
		if (era23(a))
			max_scan--;
		sc_scanned(sc, pg, 1);
		/* Mapped by a process, or anonymous outside the swap cache. */
		if (page_users(pg) != 1 || !(pg->flags & (PG_swapcache | PG_file)))
			goto page_mapped;
		if (pg->flags & (PG_locked | PG_writeback))
			continue;  /* I/O in progress */
		if ((pg->flags & PG_dirty) && !sc->may_writepage)
			continue;
		/* Dirty: writepage() (ClearPageDirty, SetPageLaunder), freed on a
		 * later pass.  Clean: removed from the swap or page cache and
		 * freed. */
		if (aa_reclaim(a, pfn) && --nr_pages <= 0)
			break;
		continue;
page_mapped:
		if (--max_mapped >= 0)
			continue;
		/* Too many mapped pages on the inactive list: unmap some. */
		if (!era23(a)) {
			swap_out(a, classzone);
			return nr_pages;
		}
		if (!*failed_swapout)
			*failed_swapout = !swap_out(a, classzone);
		max_mapped = nr_pages * (int64_t)a->t[T_MAPPED];
		refill_inactive_zone(a, nr_pages, classzone);
	}
	return nr_pages;
}

static int64_t shrink_caches(struct aa *a, int classzone, int priority, int64_t nr_pages,
			     bool *failed_swapout)
{
	refill_inactive_zone(a, nr_pages, classzone);
	return shrink_cache(a, nr_pages, classzone, priority, failed_swapout);
}

/* try_to_free_pages(classzone) / try_to_free_pages_zone(). */
static bool try_to_free_pages(struct aa *a, int classzone)
{
	int64_t nr_pages = (int64_t)a->t[T_CLUSTER];
	if (a->sc->nr_to_reclaim < (uint64_t)nr_pages && a->sc->nr_to_reclaim)
		nr_pages = (int64_t)a->sc->nr_to_reclaim;
	bool failed_swapout = !a->sc->may_swap;
	if (era23(a)) {
		for (int64_t tries = (int64_t)a->t[T_PASSES]; tries > 0; tries--) {
			mm_reclaim_io_catch_up(a->mm, NULL, a->sc);
			nr_pages = shrink_caches(a, classzone, 0, nr_pages, &failed_swapout);
			if (nr_pages <= 0)
				return true;
			if (!failed_swapout)
				failed_swapout = !swap_out(a, classzone);
		}
		return false;
	}
	for (int priority = (int)a->t[T_PRIO]; priority > 0; priority--) {
		/* Writes of the earlier priorities that are done by now have
		 * cleaned their pages (I/O inside reclaim passes). */
		mm_reclaim_io_catch_up(a->mm, NULL, a->sc);
		nr_pages = shrink_caches(a, classzone, priority, nr_pages, &failed_swapout);
		if (nr_pages <= 0)
			return true;
	}
	return false;
}

#define HZ_NS 1000000000ULL  /* out_of_memory() counts in jiffies; HZ = 1 s */

/* 2.4.17 mm/oom_kill.c out_of_memory(), called at the end of every failed
 * try_to_free_pages_zone() (all priorities, by kswapd and by allocating
 * tasks alike): nothing while swap space is left; otherwise a kill once
 * reclaim has been failing for at least a second, at least 10 times, with
 * no pause over 5 s between failures (first / last / count are statics
 * starting at 0, as jiffies did). */
static void out_of_memory(struct aa *a)
{
	const struct mm *mm = a->mm;
	if (mm->swap.used < mm->swap.nr_slots)
		return;  /* nr_swap_pages > 0: not OOM */
	uint64_t now = mm->cur ? mm->cur->t0 + mm->cur->user_ns + mm->cur->sys_ns : 0;
	uint64_t since = now - a->oom_last;
	a->oom_last = now;
	if (since > 5 * HZ_NS)
		goto reset;              /* a long time since the last failure */
	if (now - a->oom_first < HZ_NS)
		return;                  /* not trying for a second yet */
	if (++a->oom_count < 10)
		return;                  /* only a few failures */
	a->oom_kill = true;              /* oom_kill() */
reset:
	a->oom_first = now;
	a->oom_count = 0;
}

static void aa_shrink(void *p, struct scan_control *sc)
{
	struct aa *a = p;
	if (sc->priority != DEF_PRIORITY)
		return;  /* the design's own loop already ran */
	a->sc = sc;
	int classzone = sc->zone < a->mm->nr_zones ? sc->zone : a->mm->nr_zones - 1;
	/* One balance_classzone() -> try_to_free_pages_zone() per call.  A
	 * failed one calls out_of_memory(); __alloc_pages() then yields and
	 * tries again, without limit: the core's allocator repeats the call
	 * and, when it still fails, asks aa_out_of_memory() whether to kill
	 * or to wait and retry. */
	if (!try_to_free_pages(a, classzone) && !sc->nr_reclaimed)
		out_of_memory(a);
	a->sc = NULL;
}

/* The allocator gave up a round: kill only if out_of_memory() said so. */
static bool aa_out_of_memory(void *p, uint64_t now_ns)
{
	struct aa *a = p;
	(void)now_ns;
	bool kill = a->oom_kill;
	a->oom_kill = false;
	return kill;
}

static bool aa_check(void *p, FILE *err)
{
	struct aa *a = p;
	uint64_t act[MAX_ZONES] = { 0 }, inact[MAX_ZONES] = { 0 };
	bool ok = true;
	for (pfn_t pfn = lru_head(FR(a), a->active); pfn != PFN_NONE; pfn = lru_next(FR(a), pfn)) {
		act[mm_page(a->mm, pfn)->zone]++;
		if (!(mm_page(a->mm, pfn)->flags & PG_active)) {
			fprintf(err, "aa24: pfn %u on the active list without PG_active\n", pfn);
			ok = false;
		}
	}
	for (pfn_t pfn = lru_head(FR(a), a->inactive); pfn != PFN_NONE; pfn = lru_next(FR(a), pfn))
		inact[mm_page(a->mm, pfn)->zone]++;
	for (int z = 0; z < MAX_ZONES; z++)
		if (act[z] != a->nr_active[z] || inact[z] != a->nr_inactive[z]) {
			fprintf(err, "aa24: zone %d counts active %llu inactive %llu, lists hold %llu %llu\n", z,
				(unsigned long long)a->nr_active[z], (unsigned long long)a->nr_inactive[z],
				(unsigned long long)act[z], (unsigned long long)inact[z]);
			ok = false;
		}
	return ok;
}

/* aa_era names a kernel tree: only 2.4.17 and 2.4.23 are modelled. */
static bool aa_check_tunables(const double *tun, char *err, size_t errlen)
{
	if (tun[0] != 17 && tun[0] != 23) {
		snprintf(err, errlen, "bad value '%g' for aa_era (17 or 23)", tun[0]);
		return false;
	}
	return true;
}

const struct policy_ops aa24_policy = {
	.name = "aa24",
	.summary = "Linux 2.4.10+ classzone VM: active/inactive, two-touch mark_page_accessed, shrink_cache, vm_* tunables",
	.flags = POLICY_FAULT_ACCESSED | POLICY_MLOCK_HALF_RAM,
	.check_tunables = aa_check_tunables,
	.tunables = aa_tunables,
	.init = aa_init,
	.destroy = aa_destroy,
	.add = aa_add,
	.remove = aa_remove,
	.mark_accessed = aa_mark_accessed,
	.shrink = aa_shrink,
	.check = aa_check,
	.out_of_memory = aa_out_of_memory,
};
