/* linux6.c - Linux 6.x page reclaim with the classic LRU (CONFIG_LRU_GEN
 * off or disabled): mm/vmscan.c shrink_lruvec, shrink_list,
 * shrink_active_list, shrink_inactive_list, shrink_folio_list and
 * folio_check_references; mm/swap.c folio_add_lru, folio_mark_accessed,
 * folio_rotate_reclaimable, as of v6.6-v6.18.  The anon/file balance and
 * the workingset are in linux6_balance.c; VMA-based swap readahead is the
 * mm core's (vm.swap_vma_ra, src/mm/aspace.c), turned on here.
 *
 * A new design, not `workingset` rebuilt: `workingset` stays 2.6.28's engine
 * with refault distances, the design the 2008-2014 threads argued about,
 * and `splitlru` stays 2.6.28 as merged (docs/newvm.md).
 *
 * The rules that differ from 2.6.28, each a --set tunable:
 *  - two_touch: folio_check_references() activates a mapped page only on
 *    its second look: one young PTE sets PG_referenced and keeps the page
 *    on the inactive list ("all mapped folios start out with page table
 *    references from the instantiating fault, so we need to look twice");
 *    young again (or young in two page tables) activates it.  Executable
 *    file pages activate on their first reference (2.6.34 file, 5.9 anon).
 *  - swapin_referenced=0: swap-in does not mark the page accessed.
 *  - shrink_active_list() keeps PG_referenced, gives referenced VM_EXEC
 *    file pages another trip, and deactivates the rest with PG_workingset.
 *  - the nr_to_reclaim bail-out of shrink_lruvec(): once the pass has what
 *    it was asked for, stop (kswapd and, below DEF_PRIORITY, direct
 *    reclaim first nudge the other type's scan to proportionality).
 *    bailout_writeback=1 counts the pages the pass put under writeback
 *    towards it (see below); 0 counts freed pages only, as the kernel does.
 *  - pages under writeback found again are activated (shrink_folio_list
 *    case 2), and writeback of a page reclaim wrote ends with
 *    folio_rotate_reclaimable(): to the inactive tail, PGROTATED.
 *  - a batch whose every folio is dirty and not under writeback wakes the
 *    flushers (shrink_inactive_list, wakeup_flusher_threads(WB_REASON_
 *    VMSCAN)), which then write every dirty page (writeback.c); cgroup
 *    v1 limit reclaim then sleeps (reclaim_throttle) as for case 3.
 *  - dirty file pages are written by kswapd only, and only on a second
 *    look (PG_reclaim already set); direct and limit reclaim mark and
 *    activate them (nr_vmscan_immediate_reclaim).  As in 6.18's
 *    shrink_folio_list(), the folio is unmapped before that test, so a
 *    page dirtied through a shared mapping is dirty by then.
 *  - the inactive:active target of both types is inactive_is_low()'s
 *    int_sqrt(10 x GB of the type's pages).
 *  - shrink_lruvec() plugs its loop (blk_start_plug()): the pass's
 *    writes reach the disk when it ends or the plug fills (src/mm/plug.c),
 *    so a page it wrote is freed by a later pass, never by its own.
 *
 * bailout_writeback: the kernel counts only freed folios in nr_reclaimed.
 * Its writes to a fast swap device complete within the pass and the
 * rotated folios are freed by the next isolations, so its passes end
 * after about nr_to_reclaim pages of I/O (pswpout ~ pgsteal).  pagelab's
 * disks complete I/O only at batch boundaries (mm_reclaim_io_catch_up),
 * and a slow simulated disk not even then; counting the pages put under
 * writeback, which the core frees as soon as their write ends, gives the
 * same bound without depending on the disk.  With 0 the literal rule runs.
 *
 * Under --memcg the lists are the cgroup's (all workloads are in it) and
 * limit reclaim is cgroup_reclaim(): no proportional pass at DEF_PRIORITY,
 * no file_is_tiny, swappiness 0 means no anon scan at all.
 *
 * Simplified: one node and zone, one memcg at most, no
 * large folios, no lumpy/compaction, no reclaim_throttle() (the core's
 * congestion_wait stands in), no PGDAT_DIRTY/PGDAT_WRITEBACK node flags
 * (kswapd writes a dirty file page it has seen before), no slab, no
 * demotion, kswapd's nr_to_reclaim is the core's SWAP_CLUSTER_MAX per
 * pass, refaults are snapshotted when a pass reaches its target or
 * priority 0 (the kernel: when do_try_to_free_pages/balance_pgdat end). */
