/* splitlru.c - Linux 2.6.28 as merged: the split LRU of Rik van Riel, Lee
 * Schermerhorn and KOSAKI Motohiro (mm/vmscan.c, mm/swap.c of 2.6.28).
 *
 * Anonymous (swap-backed) and file pages live on separate active/inactive
 * pairs, plus the unevictable list for mlocked pages.  get_scan_ratio()
 * splits the scan pressure between anon and file from recent_scanned /
 * recent_rotated and vm_swappiness; shrink_active_list() deactivates every
 * page it scans (a referenced page only counts as "rotated" for the ratio);
 * the inactive anon list is kept at 1/(inactive_ratio+1) of the anon pages,
 * inactive_ratio = int_sqrt(10 x zone GB); kswapd ages the anon list in the
 * background; mlocked pages found by the scanner are culled to the
 * unevictable list and never scanned again.  Pages under writeback started
 * by reclaim go back on the inactive list and rotate_reclaimable_page()
 * moves them to its tail when the write completes.
 *
 * Variants (--set): noforce=0 restores 2.6.26-rc8-mm1's forced "+1" page of
 * scan pressure per list per shrink_zone() - the "-mm" kernel of the July
 * 2008 PERF thread; 2.6.28 as merged already carries Johannes Weiner's fix
 * (e0f79b8, "vmscan: don't accumulate scan pressure on unrelated lists"), so
 * noforce=1 is the default.  stream=1 reconstructs "evict streaming IO cache
 * first" (leave ACTIVE_FILE alone while the inactive file list is at least
 * as large; mainline as inactive_file_is_low in 2.6.30/31).  exec_active=1
 * is 2.6.31's rule keeping referenced executable file pages active.
 *
 * The swap token (src/mm/thrash.c) and filemap_fault()'s
 * mark_page_accessed() are on, as in 2.6.28 (POLICY_SWAP_TOKEN,
 * POLICY_FAULT_ACCESSED); workingset, which shares this engine, follows
 * 3.15+ and has neither.  For workingset (cfg.memcg_swappiness) a pass
 * takes its swappiness as 3.15's get_scan_count() does in cgroup reclaim
 * (vmscan_swappiness(): the memcg's; 0 scans no anon list: "memcg users
 * want to use this knob to disable swapping for individual groups"),
 * with 6.9-6.15's memory.reclaim swappiness= (sc_swappiness(),
 * try_to_free_mem_cgroup_pages()'s swappiness argument in 6.15) in its
 * place while a write runs.
 *
 * Simplified: one zone (no classzone, lowmem_reserve or all_unreclaimable
 * zone skipping), no lumpy reclaim (order 0 only), no pagevec batching, no
 * slab shrinking, no memcg, no freeing of swap slots of
 * activated pages when swap is half full; page_mapping_inuse() knows only
 * whether the page itself is mapped or in the swap cache (not whether its
 * file is mmapped elsewhere). */
#include "policy.h"
#include "splitlru.h"
#include "../lib/util.h"

#include <stdlib.h>

#define BATCH_MAX 1024 /* largest swap_cluster_max a tunable can ask for */

static const char *const lru_names[NR_EVICTABLE_LRU] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file",
};

static inline int page_is_file(const struct page *p) { return !(p->flags & PG_anon); }
static inline int lru_of(int file, int active) { return 2 * file + active; }

unsigned splitlru_inactive_ratio(uint64_t zone_pages)
{
	uint64_t gb = zone_pages >> (30 - PAGE_SHIFT);
	unsigned ratio = (unsigned)isqrt64(10 * gb);
	return ratio ? ratio : 1;
}

void splitlru_setup(struct splitlru *s, struct mm *mm, const struct splitlru_cfg *cfg)
{
	s->mm = mm;
	s->cfg = *cfg;
	for (int l = 0; l < NR_EVICTABLE_LRU; l++) {
		s->list[l] = lru_register(&mm->fr, lru_names[l]);
		if (l == LRU_ACTIVE_ANON || l == LRU_ACTIVE_FILE)
			lru_set_kind(&mm->fr, s->list[l], LRU_KIND_ACTIVE);
	}
	s->inactive_ratio = cfg->inactive_ratio ? cfg->inactive_ratio
			    : splitlru_inactive_ratio(mm->zones[0].managed);
	s->seen_pgfree = mm->ev[PGFREE];
	mm_work_keep(mm, WORK_ISOLATE_26_ROWS);
}

