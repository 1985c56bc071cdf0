/* linux26.c - Linux 2.6.26 page reclaim (mm/vmscan.c, mm/swap.c, mm/rmap.c
 * of 2.6.26): the "mainline" / "2.6.26" baseline of the 2008 threads.
 *
 * One active and one inactive list per zone hold anonymous and page-cache
 * pages together.  New anonymous pages (and swapped-in ones) start active,
 * new page-cache pages inactive; mark_page_accessed() promotes on the second
 * touch.  shrink_zone() scans (list >> priority) + 1 pages of each list, in
 * SWAP_CLUSTER_MAX batches.  shrink_active_list() moves unmapped pages to the
 * inactive list; mapped pages only when reclaim_mapped says so and they are
 * not referenced, otherwise they rotate back onto the active list.
 * reclaim_mapped comes from calc_reclaim_mapped():
 *   swap_tendency = mapped_ratio / 2 + distress + swappiness
 *                   + imbalance (active / inactive, weighted)
 *   distress      = 100 >> min(prev_priority, priority)
 * and is forced on when the zone is near OOM (pages scanned since the last
 * free >= 3 x LRU pages).  shrink_inactive_list() activates referenced
 * pages in use and reclaims the rest; page_referenced() reports an mlocked
 * (VM_LOCKED) mapping as referenced, so mlocked pages stay on the lists and
 * are scanned and rotated again and again - the cost the 2.6.28 unevictable
 * list removed.
 *
 * The swap token (mm/thrash.c, in the core: src/mm/thrash.c) and
 * filemap_fault()'s mark_page_accessed() are on (POLICY_SWAP_TOKEN,
 * POLICY_FAULT_ACCESSED).
 *
 * Simplified: one zone, order-0 reclaim only, no pagevec batching, no slab
 * shrinking, no memcg; prev_priority is tracked inside the
 * policy (lowered when a pass scans at a more urgent priority, set to the
 * priority of the pass that met its target); zone_is_near_oom()'s
 * pages_scanned resets whenever any page is freed; vm_total_pages is the
 * zones' managed pages (the kernel computes it at boot, in
 * build_all_zonelists(), before the watermarks exist, so present_pages);
 * page_mapping_inuse() knows only whether the page itself is mapped or in
 * the swap cache. */
#include "policy.h"
#include "../mm/mm.h"
#include "../lib/util.h"

#include <stdlib.h>

#define RECLAIM_WB 1u  /* page->pol32[0]: writeback started by reclaim */

struct linux26 {
	struct mm *mm;
	int active, inactive;
	uint64_t nr_scan_active, nr_scan_inactive;
	uint64_t pages_scanned, seen_pgfree;
	int prev_priority;
	unsigned swappiness;
	unsigned near_oom;     /* zone_is_near_oom(): pages_scanned >= near_oom x LRU pages */
};

static const struct tunable linux26_tunables[] = {
	{ "swappiness", "/proc/sys/vm/swappiness", 60, 0, 100,
	  "weight of swappiness in swap_tendency (100: always reclaim mapped)" },
	{ "near_oom", "zone_is_near_oom() multiplier of LRU pages", 3, 1, 1000,
	  "reclaim mapped pages unconditionally once this many LRU sizes were scanned without a free" },
	{ 0 },
};

static void *linux26_init(struct mm *mm, const double *tun)
{
	struct linux26 *z = xcalloc(1, sizeof(*z));
	z->mm = mm;
	z->active = lru_register(&mm->fr, "active");
	z->inactive = lru_register(&mm->fr, "inactive");
	lru_set_kind(&mm->fr, z->active, LRU_KIND_ACTIVE);
	z->prev_priority = DEF_PRIORITY;
	z->swappiness = (unsigned)(tun ? tun[0] : linux26_tunables[0].def);
	z->near_oom = (unsigned)(tun ? tun[1] : linux26_tunables[1].def);
	z->seen_pgfree = mm->ev[PGFREE];
	mm_work_keep(mm, WORK_ISOLATE_26_ROWS);
	return z;
}

static void linux26_destroy(void *p) { free(p); }