#include "../policy.h"
#include "linux6.h"
#include "../../mm/filemap.h"
#include "../../lib/util.h"

#include <stdlib.h>

static const char *const lru_names[L6_NR_LRU] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file",
};

static inline int folio_is_file_lru(const struct page *p) { return !(p->flags & PG_anon); }
static inline int lru_of(int file, int active) { return 2 * file + active; }
static bool folio_evictable(const struct page *p) { return !(p->flags & PG_mlocked); }

static bool on_inactive_list(const struct linux6 *l, const struct page *p)
{
	return mm_page_lru(l->mm, p) == l->list[L6_INACTIVE_ANON] || mm_page_lru(l->mm, p) == l->list[L6_INACTIVE_FILE];
}

static bool on_my_lists(const struct linux6 *l, const struct page *p)
{
	for (int i = 0; i < L6_NR_LRU; i++)
		if (mm_page_lru(l->mm, p) == l->list[i])
			return true;
	return false;
}

/* Scans of the active lists are not counted in sc->nr_scanned, but cost
 * the reclaimer CPU all the same. */
static void charge_scan(struct linux6 *l, uint64_t n)
{
	if (l->mm->cur)
		l->mm->cur->sys_ns += n * l->mm->cost->scan_ns;
}

static void cull(struct linux6 *l, pfn_t pfn)
{
	mm_page(l->mm, pfn)->flags &= ~PG_active;
	mm_cull_unevictable(l->mm, pfn);
}

/* move_folios_to_lru() for one folio: back on the list PG_active says; an
 * active one ages the nonresident clock (5.9, workingset_age_nonresident). */
static void putback(struct linux6 *l, pfn_t pfn, bool tail)
{
	struct page *p = mm_page(l->mm, pfn);
	int lru = lru_of(folio_is_file_lru(p), !!(p->flags & PG_active));
	if (tail)
		lru_add_tail(&l->mm->fr, l->list[lru], pfn);
	else
		lru_add_head(&l->mm->fr, l->list[lru], pfn);
	if (p->flags & PG_active)
		l->nonresident_age++;
}

/* folio_add_lru() / folio_add_lru_vma(): every new folio starts inactive
 * (anon since 5.9), unless workingset_refault() activated it. */
static void l6_add(void *priv, pfn_t pfn, enum add_reason why)
{
	struct linux6 *l = priv;
	struct page *p = mm_page(l->mm, pfn);
	p->pol32[0] = 0;
	if (!folio_evictable(p)) {
		cull(l, pfn);
		return;
	}
	switch (why) {
	case ADD_NEW_ANON:
	case ADD_PAGECACHE:
		p->flags &= ~PG_active;
		break;
	case ADD_SWAPIN:
	case ADD_REFAULT:
		/* 2.6.28's do_swap_page() called mark_page_accessed(); 6.x
		 * does not, so a swapped-in page needs two fresh references
		 * to be activated like any other. */
		if (l->t[L6_T_SWAPIN_REFERENCED] != 0 && !folio_is_file_lru(p))
			p->flags |= PG_referenced;
		break;
	default:
		break; /* putback_lru_page(): where PG_active says */
	}
	lru_add_head(&l->mm->fr, l->list[lru_of(folio_is_file_lru(p), !!(p->flags & PG_active))], pfn);
}

static void l6_remove(void *priv, pfn_t pfn)
{
	struct linux6 *l = priv;
	lru_del(&l->mm->fr, pfn);
}

/* folio_mark_accessed(): inactive,unreferenced -> inactive,referenced ->
 * active,unreferenced (folio_activate, PGACTIVATE, workingset_activation). */
static void l6_mark_accessed(void *priv, pfn_t pfn)
{
	struct linux6 *l = priv;
	struct page *p = mm_page(l->mm, pfn);
	if (!(p->flags & PG_referenced)) {
		p->flags |= PG_referenced;
		return;
	}
	if ((p->flags & (PG_unevictable | PG_active)) || !on_inactive_list(l, p))
		return;
	lru_del(&l->mm->fr, pfn);
	p->flags |= PG_active;
	p->flags &= ~PG_referenced;
	lru_add_head(&l->mm->fr, l->list[lru_of(folio_is_file_lru(p), 1)], pfn);
	l->mm->ev[PGACTIVATE]++;
	l->nonresident_age++;
}

/* folio_end_writeback() -> folio_rotate_reclaimable() -> lru_move_tail():
 * a folio reclaim wrote goes to the tail of its inactive list (from the
 * active list too: it was activated when found still under writeback), to
 * be freed by the next isolation. */