/* Kernel work the mm core does not charge through sc->nr_scanned (active
 * list scans) costs the reclaimer CPU all the same. */
static void charge_scan(struct splitlru *s, uint64_t n)
{
	if (s->mm->cur)
		s->mm->cur->sys_ns += n * s->mm->cost->scan_ns;
}

/* zone->pages_scanned is reset whenever a page is freed to the zone. */
static void note_frees(struct splitlru *s)
{
	if (s->mm->ev[PGFREE] != s->seen_pgfree) {
		s->seen_pgfree = s->mm->ev[PGFREE];
		s->pages_scanned = 0;
	}
}

bool splitlru_inactive_anon_is_low(const struct splitlru *s)
{
	return splitlru_size(s, LRU_INACTIVE_ANON) * s->inactive_ratio <
	       splitlru_size(s, LRU_ACTIVE_ANON);
}

static bool inactive_file_is_low(const struct splitlru *s)
{
	return splitlru_size(s, LRU_INACTIVE_FILE) < splitlru_size(s, LRU_ACTIVE_FILE);
}

/* page_evictable(): mlocked pages (and, later, ramfs / SHM_LOCK mappings)
 * cannot be reclaimed. */
static bool page_evictable(const struct page *p) { return !(p->flags & PG_mlocked); }

/* page_mapping_inuse(): mapped, or in the swap cache ("be more reluctant to
 * reclaim swapcache than pagecache"). */
static bool page_mapping_inuse(const struct page *p)
{
	return p->mapcount > 0 || (p->flags & PG_swapcache);
}

/* page_referenced(): PG_referenced (test-and-clear) plus the young PTEs
 * found through rmap; *vm_flags gets the flags of the VMAs whose PTE was
 * young (2.6.31).  2.6.28 does not count a VM_LOCKED mapping as a
 * reference, so that an mlocked page proceeds to be culled. */
static int page_referenced(struct splitlru *s, pfn_t pfn, uint32_t *vm_flags)
{
	struct page *p = mm_page(s->mm, pfn);
	int referenced = 0;
	if (p->flags & PG_referenced) {
		p->flags &= ~PG_referenced;
		referenced++;
	}
	if (p->mapcount > 0 && !(p->flags & PG_mlocked))
		referenced += mm_page_referenced_vmflags(s->mm, pfn, vm_flags);
	return referenced;
}


static void cull(struct splitlru *s, pfn_t pfn)
{
	mm_page(s->mm, pfn)->flags &= ~PG_active;
	mm_cull_unevictable(s->mm, pfn);
}

/* ____pagevec_lru_add(): every page added counts as scanned; pages added
 * straight to an active list count as rotated too. */
static void lru_add(struct splitlru *s, pfn_t pfn, bool active)
{
	struct page *p = mm_page(s->mm, pfn);
	int file = page_is_file(p);
	s->recent_scanned[file]++;
	if (active) {
		p->flags |= PG_active;
		s->recent_rotated[file]++;
	} else {
		p->flags &= ~PG_active;
	}
	lru_add_head(&s->mm->fr, s->list[lru_of(file, active)], pfn);
}

