/* linux22.c - Linux 2.2 (2.2.1 mm/vmscan.c, mm/filemap.c shrink_mmap):
 *
 *  - shrink_mmap(): one clock hand over physical memory (mem_map).  It
 *    test-and-clears PG_referenced on EVERY frame it passes; its budget,
 *    num_physpages >> priority, is spent only on frames with one user
 *    (page_count == 1); a referenced candidate gets another revolution, an
 *    unreferenced swap-cache or page-cache page is freed.
 *  - swap_out(): picks the task with the largest swap_cnt (reloaded from
 *    rss when all are 0) and walks its page tables from swap_address.
 *    try_to_swap_out() turns a young PTE into PG_referenced, unmaps a
 *    swap-cache page into a swap PTE, and writes a dirty page out (new swap
 *    slot + asynchronous write), which ends the call.  Unmapping frees
 *    nothing: shrink_mmap frees the swap-cache copy later.
 *  - do_try_to_free_pages(): priorities 6 down to 0, page cache first
 *    (shrink_mmap), then processes (swap_out), until SWAP_CLUSTER_MAX
 *    successes.  kswapd wakes every second (a 1 s timer thread here) and
 *    works while free < freepages.high; allocators reclaim for themselves.
 *  - freepages = {i, 2i, 3i}, i = num_physpages/128 clamped to [10, 256].
 *
 * Simplified: no slab/dcache/SysV shm (kmem_cache_reap, shm_swap,
 * shrink_dcache_memory are no-ops); no buffer heads (buffer_mem is unused);
 * the mm core's allocator is 2.6-shaped (kswapd below low, direct reclaim
 * below min) instead of 2.2's low_on_memory hysteresis; an anonymous page
 * is always written to swap when unmapped (pagelab's anon pages hold data,
 * so "clean" anon is treated as dirty); the core's 12..0 priority loop is
 * collapsed: one shrink() at the core's first priority runs the whole 6..0
 * loop once.  Pages scanned = frames the clock spends budget on or passes
 * referenced, plus present PTEs swap_out visits (both cost CPU). */
#include "policy.h"
#include "oldvm.h"
#include "../mm/filemap.h"
#include "../lib/util.h"

#include <stdlib.h>

enum { T_FP_MIN, T_FP_LOW, T_FP_HIGH, T_PRIO, T_CLUSTER, T_PGCACHE_MIN, NR_T };

static const struct tunable l22_tunables[] = {
	{ "freepages.min", "/proc/sys/vm/freepages (min)", 0, 0, 1e9, "0 = num_physpages/128 clamped to [10,256]" },
	{ "freepages.low", "/proc/sys/vm/freepages (low)", 0, 0, 1e9, "0 = 2 * freepages.min" },
	{ "freepages.high", "/proc/sys/vm/freepages (high)", 0, 0, 1e9, "0 = 3 * freepages.min" },
	{ "priority", "do_try_to_free_pages: int priority = 6", 6, 0, 12, "first (gentlest) priority" },
	{ "SWAP_CLUSTER_MAX", "include/linux/swap.h", 32, 1, 1024, "pages freed per do_try_to_free_pages" },
	{ "page_cache.min_percent", "/proc/sys/vm/pagecache (min)", 2, 0, 100, "pgcache_under_min(): keep this % of RAM as page cache" },
	{ 0 },
};

struct l22 {
	struct mm *mm;
	int list;              /* every page in use: stands for mem_map */
	pfn_t clock;           /* shrink_mmap's hand */
	uint64_t nr_file;      /* page-cache pages (pgcache_under_min) */
	uint64_t progress;     /* PTE references harvested, pages unmapped */
	struct mmstates ms;
	double t[NR_T];
};

static void *l22_init(struct mm *mm, const double *tun)
{
	struct l22 *l = xcalloc(1, sizeof(*l));
	l->mm = mm;
	for (int i = 0; i < NR_T; i++)
		l->t[i] = tun ? tun[i] : l22_tunables[i].def;
	l->list = lru_register(&mm->fr, "mem_map(2.2)");
	ra_set_era(mm, 22); /* 2.2 generic_file_readahead, swap_setup's page_cluster */
	mm_flusher_era(mm, FLUSHER_22); /* 2.2.1 kflushd + update (src/mm/flusher_era.c) */
	struct zone *z = &mm->zones[0];
	if (z->wmark_min) {
		uint64_t mn, lo, hi;
		freepages_22(mm->fr.nr, &mn, &lo, &hi);
		if (l->t[T_FP_MIN]) mn = (uint64_t)l->t[T_FP_MIN];
		lo = l->t[T_FP_LOW] ? (uint64_t)l->t[T_FP_LOW] : 2 * mn;
		hi = l->t[T_FP_HIGH] ? (uint64_t)l->t[T_FP_HIGH] : 3 * mn;
		if (hi > mm->fr.nr / 4) { /* tiny machines */
			hi = mm->fr.nr / 4; lo = hi * 2 / 3; mn = hi / 3;
		}
		z->wmark_min = mn;
		z->wmark_low = lo;
		z->wmark_high = hi;
	}
	mm_work_keep(mm, WORK_SWAP_OUT_ROWS); /* swap_out()'s page-table walk */
	return l;
}