static void l6_end_writeback(void *priv, pfn_t pfn)
{
	struct linux6 *l = priv;
	struct page *p = mm_page(l->mm, pfn);
	if (!(p->pol32[0] & L6_RECLAIM))
		return;
	p->pol32[0] &= ~L6_RECLAIM;
	if ((p->flags & (PG_locked | PG_dirty | PG_unevictable)) || !on_my_lists(l, p))
		return;
	lru_del(&l->mm->fr, pfn);
	p->flags &= ~PG_active;
	lru_add_tail(&l->mm->fr, l->list[lru_of(folio_is_file_lru(p), 0)], pfn);
	l->mm->ev[PGROTATED]++;
}

/* inactive_is_low(): the inactive list of a type should hold 1/(ratio+1)
 * of its pages, ratio = int_sqrt(10 x GB of that type), at least 1. */
bool l6_inactive_is_low(const struct linux6 *l, int file)
{
	uint64_t inactive = l6_stat_lru(l, lru_of(file, 0)), active = l6_stat_lru(l, lru_of(file, 1));
	uint64_t ratio = (uint64_t)l->t[L6_T_INACTIVE_RATIO];
	if (!ratio) {
		uint64_t gb = (inactive + active) >> (30 - PAGE_SHIFT);
		ratio = gb ? isqrt64(10 * gb) : 1;
	}
	return inactive * ratio < active;
}

/* A large page-cache folio (vm.pagecache_folio_order: 6.x readahead on a
 * large-folio filesystem) is one LRU entry in the kernel; here each of its
 * pages is a frame of its own, put on the list in index order.  The pages
 * of the same folio that follow the one just taken off the tail go with
 * it: the same file, the same order, the same naturally aligned block. */
/* A batch: SWAP_CLUSTER_MAX pages, and the rest of a large folio. */
#define L6_BATCH (SWAP_CLUSTER_MAX + (1u << PAGECACHE_FOLIO_ORDER_MAX))

static unsigned isolate_rest_of_folio(struct linux6 *l, int lru, pfn_t first, pfn_t *batch)
{
	const struct page *f = mm_page(l->mm, first);
	if (!f->folio_order || !(f->flags & PG_file))
		return 0;
	uint64_t base = f->index >> f->folio_order;
	unsigned n = 0, max = (1u << f->folio_order) - 1;
	while (n < max) {
		pfn_t pfn = lru_tail(&l->mm->fr, l->list[lru]);
		if (pfn == PFN_NONE)
			break;
		const struct page *p = mm_page(l->mm, pfn);
		if (!(p->flags & PG_file) || p->owner != f->owner || p->folio_order != f->folio_order ||
		    p->index >> f->folio_order != base)
			break;
		lru_del(&l->mm->fr, pfn);
		batch[n++] = pfn;
	}
	return n;
}

/* isolate_lru_folios(): folios from the tail until nr pages are taken
 * (at most SWAP_CLUSTER_MAX at a time); a large folio counts all its
 * pages, so the last one may take the batch past nr. */
static unsigned isolate(struct linux6 *l, int lru, uint64_t nr, pfn_t *batch)
{
	unsigned n = 0;
	while (n < nr && n < SWAP_CLUSTER_MAX) {
		pfn_t pfn = lru_tail(&l->mm->fr, l->list[lru]);
		if (pfn == PFN_NONE)
			break;
		lru_del(&l->mm->fr, pfn);
		batch[n++] = pfn;
		n += isolate_rest_of_folio(l, lru, pfn, batch + n);
	}
	return n;
}

/* folio_referenced(): young PTEs through rmap (test-and-clear); *vm_flags
 * gets the flags of the VMAs that had them.  Unmapped folios have none. */
static int folio_referenced(struct linux6 *l, pfn_t pfn, uint32_t *vm_flags)
{
	const struct page *p = mm_page(l->mm, pfn);
	if (p->mapcount <= 0)
		return 0;
	return mm_page_referenced_vmflags(l->mm, pfn, vm_flags);
}