void splitlru_add(struct splitlru *s, pfn_t pfn, enum add_reason why)
{
	struct page *p = mm_page(s->mm, pfn);
	p->pol32[0] = 0;
	if (!page_evictable(p)) {
		/* lru_cache_add_active_or_unevictable(): a fault in a
		 * VM_LOCKED vma goes straight to the unevictable list. */
		cull(s, pfn);
		return;
	}
	bool active;
	switch (why) {
	case ADD_NEW_ANON:
		/* 2.6.28 starts new anonymous pages active ("every anonymous
		 * page starts out referenced"); 5.9 starts them inactive. */
		active = !s->cfg.anon_inactive;
		break;
	case ADD_SWAPIN:
	case ADD_REFAULT:
		/* read_swap_cache_async() -> lru_cache_add_anon(): inactive,
		 * unless refault detection activated it; do_swap_page() then
		 * calls mark_page_accessed() on the not-yet-LRU page. */
		active = (p->flags & PG_active) != 0;
		if (!page_is_file(p))
			p->flags |= PG_referenced;
		break;
	case ADD_PAGECACHE:
		active = false; /* add_to_page_cache_lru(): inactive file */
		break;
	case ADD_SWAPCACHE:
	case ADD_PUTBACK:
	default:
		/* putback_lru_page(): back where PG_active says. */
		active = (p->flags & PG_active) != 0;
		break;
	}
	lru_add(s, pfn, active);
}

void splitlru_remove(struct splitlru *s, pfn_t pfn)
{
	lru_del(&s->mm->fr, pfn);
}

static bool on_inactive_list(const struct splitlru *s, const struct page *p)
{
	return mm_page_lru(s->mm, p) == s->list[LRU_INACTIVE_ANON] || mm_page_lru(s->mm, p) == s->list[LRU_INACTIVE_FILE];
}

/* activate_page(): inactive -> active of the same type, counted as both
 * scanned and rotated for get_scan_ratio(). */
static void activate_page(struct splitlru *s, pfn_t pfn)
{
	struct page *p = mm_page(s->mm, pfn);
	int file = page_is_file(p);
	lru_del(&s->mm->fr, pfn);
	p->flags |= PG_active;
	lru_add_head(&s->mm->fr, s->list[lru_of(file, 1)], pfn);
	s->mm->ev[PGACTIVATE]++;
	s->recent_rotated[file]++;
	s->recent_scanned[file]++;
	if (s->activation)
		s->activation(s, pfn);
}

/* mark_page_accessed(): inactive,unreferenced -> inactive,referenced ->
 * active,unreferenced.  The read()/write() path's two-touch promotion. */
void splitlru_mark_accessed(struct splitlru *s, pfn_t pfn)
{
	struct page *p = mm_page(s->mm, pfn);
	if (!(p->flags & (PG_active | PG_unevictable)) && (p->flags & PG_referenced) &&
	    on_inactive_list(s, p)) {
		activate_page(s, pfn);
		p->flags &= ~PG_referenced;
	} else if (!(p->flags & PG_referenced)) {
		p->flags |= PG_referenced;
	}
}

/* end_page_writeback() -> rotate_reclaimable_page(): a page reclaim wrote
 * goes to the tail of its inactive list, to be freed by the next scan. */
void splitlru_end_writeback(struct splitlru *s, pfn_t pfn)
{
	struct page *p = mm_page(s->mm, pfn);
	if (!(p->pol32[0] & SPLITLRU_RECLAIM_WB))
		return;
	p->pol32[0] &= ~SPLITLRU_RECLAIM_WB;
	if ((p->flags & (PG_locked | PG_dirty | PG_active | PG_unevictable)) || !on_inactive_list(s, p))
		return;
	lru_move_tail(&s->mm->fr, mm_page_lru(s->mm, p), pfn);
	s->mm->ev[PGROTATED]++;
}

/* isolate_lru_pages(): up to nr pages from the tail of list l. */
static unsigned isolate(struct splitlru *s, int l, uint64_t nr, pfn_t *batch)
{
	struct frames *fr = &s->mm->fr;
	unsigned n = 0;
	while (n < nr && n < BATCH_MAX) {
		pfn_t pfn = lru_tail(fr, s->list[l]);
		if (pfn == PFN_NONE)
			break;
		lru_del(fr, pfn);
		batch[n++] = pfn;
	}
	mm_work(s->mm, W_ISOLATE_LRU_PAGES, n);
	mm_work(s->mm, W_ISOLATE_BATCHES, 1);
	return n;
}