static void l22_destroy(void *p)
{
	struct l22 *l = p;
	mmstates_free(&l->ms);
	free(l);
}

static void l22_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct l22 *l = p;
	struct page *pg = mm_page(l->mm, pfn);
	/* add_to_page_cache() sets PG_referenced: a new cache page survives
	 * one pass of the clock. */
	if (why == ADD_PAGECACHE || why == ADD_SWAPIN || why == ADD_REFAULT)
		pg->flags |= PG_referenced;
	if (pg->flags & PG_file)
		l->nr_file++;
	lru_add_head(&l->mm->fr, l->list, pfn);
}

static void l22_remove(void *p, pfn_t pfn)
{
	struct l22 *l = p;
	if (mm_page(l->mm, pfn)->flags & PG_file)
		l->nr_file--;
	lru_del(&l->mm->fr, pfn);
}

/* __find_page(): a page-cache lookup sets PG_referenced. */
static void l22_mark_accessed(void *p, pfn_t pfn)
{
	struct l22 *l = p;
	mm_page(l->mm, pfn)->flags |= PG_referenced;
}

/* Put a page the core did not free back where it was (the clock's order
 * is physical, the list is only membership). */
static void putback(struct l22 *l, pfn_t pfn)
{
	lru_add_head(&l->mm->fr, l->list, pfn);
}

/* shrink_mmap(priority): returns 1 when it freed a page. */
static int shrink_mmap(struct l22 *l, struct scan_control *sc, int priority)
{
	struct mm *mm = l->mm;
	int64_t count = (int64_t)(mm->fr.nr >> priority);
	/* The kernel's loop ends only through the budget; bound the hand to
	 * two revolutions so an all-mapped memory cannot spin it forever. */
	uint64_t steps = 2 * (uint64_t)mm->fr.nr;
	while (count > 0 && steps--) {
		pfn_t pfn = l->clock;
		l->clock = l->clock + 1 >= mm->fr.nr ? 0 : l->clock + 1;
		struct page *pg = mm_page(mm, pfn);
		if (mm_page_lru(mm, pg) != l->list)
			continue;  /* free, or owned by the core */
		bool referenced = pg->flags & PG_referenced;
		pg->flags &= ~PG_referenced;
		if (pg->flags & (PG_locked | PG_writeback))
			continue;
		if (page_users(pg) != 1)
			continue;
		count--;
		sc_scanned(sc, pg, 1);
		if (pg->flags & PG_swapcache) {
			/* A referenced copy is kept only while swap PTEs still
			 * point to it; an unused swap-cache copy always goes. */
			if (referenced && mm->swap.map[pg->swap - 1])
				continue;
		} else if (referenced) {
			continue;
		} else if (!(pg->flags & PG_file)) {
			continue;  /* mapped anonymous page: not freeable here */
		} else if (l->nr_file * 100 < (uint64_t)(l->t[T_PGCACHE_MIN] * (double)mm->fr.nr)) {
			continue;  /* pgcache_under_min() */
		}
		bool file = pg->flags & PG_file;
		enum evict_result r = oldvm_reclaim(mm, sc, pfn);
		if (r == EVICT_FREED) {
			if (file)
				l->nr_file--; /* it left the list without remove() */
			return 1;
		}
		putback(l, pfn);
	}
	return 0;
}

/* try_to_swap_out(): 1 when it started a write (the caller stops). */
static int try_to_swap_out(struct l22 *l, struct scan_control *sc, struct pte_ref *r)
{
	struct mm *mm = l->mm;
	struct page *pg = mm_page(mm, r->pfn);
	if (pg->flags & PG_locked)
		return 0;
	if (ptescan_test_and_clear_young(r)) {
		pg->flags |= PG_referenced;
		l->progress++;
		return 0;
	}
	bool was_cached = pg->flags & PG_swapcache;
	enum unmap_result u = ptescan_unmap(mm, r);
	if (u == UNMAP_SWAPCACHE || u == UNMAP_DROPPED)
		l->progress++;
	if (u != UNMAP_SWAPCACHE || was_cached)
		return 0;  /* dropped, busy, no swap, or just a swap PTE now */
	if (pg->mapcount || !(pg->flags & PG_dirty) || (pg->flags & PG_writeback))
		return 0;
	/* rw_swap_page(WRITE) of the newly allocated slot. */
	enum evict_result res = oldvm_reclaim(mm, sc, r->pfn);
	if (res != EVICT_FREED)
		putback(l, r->pfn);
	return 1;
}