void l6_shrink_active_list(struct linux6 *l, uint64_t nr, struct scan_control *sc, int file)
{
	pfn_t batch[L6_BATCH];
	uint64_t taken_total = 0, rotated = 0, deactivated = 0;
	(void)sc;
	while (taken_total < nr) {
		unsigned taken = isolate(l, lru_of(file, 1), nr - taken_total, batch);
		if (!taken)
			break;
		taken_total += taken;
		for (unsigned i = 0; i < taken; i++) {
			pfn_t pfn = batch[i];
			struct page *p = mm_page(l->mm, pfn);
			if (!folio_evictable(p)) {
				cull(l, pfn);
				continue;
			}
			uint32_t vm_flags = 0;
			/* Referenced executable file folios get one more trip
			 * around the active list, so program text survives
			 * streaming I/O; anon VM_EXEC (JIT heaps) does not. */
			if (folio_referenced(l, pfn, &vm_flags) && (vm_flags & VMA_EXEC) && folio_is_file_lru(p)) {
				rotated++;
				putback(l, pfn, false);
				continue;
			}
			/* Deactivated, PG_referenced kept: a folio used again
			 * soon is recovered at its first inactive look. */
			p->flags &= ~PG_active;
			p->flags |= PG_workingset;
			putback(l, pfn, false);
			deactivated++;
		}
	}
	l->mm->ev[PGREFILL] += taken_total;
	l->mm->ev[PGDEACTIVATE] += deactivated;
	/* One lru_lock hold to isolate, one to put back (taken even when
	 * nothing was isolated); culled folios go back outside it. */
	mm_work(l->mm, W_ISOLATE_LRU_FOLIOS, taken_total);
	mm_work(l->mm, W_ISOLATE_BATCHES, 1);
	mm_work(l->mm, W_PUTBACK_BATCHES, 1);
	mm_work(l->mm, W_MOVE_FOLIOS_TO_LRU, rotated + deactivated);
	mm_work(l->mm, W_LRU_LOCK, 2);
	if (rotated)
		l6_lru_note_cost(l, file, 0, rotated);
	charge_scan(l, taken_total);
}

enum folio_references { FOLIOREF_RECLAIM, FOLIOREF_RECLAIM_CLEAN, FOLIOREF_KEEP, FOLIOREF_ACTIVATE };

/* folio_check_references(). */
static enum folio_references folio_check_references(struct linux6 *l, pfn_t pfn)
{
	struct page *p = mm_page(l->mm, pfn);
	uint32_t vm_flags = 0;
	int referenced_ptes = folio_referenced(l, pfn, &vm_flags);
	bool referenced_folio = (p->flags & PG_referenced) != 0;
	p->flags &= ~PG_referenced;
	if (referenced_ptes) {
		/* two_touch=0: 2.6.28's rule, any young PTE activates. */
		if (l->t[L6_T_TWO_TOUCH] == 0)
			return FOLIOREF_ACTIVATE;
		/* Mark it and spare it for another trip around the inactive
		 * list; another page-table reference activates it.  The mark
		 * is set on activated folios too, so that recently deactivated
		 * but used folios are recovered quickly. */
		p->flags |= PG_referenced;
		if (referenced_folio || referenced_ptes > 1)
			return FOLIOREF_ACTIVATE;
		if ((vm_flags & VMA_EXEC) && folio_is_file_lru(p))
			return FOLIOREF_ACTIVATE;
		return FOLIOREF_KEEP;
	}
	/* Reclaim if clean, defer dirty folios to writeback. */
	if (referenced_folio && folio_is_file_lru(p))
		return FOLIOREF_RECLAIM_CLEAN;
	return FOLIOREF_RECLAIM;
}

enum outcome { O_FREED, O_KEEP, O_PAGEOUT, O_ACTIVATE, O_CULL };