void splitlru_shrink_active_list(struct splitlru *s, uint64_t nr, struct scan_control *sc, int file)
{
	pfn_t batch[BATCH_MAX];
	struct frames *fr = &s->mm->fr;
	unsigned taken = isolate(s, lru_of(file, 1), nr, batch);
	uint64_t rotated = 0, deactivated = 0;
	(void)sc;
	s->pages_scanned += taken;
	s->recent_scanned[file] += taken;
	for (unsigned i = 0; i < taken; i++) {
		pfn_t pfn = batch[i];
		struct page *p = mm_page(s->mm, pfn);
		if (!page_evictable(p)) {
			cull(s, pfn);
			continue;
		}
		/* page_referenced() clears PG_referenced; unmapped page-cache
		 * pages keep theirs (their accesses while active count). */
		uint32_t vm_flags = 0;
		if (page_mapping_inuse(p) && page_referenced(s, pfn, &vm_flags)) {
			rotated++;
			/* 2.6.31: referenced file pages of a VM_EXEC mapping get
			 * one more trip around the active list, so that program
			 * text survives moderate pressure from streaming IO.
			 * Anon VM_EXEC pages (JIT heaps) are ignored. */
			if (s->cfg.exec_active && (vm_flags & VMA_EXEC) && page_is_file(p)) {
				lru_add_head(fr, s->list[lru_of(file, 1)], pfn);
				continue;
			}
		}
		/* 2.6.28: every other page scanned is deactivated, referenced
		 * or not.  Rotating referenced pages on a list where nearly all
		 * pages are referenced was the scalability problem. */
		p->flags &= ~PG_active;
		if (s->cfg.deactivate_workingset)
			p->flags |= PG_workingset;
		lru_add_head(fr, s->list[lru_of(file, 0)], pfn);
		deactivated++;
	}
	s->recent_rotated[file] += rotated;
	s->mm->ev[PGREFILL] += taken;
	s->mm->ev[PGDEACTIVATE] += deactivated;
	charge_scan(s, taken);
}

enum page_outcome { PAGE_FREED, PAGE_KEEP, PAGE_KEEP_WRITEBACK, PAGE_ACTIVATE, PAGE_CULL };

/* shrink_page_list() for one isolated inactive page. */
static enum page_outcome shrink_page(struct splitlru *s, pfn_t pfn, struct scan_control *sc)
{
	struct page *p = mm_page(s->mm, pfn);
	if (p->flags & PG_locked)
		return PAGE_KEEP;               /* trylock_page() failed */
	if (!page_evictable(p))
		return PAGE_CULL;
	if (!sc->may_swap && p->mapcount > 0)
		return PAGE_KEEP;
	if (p->flags & PG_writeback)
		return PAGE_KEEP;
	uint32_t vm_flags = 0;
	int referenced = page_referenced(s, pfn, &vm_flags);
	/* In active use: activate.  An unmapped page-cache page with only
	 * PG_referenced is not "in use" and gets reclaimed. */
	if (referenced && page_mapping_inuse(p))
		return PAGE_ACTIVATE;
	/* Do not write out pages that are in use. */
	if (referenced && (p->flags & PG_dirty))
		return PAGE_KEEP;
	switch (mm_reclaim_page(s->mm, sc, pfn)) {
	case EVICT_FREED:
		return PAGE_FREED;
	case EVICT_WRITEBACK:
		p->pol32[0] |= SPLITLRU_RECLAIM_WB;
		return PAGE_KEEP_WRITEBACK;
	case EVICT_MLOCKED:
		return PAGE_CULL;               /* try_to_unmap() -> SWAP_MLOCK */
	case EVICT_NOSWAP:
		return PAGE_ACTIVATE;           /* add_to_swap() failed */
	case EVICT_BUSY:
		break;
	}
	return PAGE_KEEP;
}