static int swap_out_process(struct l22 *l, struct scan_control *sc, struct aspace *as)
{
	struct mmstate *st = mmstate_get(&l->ms, as->id);
	struct pte_ref r;
	while (ptescan_next(l->mm, as, &st->addr, &r)) {
		sc_scanned(sc, mm_page(l->mm, r.pfn), 1);
		if (r.locked_vma)
			continue;  /* VM_LOCKED areas are skipped */
		if (try_to_swap_out(l, sc, &r))
			return 1;
	}
	st->addr = (struct pte_cursor){ 0, 0 };
	st->swap_cnt = 0;
	return 0;
}

static struct aspace *pick_task(struct l22 *l)
{
	struct mm *mm = l->mm;
	struct aspace *best = NULL;
	int64_t max_cnt = 0;
	for (int pass = 0; pass < 2 && !best; pass++) {
		for (uint32_t i = 0; i < mm->nr_as; i++) {
			struct aspace *as = mm->as[i];
			if (!mm_swappable(as))
				continue;
			struct mmstate *st = mmstate_get(&l->ms, as->id);
			if (pass)
				st->swap_cnt = (int64_t)as->rss; /* reload the shadow RSS */
			if (st->swap_cnt > max_cnt) {
				max_cnt = st->swap_cnt;
				best = as;
			}
		}
	}
	return best;
}

static int swap_out(struct l22 *l, struct scan_control *sc, int priority)
{
	int64_t nr = nr_live_aspaces(l->mm);
	int64_t counter = nr / (priority + 1);
	if (counter < 1)
		counter = 1;
	if (counter > nr)
		counter = nr;
	for (; counter >= 0; counter--) {
		struct aspace *as = pick_task(l);
		if (!as)
			return 0;
		if (swap_out_process(l, sc, as))
			return 1;
	}
	return 0;
}

static bool do_try_to_free_pages(struct l22 *l, struct scan_control *sc)
{
	int64_t count = (int64_t)(sc->nr_to_reclaim < (uint64_t)l->t[T_CLUSTER] ?
				  sc->nr_to_reclaim : (uint64_t)l->t[T_CLUSTER]);
	if (count < 1)
		count = 1;
	for (int priority = (int)l->t[T_PRIO]; priority >= 0; priority--) {
		/* Writes started by the earlier priorities and rounds that are
		 * done by now complete first (docs/design.md, "I/O completes
		 * inside reclaim passes"): their swap-cache copies are then
		 * clean, and shrink_mmap frees them instead of starting more. */
		mm_reclaim_io_catch_up(l->mm, NULL, sc);
		while (shrink_mmap(l, sc, priority))
			if (--count == 0)
				return true;
		while (swap_out(l, sc, priority))
			if (--count == 0)
				return true;
	}
	return false;
}

static void l22_shrink(void *p, struct scan_control *sc)
{
	struct l22 *l = p;
	if (sc->priority != DEF_PRIORITY)
		return;  /* the 6..0 loop already ran at the core's first priority */
	/* A failed pass that unmapped pages has made them freeable by the
	 * next one (the allocator and kswapd call again); stop when a pass
	 * changed nothing (at most 100
	 * rounds: beyond that the allocator goes back to the core, which waits
	 * for writeback or declares OOM). */
	for (int round = 0; round < 100; round++) {
		uint64_t before = l->progress, wb = sc->nr_writeback;
		if (do_try_to_free_pages(l, sc) || sc->nr_reclaimed)
			break;
		if ((l->progress == before && sc->nr_writeback == wb) ||
		    l->mm->swap.used >= l->mm->swap.nr_slots)
			break;
	}
}

/* kswapd's one-second timeout: wake it if free memory is below
 * freepages.high (the kernel thread itself does the work). */
static void l22_tick(void *p, struct scan_control *sc)
{
	struct l22 *l = p;
	(void)sc;
	if (l->mm->zones[0].wmark_high && l->mm->stat.nr_free <= l->mm->zones[0].wmark_high)
		mm_wake_kswapd(l->mm);
}

static bool l22_check(void *p, FILE *err)
{
	struct l22 *l = p;
	uint64_t nf = 0;
	for (pfn_t pfn = lru_head(&l->mm->fr, l->list); pfn != PFN_NONE; pfn = lru_next(&l->mm->fr, pfn))
		nf += !!(mm_page(l->mm, pfn)->flags & PG_file);
	if (nf != l->nr_file) {
		fprintf(err, "linux22: nr_file %llu but %llu page-cache pages listed\n",
			(unsigned long long)l->nr_file, (unsigned long long)nf);
		return false;
	}
	return true;
}

const struct policy_ops linux22_policy = {
	.name = "linux22",
	.flags = POLICY_MLOCK_HALF_RAM,
	.summary = "Linux 2.2: shrink_mmap clock over mem_map + swap_out page-table scan (swap_cnt)",
	.tunables = l22_tunables,
	.init = l22_init,
	.destroy = l22_destroy,
	.add = l22_add,
	.remove = l22_remove,
	.mark_accessed = l22_mark_accessed,
	.shrink = l22_shrink,
	.check = l22_check,
	.tick_ns = 1000000000ULL,
	.tick_name = "kswapd-timer",
	.tick = l22_tick,
};