/* shrink_folio_list() for one isolated folio. */
static enum outcome shrink_folio(struct linux6 *l, pfn_t pfn, struct scan_control *sc)
{
	struct page *p = mm_page(l->mm, pfn);
	if (p->flags & PG_locked)
		return O_KEEP;              /* folio_trylock() failed */
	if (!folio_evictable(p))
		return O_CULL;
	if (!sc->may_swap && p->mapcount > 0)
		return O_KEEP;              /* !sc->may_unmap */
	if (p->flags & PG_writeback) {
		/* Case 3: cgroup v1 cannot throttle reclaim on the cgroup's
		 * dirty pages (!writeback_throttling_sane()), so a folio
		 * already marked for immediate reclaim and met again still
		 * under writeback is waited on (folio_wait_writeback) and
		 * retried.  Reported to the core: the batch is finished,
		 * then the pass ends and the task sleeps until a write
		 * completes; the folio stays inactive and its completion
		 * rotates it to the tail, where the next pass frees it. */
		if (sc->cgroup && l->mm->memcg.v1 && (p->pol32[0] & L6_RECLAIM) &&
		    l->t[L6_T_WAIT_WRITEBACK] != 0) {
			sc->nr_wait_writeback++;
			return O_KEEP;
		}
		/* Case 2: still under writeback; mark it for immediate
		 * reclaim and activate it, so the scanner does not keep
		 * running into it (the core's congestion_wait stands in for
		 * reclaim_throttle). */
		p->pol32[0] |= L6_RECLAIM;
		return O_ACTIVATE;
	}
	enum folio_references ref = folio_check_references(l, pfn);
	if (ref == FOLIOREF_ACTIVATE)
		return O_ACTIVATE;
	if (ref == FOLIOREF_KEEP)
		return O_KEEP;
	/* try_to_unmap() comes before the dirty test: a write through a
	 * shared mapping (a dirty PTE) makes the folio dirty here. */
	mm_try_to_unmap_file(l->mm, pfn);
	if ((p->flags & PG_file) && (p->flags & PG_dirty)) {
		/* Only kswapd writes file folios, and only dirty ones it
		 * has seen before: otherwise mark it to be reclaimed as soon
		 * as the flusher has written it, and activate it
		 * (NR_VMSCAN_IMMEDIATE). */
		if (sc->who != RECLAIM_KSWAPD || !(p->pol32[0] & L6_RECLAIM)) {
			p->pol32[0] |= L6_RECLAIM;
			l->mm->ev[NR_VMSCAN_IMMEDIATE]++;
			return O_ACTIVATE;
		}
		if (ref == FOLIOREF_RECLAIM_CLEAN)
			return O_KEEP;
	}
	switch (mm_reclaim_page(l->mm, sc, pfn)) {
	case EVICT_FREED:
		return O_FREED;
	case EVICT_WRITEBACK:
		p->pol32[0] |= L6_RECLAIM;
		return O_PAGEOUT;
	case EVICT_MLOCKED:
		return O_CULL;
	case EVICT_NOSWAP:
		return O_ACTIVATE;          /* add_to_swap() failed: activate_locked */
	case EVICT_BUSY:
		break;
	}
	return O_KEEP;
}

/* shrink_inactive_list(): one batch of up to nr folios from the tail. */
uint64_t l6_shrink_inactive_list(struct linux6 *l, uint64_t nr, struct scan_control *sc, int file,
				 uint64_t *nr_pageout)
{
	pfn_t batch[L6_BATCH];
	unsigned taken = isolate(l, lru_of(file, 0), nr, batch);
	uint64_t reclaimed = 0, pageout = 0, activated = 0, unqueued_dirty = 0, culled = 0;
	mm_work(l->mm, W_ISOLATE_LRU_FOLIOS, taken);
	mm_work(l->mm, W_ISOLATE_BATCHES, 1);
	mm_work(l->mm, W_LRU_LOCK, 1);
	sc->nr_scanned += taken;
	if (file)
		sc->nr_scanned_file += taken;
	for (unsigned i = 0; i < taken; i++) {
		pfn_t pfn = batch[i];
		struct page *p = mm_page(l->mm, pfn);
		/* folio_check_dirty_writeback(): file folios only. */
		if ((p->flags & (PG_file | PG_dirty | PG_writeback)) == (PG_file | PG_dirty))
			unqueued_dirty++;
		switch (shrink_folio(l, pfn, sc)) {
		case O_FREED:
			reclaimed++;
			continue;
		case O_CULL:
			cull(l, pfn);
			culled++;
			continue;
		case O_ACTIVATE:
			p->flags |= PG_active;
			activated++;
			break;
		case O_PAGEOUT:
			pageout++;
			break;
		case O_KEEP:
			break;
		}
		putback(l, pfn, false);
	}
	l->mm->ev[PGACTIVATE] += activated;
	sc->nr_activated += activated;
	/* Every folio taken dirty and not queued for I/O: the flushers are
	 * not doing their job, nudge them (WB_REASON_VMSCAN). */
	if (taken && unqueued_dirty == taken) {
		mm_wakeup_flusher_threads(l->mm);
		/* cgroup v1 (!writeback_throttling_sane()): reclaim_throttle(
		 * VMSCAN_THROTTLE_WRITEBACK), the reclaimer sleeps until
		 * writes complete or HZ/10 passes, so that the flusher it
		 * woke can start: reported as a wait, like case 3. */
		if (sc->cgroup && l->mm->memcg.v1)
			sc->nr_wait_writeback++;
	}
	/* move_folios_to_lru() under one more hold, which it drops and
	 * takes again around each unevictable folio's folio_putback_lru(). */
	if (taken) {
		mm_work(l->mm, W_PUTBACK_BATCHES, 1);
		mm_work(l->mm, W_LRU_LOCK, 1 + culled);
		mm_work(l->mm, W_MOVE_FOLIOS_TO_LRU, taken - reclaimed - culled);
	}
	/* Reclaim I/O weighs SWAP_CLUSTER_MAX rotations (cost_io). */
	l6_lru_note_cost(l, file, pageout, taken - reclaimed);
	if (nr_pageout)
		*nr_pageout += pageout;
	/* Writes that finished meanwhile complete, and rotate to the tail. */
	mm_reclaim_io_catch_up(l->mm, NULL, sc);
	return reclaimed;
}