uint64_t splitlru_shrink_inactive_list(struct splitlru *s, uint64_t max_scan, struct scan_control *sc, int file)
{
	pfn_t batch[BATCH_MAX];
	struct frames *fr = &s->mm->fr;
	uint64_t nr_scanned = 0, nr_reclaimed = 0;
	uint64_t cluster = SWAP_CLUSTER_MAX;
	do {
		/* Isolates a whole SWAP_CLUSTER_MAX even when max_scan is
		 * smaller, as the kernel does. */
		unsigned taken = isolate(s, lru_of(file, 0), cluster, batch);
		if (!taken)
			break;
		s->recent_scanned[file] += taken;
		s->pages_scanned += taken;
		sc->nr_scanned += taken;
		if (file)
			sc->nr_scanned_file += taken;
		nr_scanned += taken;
		uint64_t activated = 0;
		for (unsigned i = 0; i < taken; i++) {
			pfn_t pfn = batch[i];
			enum page_outcome o = shrink_page(s, pfn, sc);
			struct page *p = mm_page(s->mm, pfn);
			switch (o) {
			case PAGE_FREED:
				nr_reclaimed++;
				continue;
			case PAGE_CULL:
				cull(s, pfn);
				continue;
			case PAGE_ACTIVATE:
				p->flags |= PG_active;
				activated++;
				/* Put back active: counted as rotated. */
				lru_add_head(fr, s->list[lru_of(file, 1)], pfn);
				s->recent_rotated[file]++;
				if (s->activation)
					s->activation(s, pfn);
				continue;
			case PAGE_KEEP:
			case PAGE_KEEP_WRITEBACK:
				lru_add_head(fr, s->list[lru_of(file, 0)], pfn);
				continue;
			}
		}
		s->mm->ev[PGACTIVATE] += activated;
		sc->nr_activated += activated;
		/* Between batches: writes that finished meanwhile complete
		 * (rotate_reclaimable_page puts them at the tail). */
		mm_reclaim_io_catch_up(s->mm, NULL, sc);
	} while (nr_scanned < max_scan);
	return nr_reclaimed;
}

static void scan_ratio(struct splitlru *s, unsigned swappiness, unsigned long percent[2])
{
	struct mm *mm = s->mm;
	uint64_t anon = splitlru_size(s, LRU_ACTIVE_ANON) + splitlru_size(s, LRU_INACTIVE_ANON);
	uint64_t file = splitlru_size(s, LRU_ACTIVE_FILE) + splitlru_size(s, LRU_INACTIVE_FILE);
	uint64_t free = mm->stat.nr_free;
	/* No swap space left: do not bother scanning anon pages. */
	if (mm->swap.used >= mm->swap.nr_slots) {
		percent[0] = 0;
		percent[1] = 100;
		return;
	}
	/* Very little page cache: force-scan anon pages. */
	if (file + free <= mm->zones[0].wmark_high) {
		percent[0] = 100;
		percent[1] = 0;
		return;
	}
	/* A floating average over roughly the last quarter of each list. */
	for (int t = 0; t < 2; t++) {
		if (s->recent_scanned[t] > (t ? file : anon) / 4) {
			s->recent_scanned[t] /= 2;
			s->recent_rotated[t] /= 2;
		}
	}
	/* Pressure is inversely proportional to the fraction of scanned
	 * pages found in active use; swappiness weighs anon against the
	 * (cheaper to refetch) file pages. */
	uint64_t anon_prio = swappiness, file_prio = 200 - swappiness;
	uint64_t ap = (anon_prio + 1) * (s->recent_scanned[0] + 1) / (s->recent_rotated[0] + 1);
	uint64_t fp = (file_prio + 1) * (s->recent_scanned[1] + 1) / (s->recent_rotated[1] + 1);
	percent[0] = (unsigned long)(100 * ap / (ap + fp + 1));
	percent[1] = 100 - percent[0];
}

void splitlru_get_scan_ratio(struct splitlru *s, unsigned long percent[2])
{
	scan_ratio(s, s->cfg.swappiness, percent);
}