static void charge_scan(struct linux26 *z, uint64_t n)
{
	if (z->mm->cur)
		z->mm->cur->sys_ns += n * z->mm->cost->scan_ns;
}

static void linux26_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct linux26 *z = p;
	struct page *pg = mm_page(z->mm, pfn);
	bool active;
	pg->pol32[0] = 0;
	switch (why) {
	case ADD_NEW_ANON:
		active = true;          /* lru_cache_add_active() */
		break;
	case ADD_SWAPIN:
	case ADD_REFAULT:
		/* read_swap_cache_async() -> lru_cache_add_active(); then
		 * do_swap_page() -> mark_page_accessed(). */
		active = true;
		pg->flags |= PG_referenced;
		break;
	case ADD_PAGECACHE:
		active = false;         /* add_to_page_cache_lru() */
		break;
	default:
		active = (pg->flags & PG_active) != 0;
		break;
	}
	if (active) {
		pg->flags |= PG_active;
		lru_add_head(&z->mm->fr, z->active, pfn);
	} else {
		pg->flags &= ~PG_active;
		lru_add_head(&z->mm->fr, z->inactive, pfn);
	}
}

static void linux26_remove(void *p, pfn_t pfn)
{
	struct linux26 *z = p;
	lru_del(&z->mm->fr, pfn);
}

/* mark_page_accessed(): second touch of an inactive page activates it. */
static void linux26_mark_accessed(void *p, pfn_t pfn)
{
	struct linux26 *z = p;
	struct page *pg = mm_page(z->mm, pfn);
	if (!(pg->flags & PG_active) && (pg->flags & PG_referenced) && mm_page_lru(z->mm, pg) == z->inactive) {
		lru_move_head(&z->mm->fr, z->active, pfn);
		pg->flags |= PG_active;
		z->mm->ev[PGACTIVATE]++;
		pg->flags &= ~PG_referenced;
	} else if (!(pg->flags & PG_referenced)) {
		pg->flags |= PG_referenced;
	}
}

/* page_referenced(): PG_referenced plus young PTEs; a VM_LOCKED mapping
 * counts as a reference (and its PTE is not even looked at). */
static int page_referenced(struct linux26 *z, pfn_t pfn)
{
	struct page *pg = mm_page(z->mm, pfn);
	int referenced = 0;
	if (pg->flags & PG_referenced) {
		pg->flags &= ~PG_referenced;
		referenced++;
	}
	if (pg->mapcount > 0)
		referenced += (pg->flags & PG_mlocked) ? 1 : mm_page_referenced(z->mm, pfn);
	return referenced;
}

static bool page_mapping_inuse(const struct page *pg)
{
	return pg->mapcount > 0 || (pg->flags & PG_swapcache);
}

static void note_frees(struct linux26 *z)
{
	if (z->mm->ev[PGFREE] != z->seen_pgfree) {
		z->seen_pgfree = z->mm->ev[PGFREE];
		z->pages_scanned = 0;
	}
}

/* calc_reclaim_mapped(): should the active list scan start moving mapped
 * pages to the inactive list? */
static bool calc_reclaim_mapped(struct linux26 *z, int priority)
{
	struct mm *mm = z->mm;
	uint64_t active = lru_count(&mm->fr, z->active), inactive = lru_count(&mm->fr, z->inactive);
	note_frees(z);
	if (z->pages_scanned >= (active + inactive) * z->near_oom)
		return true;
	/* distress: 0 = no trouble reclaiming, 100 = great trouble. */
	int prio = MIN(z->prev_priority, priority);
	long distress = 100 >> prio;
	/* mapped_ratio = (NR_FILE_MAPPED + NR_ANON_PAGES) * 100 /
	 * vm_total_pages: both count pages some process maps (2.6.26
	 * page_add_file_rmap / page_add_anon_rmap on the first map). */
	uint64_t total = 0;
	for (int zi = 0; zi < mm->nr_zones; zi++)
		total += mm->zones[zi].managed;
	if (!total)
		total = 1;
	long mapped_ratio = (long)((mm->stat.nr_file_mapped + mm->stat.nr_anon_mapped) * 100 / total);
	long swap_tendency = mapped_ratio / 2 + distress + (long)z->swappiness;
	/* A huge active:inactive imbalance makes low swappiness values
	 * graceful: it must be larger the lower swappiness is, and matters
	 * only in proportion to how much memory is mapped. */
	long imbalance = (long)(active / (inactive + 1));
	imbalance = imbalance * (long)(z->swappiness + 1) / 100;
	imbalance = imbalance * mapped_ratio / 100;
	swap_tendency += imbalance;
	return swap_tendency >= 100;
}