/* shrink_list(): an active list is aged only when prepare_scan_control()
 * said that type may be deactivated; when it is skipped, the reclaimer
 * hears of it (sc->skipped_deactivate), for the retry that forces it. */
static uint64_t shrink_list(struct linux6 *l, int lru, uint64_t nr, struct scan_control *sc, uint64_t *pageout)
{
	int file = lru >= L6_INACTIVE_FILE;
	if (lru & 1) {
		if (l->may_deactivate & (file ? L6_DEACTIVATE_FILE : L6_DEACTIVATE_ANON))
			l6_shrink_active_list(l, nr, sc, file);
		else
			sc->skipped_deactivate = true;
		return 0;
	}
	return l6_shrink_inactive_list(l, nr, sc, file, pageout);
}

/* shrink_lruvec(), plus kswapd's kswapd_age_node() first. */
void l6_shrink_lruvec(struct linux6 *l, struct scan_control *sc)
{
	uint64_t nr[L6_NR_LRU], targets[L6_NR_LRU];
	uint64_t nr_reclaimed = 0, nr_pageout = 0;
	uint64_t nr_to_reclaim = sc->nr_to_reclaim;
	const struct mm_ctx *cur = l->mm->cur;
	if (cur)
		l6_stats_flush_due(l, cur->t0 + cur->user_ns + cur->sys_ns);
	l6_prepare_scan_control(l, sc);
	if (sc->who == RECLAIM_KSWAPD && l6_swap_available(l) && l6_inactive_is_low(l, 0))
		l6_shrink_active_list(l, SWAP_CLUSTER_MAX, sc, 0);
	l6_get_scan_count(l, sc, nr);
	for (int i = 0; i < L6_NR_LRU; i++)
		targets[i] = nr[i];
	/* Direct reclaim at DEF_PRIORITY does a batch of work at once: kswapd
	 * is not keeping up (no bail-out then). */
	bool proportional_reclaim = !sc->cgroup && sc->who != RECLAIM_KSWAPD && sc->priority == DEF_PRIORITY;
	bool count_wb = l->t[L6_T_BAILOUT_WRITEBACK] != 0;
	/* blk_start_plug(): the pass's writes reach the disk at its end. */
	bool plugged = mm_blk_start_plug(l->mm);
	while ((nr[L6_INACTIVE_ANON] || nr[L6_ACTIVE_FILE] || nr[L6_INACTIVE_FILE]) && !sc->nr_wait_writeback) {
		for (int lru = 0; lru < L6_NR_LRU && !sc->nr_wait_writeback; lru++) {
			if (!nr[lru])
				continue;
			uint64_t n = MIN(nr[lru], (uint64_t)SWAP_CLUSTER_MAX);
			nr[lru] -= n;
			nr_reclaimed += shrink_list(l, lru, n, sc, &nr_pageout);
		}
		uint64_t progress = nr_reclaimed + (count_wb ? nr_pageout : 0);
		if (progress < nr_to_reclaim || proportional_reclaim || l->t[L6_T_BAILOUT] == 0)
			continue;
		/* Reclaim what was asked, then scan the two types in the
		 * proportion get_scan_count() wanted: stop the smaller, cut
		 * the larger to the share of the smaller that was left. */
		uint64_t nr_file = nr[L6_INACTIVE_FILE] + nr[L6_ACTIVE_FILE];
		uint64_t nr_anon = nr[L6_INACTIVE_ANON] + nr[L6_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		int lru;
		uint64_t percentage;
		if (nr_file > nr_anon) {
			uint64_t scan_target = targets[L6_INACTIVE_ANON] + targets[L6_ACTIVE_ANON] + 1;
			lru = L6_INACTIVE_ANON;
			percentage = nr_anon * 100 / scan_target;
		} else {
			uint64_t scan_target = targets[L6_INACTIVE_FILE] + targets[L6_ACTIVE_FILE] + 1;
			lru = L6_INACTIVE_FILE;
			percentage = nr_file * 100 / scan_target;
		}
		nr[lru] = 0;
		nr[lru + 1] = 0;
		lru = lru == L6_INACTIVE_FILE ? L6_INACTIVE_ANON : L6_INACTIVE_FILE;
		for (int k = 0; k < 2; k++, lru++) {
			uint64_t scanned = targets[lru] - nr[lru];
			nr[lru] = targets[lru] * (100 - percentage) / 100;
			nr[lru] -= MIN(nr[lru], scanned);
		}
	}
	if (plugged)
		mm_blk_finish_plug(l->mm, l->mm->cur);
	/* Even if no anon folio was evicted, rebalance active/inactive anon. */
	if (l6_swap_available(l) && l6_inactive_is_low(l, 0))
		l6_shrink_active_list(l, SWAP_CLUSTER_MAX, sc, 0);
	if (sc->nr_reclaimed >= nr_to_reclaim || sc->priority == 0)
		l6_snapshot_refaults(l);
}

static bool l6_check(void *priv, FILE *err)
{
	struct linux6 *l = priv;
	struct frames *fr = &l->mm->fr;
	bool ok = true;
	for (int lru = 0; lru < L6_NR_LRU; lru++) {
		int file = lru >= L6_INACTIVE_FILE, active = lru & 1;
		for (pfn_t pfn = lru_head(fr, l->list[lru]); pfn != PFN_NONE; pfn = lru_next(fr, pfn)) {
			const struct page *p = &fr->pages[pfn];
			if (folio_is_file_lru(p) != file || !!(p->flags & PG_active) != active ||
			    (p->flags & PG_unevictable)) {
				fprintf(err, "check: linux6: pfn %u (flags %#x) on %s\n", pfn, p->flags, lru_names[lru]);
				ok = false;
			}
		}
	}
	return ok;
}

/* ---- the policy -------------------------------------------------------- */

static const struct tunable linux6_tunables[] = {
	[L6_T_SWAPPINESS] = { "swappiness", "/proc/sys/vm/swappiness (MAX_SWAPPINESS 200, 5.8+)", 60, 0, 200,
	  "anon vs file IO cost in get_scan_count(): 100 = equal, 200 = file pages are the costly ones" },
	[L6_T_TWO_TOUCH] = { "two_touch", "folio_check_references (2.6.34 mapped file, 5.9 anon)", 1, 0, 1,
	  "1 = one young PTE sets PG_referenced and keeps the folio, a second activates; 0 = 2.6.28's first-touch activation" },
	[L6_T_SWAPIN_REFERENCED] = { "swapin_referenced", "do_swap_page mark_page_accessed (2.6.28; gone in 6.x)", 0, 0, 1,
	  "1 = a swapped-in page starts with PG_referenced" },
	[L6_T_CACHE_TRIM] = { "cache_trim", "prepare_scan_control cache_trim_mode (5.9; !no_cache_trim_mode)", 1, 0, 1,
	  "1 = plenty of inactive file that is not refaulting: reclaim file only" },
	[L6_T_FILE_IS_TINY] = { "file_is_tiny", "prepare_scan_control file_is_tiny (5.9)", 1, 0, 1,
	  "1 = file + free below the high watermarks (and anon not being deactivated): reclaim anon only" },
	[L6_T_COST_IO] = { "cost_io", "lru_note_cost: cost = nr_io * SWAP_CLUSTER_MAX + nr_rotated (6.3)", 32, 0, 4096,
	  "rotations one page of reclaim I/O or one workingset refault weighs in anon_cost/file_cost" },
	[L6_T_BAILOUT_WRITEBACK] = { "bailout_writeback", "shrink_lruvec nr_reclaimed >= nr_to_reclaim (pagelab: + pageouts)", 1, 0, 1,
	  "1 = pages put under writeback count towards the bail-out; 0 = freed pages only (the kernel's literal rule)" },
	[L6_T_INACTIVE_RATIO] = { "inactive_ratio", "inactive_is_low (4.10+: per type, int_sqrt(10 x GB))", 0, 0, 100000,
	  "inactive:active target; 0 = int_sqrt(10 x GB of the type's pages), at least 1" },
	[L6_T_STATS_FLUSH_MS] = { "stats_flush_ms", "mm/memcontrol.c FLUSH_TIME (2*HZ): flush_memcg_stats_dwork", 2000, 0, 100000,
	  "reclaim reads LRU sizes and workingset activations as of the last periodic rstat flush, every this many ms; 0 = live counts" },
	[L6_T_STATS_FLUSH_PHASE_MS] = { "stats_flush_phase_ms", "when the periodic flush falls after the run starts", -1, -1, 100000,
	  "time of the first flush (then every stats_flush_ms); 0 = at stats_flush_ms; -1 = drawn from the run's seed in [0, stats_flush_ms)" },
	[L6_T_WAIT_WRITEBACK] = { "wait_writeback", "shrink_folio_list case 3: folio_wait_writeback (cgroup v1, !writeback_throttling_sane)", 1, 0, 1,
	  "1 = v1 limit reclaim sleeps only on a PG_reclaim folio met again under writeback; 0 = never (as v2)" },
	/* Mechanism switches (docs/policies.md): 1 = the kernel's code, 0 =
	 * without the mechanism; two_touch and cache_trim above are too. */
	[L6_T_REFAULT_ACTIVATE] = { "refault_activate", "workingset_refault() folio_set_active (workingset.c)", 1, 0, 1,
	  "1 = a refault within the workingset size starts active; 0 = it starts inactive like a new folio "
	  "(still counted in workingset_activate/restore and charged to the cost model)" },
	[L6_T_COST_BALANCE] = { "cost_balance", "get_scan_count() SCAN_FRACT anon_cost/file_cost (5.9)", 1, 0, 1,
	  "1 = split scanning between anon and file inversely to their recent reclaim cost; "
	  "0 = a fixed split, swappiness : 200 - swappiness" },
	[L6_T_BAILOUT] = { "bailout", "shrink_lruvec() nr_reclaimed >= nr_to_reclaim", 1, 0, 1,
	  "1 = a pass stops once it has reclaimed nr_to_reclaim (after one nudge to proportionality); "
	  "0 = it scans all get_scan_count() asked for" },
	{ 0 },
};

/* When the first periodic flush falls.  The kernel's flush_memcg_stats_dwork
 * runs every FLUSH_TIME since boot, so where it falls in a run that starts
 * at a random moment is chance: phase -1 draws it from the run's seed,
 * uniform in [0, period), to the microsecond. */
uint64_t l6_first_flush_ns(double period_ms, double phase_ms, uint64_t seed)
{
	if (phase_ms > 0)
		return (uint64_t)(phase_ms * 1e6);
	uint64_t period_us = (uint64_t)(period_ms * 1e3);
	if (phase_ms < 0 && period_us) {
		struct rng r;
		rng_seed(&r, seed ^ 0x6d656d6367666c75ULL); /* "memcgflu": its own stream */
		return rng_below(&r, period_us) * 1000;
	}
	return period_us * 1000;
}

static void *l6_init(struct mm *mm, const double *tun)
{
	struct linux6 *l = xcalloc(1, sizeof(*l));
	l->mm = mm;
	for (int i = 0; i < L6_NR_TUNABLES; i++)
		l->t[i] = tun ? tun[i] : linux6_tunables[i].def;
	l->next_flush_ns = l6_first_flush_ns(l->t[L6_T_STATS_FLUSH_MS], l->t[L6_T_STATS_FLUSH_PHASE_MS], mm->seed);
	for (int i = 0; i < L6_NR_LRU; i++) {
		l->list[i] = lru_register(&mm->fr, lru_names[i]);
		if (i & 1)
			lru_set_kind(&mm->fr, l->list[i], LRU_KIND_ACTIVE);
	}
	mm_vm_era_6x(mm);
	mm->vm.anon_exclusive = 1;          /* 5.19+ do_swap_page(): a read fault keeps the slot */
	mm->vm.pagecache_folio_order = PAGECACHE_FOLIO_ORDER_MAX; /* ext4, xfs, btrfs: large folios (6.x) */
	mm_work_keep(mm, WORK_BIT(W_ISOLATE_LRU_FOLIOS) | WORK_BIT(W_ISOLATE_BATCHES) |
		     WORK_BIT(W_MOVE_FOLIOS_TO_LRU) | WORK_BIT(W_PUTBACK_BATCHES) | WORK_BIT(W_LRU_LOCK));
	return l;
}

static void l6_destroy(void *p) { free(p); }
static void l6_shrink(void *p, struct scan_control *sc) { l6_shrink_lruvec(p, sc); }

const struct policy_ops linux6_policy = {
	.name = "linux6",
	.summary = "Linux 6.x classic LRU: two-touch activation, nr_to_reclaim bail-out, cost model, cache_trim_mode",
	.tunables = linux6_tunables,
	.flags = POLICY_V1_WAIT_WRITEBACK | POLICY_MEMCG_LRU,
	.init = l6_init,
	.destroy = l6_destroy,
	.add = l6_add,
	.remove = l6_remove,
	.mark_accessed = l6_mark_accessed,
	.shrink = l6_shrink,
	.end_writeback = l6_end_writeback,
	.check = l6_check,
	.evict_shadow = l6_evict_shadow,
	.refault = l6_refault,
};