/* The swappiness of this pass (memcg_swappiness: 3.15 get_scan_count()'s
 * vmscan_swappiness(), the lruvec's own, which a cgroup's swappiness=
 * sets, or 6.9+ sc_swappiness()'s memory.reclaim swappiness=, as linux6
 * takes it), and whether it scans file only: cgroup reclaim with
 * swappiness 0 ("memcg users want to use this knob to disable swapping
 * for individual groups completely"), at every priority. */
unsigned splitlru_pass_swappiness(const struct splitlru *s, const struct scan_control *sc, bool *file_only)
{
	unsigned sw = s->cfg.swappiness;
	*file_only = false;
	if (!s->cfg.memcg_swappiness)
		return sw;
	sw = (unsigned)mm_reclaim_swappiness(s->mm, (int)sw);
	*file_only = sc->cgroup && !sw;
	return sw;
}

/* shrink_list(): the active anon list is only aged while the inactive
 * anon list is too small; the active file list always (2.6.28), or only
 * while it is larger than the inactive one (stream). */
static uint64_t shrink_list(struct splitlru *s, int l, uint64_t nr, struct scan_control *sc)
{
	int file = l >= LRU_INACTIVE_FILE;
	if (l == LRU_ACTIVE_FILE) {
		if (!s->cfg.stream || inactive_file_is_low(s))
			splitlru_shrink_active_list(s, nr, sc, file);
		return 0;
	}
	if (l == LRU_ACTIVE_ANON) {
		if (splitlru_inactive_anon_is_low(s))
			splitlru_shrink_active_list(s, nr, sc, file);
		return 0;
	}
	return splitlru_shrink_inactive_list(s, nr, sc, file);
}

/* shrink_zone(), plus balance_pgdat()'s background anon aging for kswapd. */
void splitlru_shrink(struct splitlru *s, struct scan_control *sc)
{
	const uint64_t cluster = SWAP_CLUSTER_MAX;
	uint64_t nr[NR_EVICTABLE_LRU];
	unsigned long percent[2];
	int prio = sc->priority;
	note_frees(s);
	/* balance_pgdat(): "do some background aging of the anon list, to
	 * give pages a chance to be referenced before reclaiming". */
	if (sc->who == RECLAIM_KSWAPD && splitlru_inactive_anon_is_low(s))
		splitlru_shrink_active_list(s, cluster, sc, 0);
	bool file_only;
	scan_ratio(s, splitlru_pass_swappiness(s, sc, &file_only), percent);
	for (int l = 0; l < NR_EVICTABLE_LRU; l++) {
		int file = l >= LRU_INACTIVE_FILE;
		uint64_t scan = splitlru_size(s, l);
		if (file_only && !file) {   /* SCAN_FILE: anon's size is 0 */
			nr[l] = 0;
			continue;
		}
		if (prio) {
			scan >>= prio;
			scan = scan * percent[file] / 100;
		}
		if (!s->cfg.noforce)
			scan++;  /* -mm: "slowly sift through each list" */
		s->nr_scan[l] += scan;
		nr[l] = s->nr_scan[l];
		if (nr[l] >= cluster)
			s->nr_scan[l] = 0;
		else
			nr[l] = 0;
	}
	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		for (int l = 0; l < NR_EVICTABLE_LRU; l++) {
			if (!nr[l])
				continue;
			uint64_t n = MIN(nr[l], cluster);
			nr[l] -= n;
			shrink_list(s, l, n, sc);
		}
	}
	/* Even if no anon page was evicted, rebalance active/inactive anon. */
	if (splitlru_inactive_anon_is_low(s))
		splitlru_shrink_active_list(s, cluster, sc, 0);
}

bool splitlru_check(struct splitlru *s, FILE *err)
{
	bool ok = true;
	struct frames *fr = &s->mm->fr;
	for (int l = 0; l < NR_EVICTABLE_LRU; l++) {
		int file = l >= LRU_INACTIVE_FILE, active = l & 1;
		for (pfn_t pfn = lru_head(fr, s->list[l]); pfn != PFN_NONE; pfn = lru_next(fr, pfn)) {
			const struct page *p = &fr->pages[pfn];
			if (page_is_file(p) != file || !!(p->flags & PG_active) != active) {
				fprintf(err, "check: pfn %u (flags %#x) on %s\n", pfn, p->flags, lru_names[l]);
				ok = false;
			}
			if (p->flags & PG_unevictable) {
				fprintf(err, "check: unevictable pfn %u on %s\n", pfn, lru_names[l]);
				ok = false;
			}
		}
	}
	return ok;
}