static unsigned isolate(struct linux26 *z, int list, uint64_t nr, pfn_t *batch)
{
	unsigned n = 0;
	while (n < nr && n < SWAP_CLUSTER_MAX) {
		pfn_t pfn = lru_tail(&z->mm->fr, list);
		if (pfn == PFN_NONE)
			break;
		lru_del(&z->mm->fr, pfn);
		batch[n++] = pfn;
	}
	mm_work(z->mm, W_ISOLATE_LRU_PAGES, n);
	mm_work(z->mm, W_ISOLATE_BATCHES, 1);
	return n;
}

static void shrink_active_list(struct linux26 *z, uint64_t nr, struct scan_control *sc)
{
	struct mm *mm = z->mm;
	pfn_t batch[SWAP_CLUSTER_MAX];
	bool reclaim_mapped = sc->may_swap && calc_reclaim_mapped(z, sc->priority);
	unsigned taken = isolate(z, z->active, nr, batch);
	uint64_t deactivated = 0;
	z->pages_scanned += taken;
	for (unsigned i = 0; i < taken; i++) {
		pfn_t pfn = batch[i];
		struct page *pg = mm_page(mm, pfn);
		if (pg->mapcount > 0) {
			if (!reclaim_mapped || (!mm->swap.nr_slots && (pg->flags & PG_anon)) ||
			    page_referenced(z, pfn)) {
				lru_add_head(&mm->fr, z->active, pfn);
				continue;
			}
		}
		pg->flags &= ~PG_active;
		lru_add_head(&mm->fr, z->inactive, pfn);
		deactivated++;
	}
	mm->ev[PGREFILL] += taken;
	mm->ev[PGDEACTIVATE] += deactivated;
	charge_scan(z, taken);
}

enum outcome { KEEP, ACTIVATE, FREED };

/* shrink_page_list() for one isolated page. */
static enum outcome shrink_page(struct linux26 *z, pfn_t pfn, struct scan_control *sc)
{
	struct page *pg = mm_page(z->mm, pfn);
	if (pg->flags & PG_locked)
		return KEEP;
	if (!sc->may_swap && pg->mapcount > 0)
		return KEEP;
	if (pg->flags & PG_writeback)
		return KEEP;
	int referenced = page_referenced(z, pfn);
	if (referenced && page_mapping_inuse(pg))
		return ACTIVATE;
	if (referenced && (pg->flags & PG_dirty))
		return KEEP;
	switch (mm_reclaim_page(z->mm, sc, pfn)) {
	case EVICT_FREED:
		return FREED;
	case EVICT_WRITEBACK:
		pg->pol32[0] |= RECLAIM_WB;
		return KEEP;
	case EVICT_MLOCKED:     /* try_to_unmap() on a VM_LOCKED vma: SWAP_FAIL */
	case EVICT_NOSWAP:      /* add_to_swap() failed */
		return ACTIVATE;
	case EVICT_BUSY:
		break;
	}
	return KEEP;
}

static void shrink_inactive_list(struct linux26 *z, uint64_t max_scan, struct scan_control *sc)
{
	struct mm *mm = z->mm;
	pfn_t batch[SWAP_CLUSTER_MAX];
	uint64_t nr_scanned = 0;
	do {
		unsigned taken = isolate(z, z->inactive, SWAP_CLUSTER_MAX, batch);
		if (!taken)
			break;
		z->pages_scanned += taken;
		for (unsigned i = 0; i < taken; i++)
			sc_scanned(sc, mm_page(mm, batch[i]), 1);
		nr_scanned += taken;
		for (unsigned i = 0; i < taken; i++) {
			pfn_t pfn = batch[i];
			switch (shrink_page(z, pfn, sc)) {
			case FREED:
				break;
			case ACTIVATE:
				mm_page(mm, pfn)->flags |= PG_active;
				lru_add_head(&mm->fr, z->active, pfn);
				mm->ev[PGACTIVATE]++;
				sc->nr_activated++;
				break;
			case KEEP:
				lru_add_head(&mm->fr, z->inactive, pfn);
				break;
			}
		}
		/* Between batches: writes that finished meanwhile complete. */
		mm_reclaim_io_catch_up(mm, NULL, sc);
	} while (nr_scanned < max_scan);
}