/* ---- the `splitlru` policy ------------------------------------------- */

static const struct tunable splitlru_tunables[] = {
	{ "swappiness", "/proc/sys/vm/swappiness", 60, 0, 100,
	  "anon vs file scan weight in get_scan_ratio()" },
	{ "inactive_ratio", "zone->inactive_ratio (setup_per_zone_inactive_ratio)", 0, 0, 100000,
	  "active:inactive anon target; 0 = int_sqrt(10 x zone GB), at least 1" },
	{ "noforce", "e0f79b8 vmscan: don't accumulate scan pressure on unrelated lists", 1, 0, 1,
	  "1 = 2.6.28 as merged; 0 = 2.6.26-rc8-mm1's nr_scan += scan + 1 (the PERF thread's -mm)" },
	{ "stream", "\"evict streaming IO cache first\" (Jul 2008; 2.6.31 inactive_file_is_low)", 0, 0, 1,
	  "1 = skip ACTIVE_FILE while inactive file >= active file" },
	{ "exec_active", "2.6.31 shrink_active_list VM_EXEC rule (Wu Fengguang)", 0, 0, 1,
	  "1 = referenced mapped executable file pages stay active" },
	{ "anon_inactive", "5.9 lru_cache_add_inactive_or_unevictable (Joonsoo Kim)", 0, 0, 1,
	  "1 = new anonymous pages start on the inactive list" },
	{ 0 },
};

enum { T_SWAPPINESS, T_INACTIVE_RATIO, T_NOFORCE, T_STREAM, T_EXEC_ACTIVE, T_ANON_INACTIVE };

static void *splitlru_init(struct mm *mm, const double *tun)
{
	struct splitlru *s = xcalloc(1, sizeof(*s));
	double v[6];
	for (int i = 0; i < 6; i++)
		v[i] = tun ? tun[i] : splitlru_tunables[i].def;
	struct splitlru_cfg cfg = {
		.swappiness = (unsigned)v[T_SWAPPINESS],
		.inactive_ratio = (unsigned)v[T_INACTIVE_RATIO],
		.noforce = v[T_NOFORCE] != 0,
		.stream = v[T_STREAM] != 0,
		.exec_active = v[T_EXEC_ACTIVE] != 0,
		.anon_inactive = v[T_ANON_INACTIVE] != 0,
	};
	splitlru_setup(s, mm, &cfg);
	return s;
}

static void splitlru_destroy(void *p) { free(p); }
static void pol_add(void *p, pfn_t pfn, enum add_reason why) { splitlru_add(p, pfn, why); }
static void pol_remove(void *p, pfn_t pfn) { splitlru_remove(p, pfn); }
static void pol_mark_accessed(void *p, pfn_t pfn) { splitlru_mark_accessed(p, pfn); }
static void pol_shrink(void *p, struct scan_control *sc) { splitlru_shrink(p, sc); }
static void pol_end_writeback(void *p, pfn_t pfn) { splitlru_end_writeback(p, pfn); }
static bool pol_check(void *p, FILE *err) { return splitlru_check(p, err); }

const struct policy_ops splitlru_policy = {
	.name = "splitlru",
	.summary = "Linux 2.6.28 split LRU: anon/file active+inactive, get_scan_ratio, unevictable list",
	.flags = POLICY_SWAP_TOKEN | POLICY_FAULT_ACCESSED,
	.tunables = splitlru_tunables,
	.init = splitlru_init,
	.destroy = splitlru_destroy,
	.add = pol_add,
	.remove = pol_remove,
	.mark_accessed = pol_mark_accessed,
	.shrink = pol_shrink,
	.end_writeback = pol_end_writeback,
	.check = pol_check,
};