/* shrink_zone(). */
static void linux26_shrink(void *p, struct scan_control *sc)
{
	struct linux26 *z = p;
	struct frames *fr = &z->mm->fr;
	int prio = sc->priority;
	/* note_zone_scanning_priority() */
	if (prio < z->prev_priority)
		z->prev_priority = prio;
	/* "+1 to make sure the kernel will slowly sift through the active list" */
	z->nr_scan_active += (lru_count(fr, z->active) >> prio) + 1;
	uint64_t nr_active = z->nr_scan_active;
	z->nr_scan_inactive += (lru_count(fr, z->inactive) >> prio) + 1;
	uint64_t nr_inactive = z->nr_scan_inactive;
	if (nr_inactive >= SWAP_CLUSTER_MAX)
		z->nr_scan_inactive = 0;
	else
		nr_inactive = 0;
	if (nr_active >= SWAP_CLUSTER_MAX)
		z->nr_scan_active = 0;
	else
		nr_active = 0;
	while (nr_active || nr_inactive) {
		if (nr_active) {
			uint64_t n = MIN(nr_active, (uint64_t)SWAP_CLUSTER_MAX);
			nr_active -= n;
			shrink_active_list(z, n, sc);
		}
		if (nr_inactive) {
			uint64_t n = MIN(nr_inactive, (uint64_t)SWAP_CLUSTER_MAX);
			nr_inactive -= n;
			shrink_inactive_list(z, n, sc);
		}
	}
	/* do_try_to_free_pages() / balance_pgdat() record the priority at
	 * which the zone was brought back into shape. */
	if (sc->nr_reclaimed >= sc->nr_to_reclaim)
		z->prev_priority = prio;
}

/* rotate_reclaimable_page(). */
static void linux26_end_writeback(void *p, pfn_t pfn)
{
	struct linux26 *z = p;
	struct page *pg = mm_page(z->mm, pfn);
	if (!(pg->pol32[0] & RECLAIM_WB))
		return;
	pg->pol32[0] &= ~RECLAIM_WB;
	if ((pg->flags & (PG_locked | PG_dirty | PG_active)) || mm_page_lru(z->mm, pg) != z->inactive)
		return;
	lru_move_tail(&z->mm->fr, z->inactive, pfn);
	z->mm->ev[PGROTATED]++;
}

static bool linux26_check(void *p, FILE *err)
{
	struct linux26 *z = p;
	struct frames *fr = &z->mm->fr;
	bool ok = true;
	for (int a = 0; a < 2; a++) {
		int list = a ? z->active : z->inactive;
		for (pfn_t pfn = lru_head(fr, list); pfn != PFN_NONE; pfn = lru_next(fr, pfn)) {
			if (!!(fr->pages[pfn].flags & PG_active) != a) {
				fprintf(err, "check: pfn %u PG_active disagrees with list %s\n", pfn, fr->lists[list].name);
				ok = false;
			}
		}
	}
	return ok;
}

const struct policy_ops linux26_policy = {
	.name = "linux26",
	.summary = "Linux 2.6.26: one active/inactive pair, reclaim_mapped from swap_tendency",
	.flags = POLICY_SWAP_TOKEN | POLICY_FAULT_ACCESSED,
	.tunables = linux26_tunables,
	.init = linux26_init,
	.destroy = linux26_destroy,
	.add = linux26_add,
	.remove = linux26_remove,
	.mark_accessed = linux26_mark_accessed,
	.shrink = linux26_shrink,
	.end_writeback = linux26_end_writeback,
	.check = linux26_check,
};
